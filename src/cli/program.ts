// The `m3` program: every sub-command registered on one commander program, built apart from
// main.ts so a test can read the commands and options the docs quote without starting the CLI.
import { readFileSync } from 'node:fs';
import { fromRepo } from '../config/paths.js';
import { registerAssetsCommands } from './commands/assets.js';
import { registerConfigCommands } from './commands/config.js';
import { registerMergeCommand } from './commands/merge.js';
import { registerBenchCommand } from './commands/bench.js';
import { registerRunCommand } from './commands/run.js';
import { registerRunsCommands } from './commands/runs.js';
import { registerEvalStepCommand } from './commands/eval-step.js';
import { registerEvalCallCommand } from './commands/eval-call.js';
import { registerEvalFinalCommand } from './commands/eval-final.js';
import { registerEvalTaskCommand } from './commands/eval-task.js';
import { registerReportCommand } from './commands/report.js';
import { registerServersCommands } from './commands/servers.js';
import { registerSummaryCommand } from './commands/summary.js';
import { registerTasksCommands } from './commands/tasks.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerCacheCommands } from './commands/cache.js';
import { registerModelCacheCommands } from './commands/model-cache.js';
import { registerFixturesCommands } from './commands/fixtures.js';
import { registerViewCommand } from './commands/view.js';
import { registerDatasetCommands } from './commands/dataset.js';
import { registerCompareCommands } from './commands/compare.js';
import { registerRobustnessCommand } from './commands/robustness.js';
import { registerTrendsCommand } from './commands/trends.js';
import { registerToolsCommands } from './commands/tools.js';
import { registerEvalBatchCommand } from './commands/eval-batch.js';
import { registerExportCommand } from './commands/export.js';
import { M3Command } from './m3-command.js';

export function buildProgram(): M3Command {
  const { version } = JSON.parse(readFileSync(fromRepo('package.json'), 'utf8')) as { version: string };

  // Usage errors (an unknown option, a missing argument) are one line and exit 2: m3-command.ts.
  const program = new M3Command();
  program
    .name('m3')
    .version(version, '-V, --version', 'print the m3bench version')
    .description('m3bench: run and evaluate multimodal tool-using agents over MCP')
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  registerConfigCommands(program);
  registerRunCommand(program);
  registerBenchCommand(program);
  registerRunsCommands(program);
  registerMergeCommand(program);
  registerAssetsCommands(program);
  registerEvalStepCommand(program);
  registerEvalCallCommand(program);
  registerEvalFinalCommand(program);
  registerEvalBatchCommand(program);
  registerEvalTaskCommand(program);
  registerReportCommand(program);
  registerServersCommands(program);
  registerSummaryCommand(program);
  registerExportCommand(program);
  registerTasksCommands(program);
  registerDemoCommand(program);
  registerCacheCommands(program);
  registerModelCacheCommands(program);
  registerFixturesCommands(program);
  registerToolsCommands(program);
  registerViewCommand(program);
  registerDatasetCommands(program);
  registerCompareCommands(program);
  registerRobustnessCommand(program);
  registerTrendsCommand(program);
  return program;
}
