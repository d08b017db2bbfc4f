// `m3 tasks verify` (replay a suite's ground truth on the live servers and check its facts) and
// `m3 tasks list` (counts per tier and type). Reports go to stdout, progress to stderr; a failed
// verification sets a non-zero exit code.
import path from 'node:path';
import { withScratchFolder } from '../scratch-folder.js';
import type { Command } from 'commander';
import { loadProjectConfig } from '../../config/index.js';
import { fromRepo, repoRoot } from '../../config/paths.js';
import { ConfigError } from '../../errors/index.js';
import { createLogger } from '../../log/logger.js';
import { McpHost } from '../../mcp/host.js';
import { formatSuiteSummary, formatVerifyReport, summariseSuite } from '../../tasks/verify-report.js';
import { loadSuite, selectIds } from '../../tasks/verify-static.js';
import { serversUsed, verifySuite, type TaskVerdict } from '../../tasks/verify.js';
import { positiveInteger, seconds } from '../option-parsers.js';
import { allowingFolder, hostOptionsFrom } from '../host-options.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';

const defaultGt = 'json/m3_local_GT.json';
const defaultTasks = 'json/m3_local_tasks.json';

interface SuiteFlags {
  gt: string;
  tasks: string;
  json?: boolean;
}

interface VerifyFlags extends SuiteFlags {
  config?: string;
  only?: string[];
  concurrency: number;
  startupTimeout: number;
  workspaceDir?: string;
}

function idList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  ];
}

function resolveFile(file: string): string {
  return path.isAbsolute(file) ? file : path.resolve(file);
}

function progressLine(verdict: TaskVerdict): void {
  const detail = verdict.status === 'passed' ? `${verdict.factsHeld}/${verdict.facts} facts` : (verdict.problems[0] ?? 'failed');
  process.stderr.write(
    `${verdict.status === 'passed' ? 'ok    ' : 'FAILED'} ${verdict.id} (${(verdict.durationMs / 1000).toFixed(1)} s) ${detail.slice(0, 160)}\n`,
  );
}

async function runVerify(flags: VerifyFlags): Promise<boolean> {
  const suite = loadSuite(resolveFile(flags.gt), resolveFile(flags.tasks));
  const ids = selectIds(suite, flags.only);
  const config = loadProjectConfig(flags.config ? { serversFile: resolveFile(flags.config) } : {});
  const needed = serversUsed(suite.gt.filter((task) => ids.includes(task.id)));
  const configured = new Set(config.servers.map((spec) => spec.name));
  const missing = needed.filter((name) => !configured.has(name));
  if (missing.length > 0)
    throw new ConfigError(`the suite calls server(s) ${missing.join(', ')}, which ${config.serversFile} does not configure (or disables)`);
  process.stderr.write(`m3 tasks verify: starting ${needed.length} server(s) for ${ids.length} task(s): ${needed.join(', ')}\n`);
  // Each task's workspace (the files its tools write) is in a scratch folder the servers may use, never media/.
  return withScratchFolder('m3-tasks-verify', flags.workspaceDir, async (workspaceRoot) => {
    const host = await McpHost.start(
      config.servers.filter((spec) => needed.includes(spec.name)),
      { ...allowingFolder(hostOptionsFrom(config), workspaceRoot), startupTimeoutMs: secondsToTimerMs(flags.startupTimeout), logger: createLogger('error') },
    );
    try {
      const unavailable = new Map(
        host
          .status()
          .filter((status) => status.state !== 'ready')
          .map((status) => [status.name, status.error ?? status.state]),
      );
      const report = await verifySuite({
        suite,
        host,
        root: repoRoot,
        workspaceRoot,
        only: flags.only,
        concurrency: flags.concurrency,
        unavailable,
        serverNames: config.servers.map((spec) => spec.name),
        onTask: flags.json ? undefined : progressLine,
      });
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatVerifyReport(report));
      return report.passed;
    } finally {
      await host.close();
    }
  });
}

export function registerTasksCommands(program: Command): void {
  const tasks = program.command('tasks').description('inspect and verify task suites (ground truth + fuzzy tasks)');
  tasks
    .command('verify')
    .description('replay every GT call on the live servers, check schemas, failures and facts; non-zero exit if any task fails')
    .option('--gt <file>', 'ground-truth file', fromRepo(defaultGt))
    .option('--tasks <file>', 'fuzzy task file', fromRepo(defaultTasks))
    .option('--config <file>', 'server configuration file (default: mcp_servers.json in the repo)')
    .option('--only <ids>', 'comma-separated task ids (repeatable)', idList)
    .option('--concurrency <n>', 'tasks replayed at the same time', positiveInteger, 2)
    .option('--startup-timeout <seconds>', 'per-server startup timeout', seconds, 120)
    .option('--workspace-dir <dir>', "keep each task's workspace (the files its tools wrote) in <dir>/<id>/ (default: a temp folder, removed at the end)")
    .option('--json', 'print the full report as JSON')
    .action(async (flags: VerifyFlags) => {
      if (!(await runVerify(flags))) process.exitCode = 1;
    });
  tasks
    .command('list')
    .description('count the tasks of a suite per tier and type')
    .option('--gt <file>', 'ground-truth file', fromRepo(defaultGt))
    .option('--tasks <file>', 'fuzzy task file', fromRepo(defaultTasks))
    .option('--json', 'print the counts as JSON')
    .action((flags: SuiteFlags) => {
      const summary = summariseSuite(loadSuite(resolveFile(flags.gt), resolveFile(flags.tasks)));
      process.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSuiteSummary(summary));
    });
}
