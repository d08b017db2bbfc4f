// The `m3` program: the sub-commands registered on one commander program, built apart from
// main.ts so a test can read the commands and options the docs quote without starting the CLI.
// A command's module is imported only when the command line names it: importing all of them took
// ~1.1 s CPU per start (through them nearly the whole library: the OpenTelemetry SDK, the LLM SDKs,
// sharp, better-sqlite3...), paid by every `m3 summary` and by each of the test suite's CLI children.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { fromRepo } from '../config/paths.js';
import { M3Command } from './m3-command.js';

type Register = (program: Command) => void;

interface CommandModules {
  /** The top-level command names the registrars add (what `m3 <name>` starts with). */
  names: readonly string[];
  load: () => Promise<readonly Register[]>;
}

/**
 * Every `m3` command, in the order `m3 --help` lists them (registration order). The one place a
 * new command module is added; test/docs/quoted-commands.test.ts checks that each registered
 * command's name selects the module that registers it (scripts/lib.sh's m3_has_command reads
 * these names too).
 */
const commandModules: readonly CommandModules[] = [
  { names: ['config'], load: async () => [(await import('./commands/config.js')).registerConfigCommands] },
  { names: ['run'], load: async () => [(await import('./commands/run.js')).registerRunCommand] },
  { names: ['bench'], load: async () => [(await import('./commands/bench.js')).registerBenchCommand] },
  { names: ['runs'], load: async () => [(await import('./commands/runs.js')).registerRunsCommands] },
  { names: ['merge'], load: async () => [(await import('./commands/merge.js')).registerMergeCommand] },
  { names: ['assets'], load: async () => [(await import('./commands/assets.js')).registerAssetsCommands] },
  {
    // One `eval` parent (commands/eval-group.ts): its sub-commands are listed in this order.
    names: ['eval'],
    load: async () => {
      const [step, call, final, batch, task] = await Promise.all([
        import('./commands/eval-step.js'),
        import('./commands/eval-call.js'),
        import('./commands/eval-final.js'),
        import('./commands/eval-batch.js'),
        import('./commands/eval-task.js'),
      ]);
      return [
        step.registerEvalStepCommand,
        call.registerEvalCallCommand,
        final.registerEvalFinalCommand,
        batch.registerEvalBatchCommand,
        task.registerEvalTaskCommand,
      ];
    },
  },
  { names: ['report'], load: async () => [(await import('./commands/report.js')).registerReportCommand] },
  { names: ['servers'], load: async () => [(await import('./commands/servers.js')).registerServersCommands] },
  { names: ['summary'], load: async () => [(await import('./commands/summary.js')).registerSummaryCommand] },
  { names: ['export'], load: async () => [(await import('./commands/export.js')).registerExportCommand] },
  { names: ['tasks'], load: async () => [(await import('./commands/tasks.js')).registerTasksCommands] },
  { names: ['demo'], load: async () => [(await import('./commands/demo.js')).registerDemoCommand] },
  { names: ['cache'], load: async () => [(await import('./commands/cache.js')).registerCacheCommands] },
  { names: ['model-cache'], load: async () => [(await import('./commands/model-cache.js')).registerModelCacheCommands] },
  { names: ['fixtures'], load: async () => [(await import('./commands/fixtures.js')).registerFixturesCommands] },
  { names: ['tools'], load: async () => [(await import('./commands/tools.js')).registerToolsCommands] },
  { names: ['view'], load: async () => [(await import('./commands/view.js')).registerViewCommand] },
  { names: ['dataset'], load: async () => [(await import('./commands/dataset.js')).registerDatasetCommands] },
  { names: ['compare', 'gate'], load: async () => [(await import('./commands/compare.js')).registerCompareCommands] },
  { names: ['robustness'], load: async () => [(await import('./commands/robustness.js')).registerRobustnessCommand] },
  { names: ['trends'], load: async () => [(await import('./commands/trends.js')).registerTrendsCommand] },
];

/**
 * The command modules a command line needs. Its command word is its first word that is not an
 * option (the program's own options, -V and -h, take no value). A known word: that command's
 * modules. A bare --version: none. Anything else (help, no command, an unknown command or
 * option): all of them, since commander then lists every command or suggests the nearest one.
 */
function modulesFor(args: readonly string[] | undefined): readonly CommandModules[] {
  if (args === undefined) return commandModules;
  const word = args.find((arg) => !arg.startsWith('-'));
  const named = word === undefined ? undefined : commandModules.find((entry) => entry.names.includes(word));
  if (named) return [named];
  if (word === undefined && (args[0] === '--version' || args[0] === '-V')) return [];
  return commandModules;
}

/**
 * The `m3` program with the commands `args` (the words after `m3`) needs registered; without
 * `args`, every command (for a test that reads them all).
 */
export async function buildProgram(args?: readonly string[]): Promise<M3Command> {
  const { version } = JSON.parse(readFileSync(fromRepo('package.json'), 'utf8')) as { version: string };
  const registrars = await Promise.all(modulesFor(args).map((entry) => entry.load()));

  // Usage errors (an unknown option, a missing argument) are one line and exit 2: m3-command.ts.
  const program = new M3Command();
  program
    .name('m3')
    .version(version, '-V, --version', 'print the m3bench version')
    .description('m3bench: run and evaluate multimodal tool-using agents over MCP')
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  for (const register of registrars.flat()) register(program);
  return program;
}
