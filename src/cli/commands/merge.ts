// `m3 merge`: the shards of a run (m3 run --shard k/n or --shard auto) become one run. With
// --from-store, the shard stores are merged into --store, and the prediction files their
// manifests name into the run's folder under --results-dir (runs/<run-id>/, `latest` pointing at
// it) or flat into --run-dir; without, the prediction files named are merged into --output.
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../errors/index.js';
import { mergePredictionFiles } from '../../runner/merge.js';
import { mergeShardStores, type MergedRunReport } from '../../runner/merge-stores.js';

interface MergeFlags {
  output?: string;
  store?: string;
  fromStore?: string[];
  resultsDir?: string;
  runDir?: string;
}

function printRun(report: MergedRunReport): void {
  process.stderr.write(`  ${report.runId}: ${report.shards.length} shard(s)\n`);
  for (const shard of report.shards) process.stderr.write(`    from ${shard}\n`);
  for (const table of report.tables)
    process.stderr.write(
      `    ${table.table}: ${table.copied} row(s) copied, ${table.alreadyThere} already there${table.leftOut > 0 ? `, ${table.leftOut} run-level row(s) of a single shard left out (evaluate the merged run)` : ''}\n`,
    );
  for (const file of report.predictions) process.stdout.write(`${file.output}: ${file.records} prediction record(s)\n`);
  process.stdout.write(`${report.runId}: ${report.tasks} task(s) from ${report.shards.length} shard(s)\n`);
}

function mergeStores(flags: MergeFlags, files: string[]): void {
  if (!flags.store) throw new ConfigError('m3 merge --from-store needs --store <file>: the store the merged run goes into');
  if (files.length > 0 || flags.output)
    throw new ConfigError('m3 merge --from-store merges the prediction files the shard stores name; do not name prediction files or --output as well');
  const store = path.resolve(flags.store);
  const merged = mergeShardStores({
    target: store,
    sources: flags.fromStore ?? [],
    resultsDir: path.resolve(flags.resultsDir ?? path.dirname(store)),
    ...(flags.runDir ? { runDir: path.resolve(flags.runDir) } : {}),
  });
  for (const report of merged.runs) printRun(report);
  for (const file of merged.batchManifests) process.stdout.write(`${file}: batch manifest\n`);
}

export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description('join the shards of a run (m3 run --shard k/n or auto) into one run: their stores and prediction files, or prediction files alone')
    .option('--output <file>', 'merged prediction file to write (when merging prediction files alone)')
    .option('--store <file>', 'run store the merged run goes into (created if absent; with --from-store)')
    .option('--from-store <files...>', 'the shard stores, one per shard (give it last: every following name is a store)')
    .option(
      '--results-dir <dir>',
      'results root the merged run goes into as runs/<run-id>/, with latest pointing at it (with --from-store; default: the folder of --store)',
    )
    .option('--run-dir <dir>', 'write the merged prediction files and batch manifest flat into <dir> instead (no run folder; latest untouched)')
    .argument('[files...]', 'shard prediction files (without --from-store)')
    .addHelpText(
      'after',
      '\nShards must be distinct slices of one run (same run id, model, condition, trials, config hash, task and\n' +
        'ground-truth files, tool surface), all present and not overlapping on a task; otherwise nothing is merged\n' +
        'and the message names both inputs. Re-running the same merge changes nothing. See docs/running.md.',
    )
    .action((files: string[], flags: MergeFlags) => {
      if (flags.fromStore) return mergeStores(flags, files);
      if (!flags.output) throw new ConfigError('m3 merge: name --output <file> for the merged prediction file (or merge stores with --store and --from-store)');
      if (flags.store) throw new ConfigError('m3 merge --store needs --from-store <shard stores...>');
      const result = mergePredictionFiles(
        files.map((file) => path.resolve(file)),
        path.resolve(flags.output),
      );
      for (const input of result.perInput) process.stderr.write(`  ${input.file}: ${input.records} record(s)\n`);
      if (result.manifest) process.stderr.write(`  manifest: ${result.manifest}\n`);
      process.stdout.write(`${result.output}: ${result.records} record(s)\n`);
    });
}
