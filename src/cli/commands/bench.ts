// `m3 bench <file.yaml>`: run a benchmark defined as MCP-Universe-style YAML documents. The file
// becomes the same RunDefinition `m3 run` builds from flags and runs through the same code.
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { benchDefinition } from '../bench-file.js';
import { runDefinition } from './run.js';

interface BenchFlags {
  resultsDir?: string;
  store?: string;
  config?: string;
  runId?: string;
  resume?: boolean | string;
  runDir?: string;
  overwrite?: boolean;
  json?: boolean;
  traceFile?: boolean;
  verbose?: boolean;
  toolSurface?: string;
}

export function registerBenchCommand(program: Command): void {
  program
    .command('bench <file>')
    .description('run a benchmark file: multi-document YAML of kind llm, agent, workflow and benchmark (see README "Benchmark files")')
    .option('--results-dir <dir>', 'results root: the store, `latest` and runs/<run-id>/ (default: results)')
    .option('--run-dir <dir>', 'write this run into exactly this folder instead of <results-dir>/runs/<run-id>/')
    .option('--store <file>', 'SQLite run store (default: <results-dir>/m3bench.sqlite)')
    .option('--config <file>', 'MCP server configuration (default: mcp_servers.json)')
    .option('--run-id <id>', 'run id (default M3_RUN_ID or a timestamp); the model label is appended')
    .option('--resume [run-id]', 'continue a run (its folder results/runs/<run-id>/): skip tasks already finished')
    .option('--overwrite', 'start again even if the prediction file exists')
    .option('--json', 'print the summary as JSON')
    .option('--trace-file', 'also write every episode event with its timestamp to <run folder>/<label>.trace.jsonl')
    .option('--verbose', 'show every intermediate step on stderr, secrets masked')
    .option('--tool-surface <surface>', 'tools offered: m3bench (default), reference (the reference catalog exactly) or reference:<catalog file>')
    .action(async (file: string, flags: BenchFlags) => {
      const definition = benchDefinition(file, loadEnvironment(), {
        ...(flags.resultsDir ? { resultsDir: flags.resultsDir } : {}),
        ...(flags.store ? { store: flags.store } : {}),
        ...(flags.config ? { config: flags.config } : {}),
        ...(flags.runId ? { runId: flags.runId } : {}),
        ...(flags.resume ? { resume: flags.resume } : {}),
        ...(flags.runDir ? { runDir: flags.runDir } : {}),
        ...(flags.overwrite ? { overwrite: true } : {}),
        ...(flags.json ? { json: true } : {}),
        ...(flags.traceFile ? { traceFile: true } : {}),
        ...(flags.verbose ? { verbose: true } : {}),
        ...(flags.toolSurface ? { toolSurface: flags.toolSurface } : {}),
      });
      await runDefinition(definition);
    });
}
