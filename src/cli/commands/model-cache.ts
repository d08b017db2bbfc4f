// `m3 model-cache export|import|stats`: the model-response cache of `m3 run --cache` as a
// shareable JSONL file, so a group reproduces a run from one recorded set of model responses.
import path from 'node:path';
import type { Command } from 'commander';
import { exportResponses, importResponses, readResponseStats } from '../../llm/response-cache-transfer.js';
import { RUN_DEFAULTS } from '../../runner/run-definition.js';

const defaultFile = path.join(RUN_DEFAULTS.resultsDir, 'model-cache.sqlite');
const fileOption = ['--cache-file <file>', `model-response cache file (default: ${defaultFile}, as m3 run --cache)`, defaultFile] as const;

export function registerModelCacheCommands(program: Command): void {
  const cache = program.command('model-cache').description('the model-response cache of m3 run --cache: share it as JSONL, inspect it');
  cache
    .command('stats')
    .description('entries per provider, model and origin (recorded by a run, imported), with the newest recording time')
    .option(...fileOption)
    .option('--json', 'print the rows as JSON')
    .action((flags: { cacheFile: string; json?: boolean }) => {
      const file = path.resolve(flags.cacheFile);
      const rows = readResponseStats(file);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ file, rows }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`model cache ${path.relative(process.cwd(), file) || file}: ${rows.reduce((sum, row) => sum + row.entries, 0)} entries\n`);
      for (const row of rows)
        process.stdout.write(
          `  ${`${row.provider}:${row.model}`.padEnd(48)} ${row.origin.padEnd(9)} ${String(row.entries).padStart(6)}  newest ${row.newest}\n`,
        );
    });
  cache
    .command('export <file>')
    .description('write every entry to a JSONL file (one entry per line, key order)')
    .option(...fileOption)
    .action((output: string, flags: { cacheFile: string }) => {
      const lines = exportResponses(path.resolve(flags.cacheFile), path.resolve(output));
      process.stdout.write(`exported ${lines} model responses to ${output}\n`);
    });
  cache
    .command('import <file>')
    .description("read a JSONL export into the cache (every line's key is recomputed from its request first; all or nothing)")
    .option(...fileOption)
    .action((input: string, flags: { cacheFile: string }) => {
      const lines = importResponses(path.resolve(flags.cacheFile), path.resolve(input));
      process.stdout.write(`imported ${lines} model responses from ${input}\n`);
    });
}
