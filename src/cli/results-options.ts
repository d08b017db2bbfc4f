// The one name of the results-folder option in every command that reads results: `--results-dir`
// (with `--results` kept as an alias), and the one rule for what is read when it names a results
// root: the run `latest` points at (src/results/run-folder-of.ts).
import path from 'node:path';
import { Option, type Command } from 'commander';
import { log } from '../log/logger.js';
import { defaultSaveFolder, resolveReadFolder } from '../results/run-folder-of.js';

export interface ResultsDirFlags {
  resultsDir?: string;
  results?: string;
  save?: string;
}

export function addResultsDirOption(command: Command, what = 'a run folder (results/runs/<run-id>), or a results root whose latest run is read'): Command {
  return command
    .option('--results-dir <dir>', `${what} (default: results, i.e. results/latest when a run has finished)`)
    .addOption(new Option('--results <dir>', 'alias of --results-dir').hideHelp());
}

/** The folder to read and where figures go (`--save`, else the run's own save/, else save/). */
export function readFoldersFrom(flags: ResultsDirFlags): { resultsDir: string; saveDir: string } {
  const given = flags.resultsDir ?? flags.results ?? 'results';
  const { dir, viaLatest } = resolveReadFolder(given);
  if (viaLatest) log.info(`reading the latest run: ${path.relative(process.cwd(), dir) || dir} (${path.join(given, 'latest')})`);
  return { resultsDir: dir, saveDir: flags.save ? path.resolve(flags.save) : defaultSaveFolder(dir) };
}
