import path from 'node:path';
import type { Command } from 'commander';
import { mergePredictionFiles } from '../../runner/merge.js';

export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description('combine prediction files of shards (m3 run --shard k/n) into one file, sorted by task id')
    .requiredOption('--output <file>', 'merged prediction file to write')
    .argument('<files...>', 'shard prediction files')
    .action((files: string[], flags: { output: string }) => {
      const result = mergePredictionFiles(
        files.map((file) => path.resolve(file)),
        path.resolve(flags.output),
      );
      for (const input of result.perInput) process.stderr.write(`  ${input.file}: ${input.records} record(s)\n`);
      process.stdout.write(`${result.output}: ${result.records} record(s)\n`);
    });
}
