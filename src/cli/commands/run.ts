// `m3 run`: produce predictions for one or more models over a task set.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { AGENT_KINDS, DEFAULT_AGENT_KIND, type AgentKind } from '../../agent/agent-kind.js';
import { loadProjectConfig } from '../../config/index.js';
import { fromRepo, repoRoot } from '../../config/paths.js';
import { ConfigError } from '../../errors/index.js';
import { createDriver, modelLabel } from '../../llm/registry.js';
import type { DriverContext } from '../../llm/types.js';
import { log } from '../../log/logger.js';
import { McpHost } from '../../mcp/index.js';
import { assertRunNotHeld } from '../../runner/run-lease.js';
import { runModel, type RunModelReport } from '../../runner/run-model.js';
import { writeToolCatalogs } from '../../runner/tool-catalog.js';
import { loadTaskSet, parseShard } from '../../runner/task-set.js';
import { listRuns, openStore } from '../../store/index.js';
import { hostOptionsFrom } from '../host-options.js';
import { nonNegativeInteger, seconds } from '../option-parsers.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';
import { printSummary, reportOutcome, requireTasks } from '../run-outcome.js';
import { createStopSignal } from '../stop-signal.js';
import { nonNegativeNumber } from '../option-parsers.js';

export const defaultTasksFile = 'json/m3_local_tasks.json';
export const defaultGtFile = 'json/m3_local_GT.json';


interface RunFlags {
  model: string[];
  agent: AgentKind;
  tasks: string;
  gt?: string;
  imageDir?: string;
  concurrency: number;
  maxStep: number;
  maxConcurrent: number;
  topTools: number;
  maxNewTokens: number;
  temperature?: number;
  seed?: number;
  resume?: boolean;
  overwrite?: boolean;
  runId?: string;
  output?: string;
  resultsDir: string;
  shard?: string;
  store?: string;
  config?: string;
  startupTimeout: number;
  fuzzy: boolean;
  allowMissingServers?: boolean;
  json?: boolean;
}

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

function resolveRunId(flags: RunFlags, envRunId: string, label: string, storeFile: string): string {
  const base = flags.runId ?? (envRunId || undefined);
  if (base) return `${base}.${label}`;
  if (flags.resume) {
    const store = openStore(storeFile);
    try {
      const latest = listRuns(store, { modelLabel: label, limit: 1 })[0];
      if (!latest) throw new ConfigError(`--resume: no earlier run of ${label} in ${storeFile}; pass --run-id`);
      return latest.runId;
    } finally {
      store.close();
    }
  }
  return `${timestamp()}.${label}`;
}

/** A --resume of a run another live process writes is refused before any server starts. */
function refuseHeldRuns(storeFile: string, runIds: readonly string[]): void {
  if (!existsSync(storeFile)) return;
  const store = openStore(storeFile);
  try {
    for (const runId of runIds) assertRunNotHeld(store, runId);
  } finally {
    store.close();
  }
}

/**
 * Every model's driver is created (an unknown provider or a missing key fails here, naming the
 * variable) and asked for its model, before any server starts: a rejected key or a model the
 * endpoint does not have stops the run now instead of failing every task.
 */
async function checkModels(models: readonly string[], context: DriverContext): Promise<void> {
  for (const model of models) {
    const driver = await createDriver(model, context);
    const result = await driver.preflight?.();
    if (!result || result.ok) continue;
    if (result.fatal) throw new ConfigError(`${result.message} (checked before starting the run; nothing was run)`);
    log.warn(`${model}: could not confirm the model before the run (${result.message}); starting anyway`);
  }
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('run models over a task set and write predictions (results/<model>_test_mcp_fuzzy.json) and the run store')
    .option('--model <spec...>', 'provider:model, repeatable (replay:gt, replay:noisy, openai:gpt-4o, anthropic:..., gemini:..., ollama:...)', ['replay:gt'])
    .addOption(new Option('--agent <kind>', 'agent kind: function-call (native tool calling), react (text actions, no tools field; any model), basic (no tools)').choices(AGENT_KINDS).default(DEFAULT_AGENT_KIND))
    .option('--tasks <file>', 'task file (fuzzy tasks, or a combined file with ground truth)', defaultTasksFile)
    .option('--gt <file>', 'ground-truth file (needed by replay models and the server check)')
    .option('--image-dir <dir>', 'root for task image paths (default: M3_IMAGE_DIR, then the task file folder, then the repo)')
    .option('--concurrency <n>', 'tasks run in parallel', nonNegativeInteger, 5)
    .option('--max-step <n>', 'maximum rounds of tool calls per task', nonNegativeInteger, 6)
    .option('--max-concurrent <n>', 'maximum parallel tool calls per round', nonNegativeInteger, 10)
    .option('--top-tools <n>', 'offer only the N best-ranked tools (0 = all)', nonNegativeInteger, 0)
    .option('--max-new-tokens <n>', 'generation cap per model request', nonNegativeInteger, 8192)
    .option('--temperature <t>', 'sampling temperature, a number >= 0 (default: provider default)', nonNegativeNumber)
    .option('--seed <n>', 'sampling seed where the provider supports it', nonNegativeInteger)
    .option('--resume', 'continue a run: skip tasks already finished (same run id)')
    .option('--overwrite', 'start again even if the prediction file exists')
    .option('--run-id <id>', 'run id (default M3_RUN_ID or a timestamp); the model label is appended')
    .option('--output <file>', 'prediction file (single model only)')
    .option('--results-dir <dir>', 'where prediction files go', 'results')
    .option('--shard <k/n>', 'run only the k-th of n deterministic slices of the tasks')
    .option('--store <file>', 'SQLite run store (default: <results-dir>/m3bench.sqlite)')
    .option('--config <file>', 'MCP server configuration', 'mcp_servers.json')
    .option('--startup-timeout <s>', 'seconds each MCP server may take to start (OCR loads large models)', seconds, 120)
    .option('--no-fuzzy', 'ask the explicit prompt instead of the fuzzy question')
    .option('--allow-missing-servers', 'run tasks whose ground truth needs servers that are not running')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      '\nWithout --model this runs the oracle replay:gt (replays the ground truth).\n' +
        'Ctrl-C (or SIGTERM) stops gracefully: tasks in flight are recorded as interrupted, the store and the\n' +
        'prediction file are flushed, and the message says how to resume; a second Ctrl-C exits at once.\n' +
        'Only one process may write a run: a concurrent --resume of the same run id is refused.\n' +
        'Exit status: 0 done; 2 bad input or configuration; 3 every task failed for infrastructure reasons\n' +
        '(nothing scored); 130 stopped by a signal (resume with --resume --run-id <id>).',
    )
    .action(async (flags: RunFlags, command: Command) => {
      const config = loadProjectConfig({ serversFile: path.resolve(flags.config ?? 'mcp_servers.json') });
      const models = flags.model.flatMap((entry) => entry.split(',')).map((entry) => entry.trim()).filter(Boolean);
      if (command.getOptionValueSource('model') === 'default') {
        log.info('no --model given: running the oracle replay:gt, which replays the ground truth (a self-check of the harness, not a model); pass --model provider:model to benchmark a model');
      }
      if (flags.output && models.length > 1) throw new ConfigError('--output names one file: use it with a single --model');
      const tasksFile = path.resolve(flags.tasks);
      const gtFile = flags.gt ? path.resolve(flags.gt) : flags.tasks === defaultTasksFile && existsSync(fromRepo(defaultGtFile)) ? fromRepo(defaultGtFile) : undefined;
      const taskSet = loadTaskSet({ tasksFile, ...(gtFile ? { gtFile } : {}), fuzzy: flags.fuzzy });
      for (const warning of taskSet.warnings) log.warn(warning);
      const shard = parseShard(flags.shard);
      requireTasks(taskSet, shard);
      const imageDirs = [flags.imageDir ?? config.switches.M3_IMAGE_DIR, path.dirname(tasksFile), repoRoot].map((dir) => path.resolve(dir));
      const resultsDir = path.resolve(flags.resultsDir);
      const storeFile = path.resolve(flags.store ?? path.join(resultsDir, 'm3bench.sqlite'));
      const plan = models.map((model) => ({ model, runId: resolveRunId(flags, config.switches.M3_RUN_ID, modelLabel(model), storeFile) }));
      if (flags.resume) refuseHeldRuns(storeFile, plan.map((entry) => entry.runId));
      await checkModels(models, { env: config.env, groundTruth: taskSet.groundTruth, timeoutMs: config.switches.M3_LLM_TIMEOUT * 1000 });
      const host = await McpHost.start(config.servers, {
        ...hostOptionsFrom(config),
        startupTimeoutMs: secondsToTimerMs(flags.startupTimeout),
        logDir: path.join(resultsDir, 'logs', `servers-${timestamp()}`),
      });
      // The live tool surface, for call-level evaluation and the tools-per-server chart.
      writeToolCatalogs(resultsDir, host);
      const store = openStore(storeFile);
      const reports: RunModelReport[] = [];
      const stop = createStopSignal((name) => log.warn(`${name}: stopping; tasks in flight are abandoned and recorded as interrupted (press Ctrl-C again to exit at once)`));
      try {
        for (const { model, runId } of plan) {
          if (stop.signal.aborted) break;
          log.info(`run ${runId}: ${model} over ${taskSet.tasks.length} task(s) from ${path.relative(process.cwd(), tasksFile)}`);
          reports.push(
            await runModel(
              {
                model, taskSet, concurrency: Math.max(1, flags.concurrency), runId, resume: Boolean(flags.resume), overwrite: Boolean(flags.overwrite),
                ...(flags.output ? { output: flags.output } : {}), resultsDir, ...(shard ? { shard } : {}), imageDirs,
                allowMissingServers: Boolean(flags.allowMissingServers), signal: stop.signal,
                limits: {
                  agent: flags.agent, maxStep: flags.maxStep, maxConcurrent: flags.maxConcurrent, topTools: flags.topTools, maxNewTokens: flags.maxNewTokens,
                  ...(flags.temperature !== undefined ? { temperature: flags.temperature } : {}),
                  ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
                },
              },
              { config, host, store, logger: log, root: repoRoot },
            ),
          );
        }
      } finally {
        store.close();
        // Still listening while the servers close, so a second Ctrl-C exits at once.
        await host.close();
        stop.dispose();
      }
      printSummary(reports, flags.json);
      process.exitCode = reportOutcome(reports, models.length, log);
    });
}
