// `m3 summary`: the headline numbers of every evaluated model, then where the outputs are.
// Only outputs that exist are named, so an empty or half-finished folder never points a user at
// figures or a report that were never made.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { endStatusCounts, formatEndStatusCounts } from '../../report/end-status-counts.js';
import { loadAllResults } from '../../report/load-results.js';
import { mockedShare } from '../../report/fallback-share.js';
import { formatSummaryTable, type SummaryShares } from '../../report/summary-table.js';
import { manifestFileFor, predictionFile } from '../../results/layout.js';
import { findBatchManifests } from '../../runner/batch-manifest.js';
import { responseCacheLines } from '../../runner/response-cache-report.js';
import { batchCosts, costLines, estimateComparisons, estimateLines } from '../../runner/cost-report.js';
import { loadBatchResults, resolveBatchFile } from '../../stats/batch-results.js';
import { robustnessSummaryLines } from '../../stats/robustness-format.js';
import { batchRobustness } from '../../stats/robustness-report.js';
import { summarizeCell } from '../../stats/cell-summary.js';
import { batchPerformance } from '../../stats/cell-performance.js';
import { formatPerformanceTable, formatTrialsTable } from '../../stats/format.js';
import { SUCCESS_RULE } from '../../stats/task-success.js';
import { ConfigError } from '../../errors/index.js';
import { addBootstrapOptions, bootstrapSettings, type BootstrapFlags } from '../bootstrap-options.js';
import { addResultsDirOption, readFoldersFrom, type ResultsDirFlags } from '../results-options.js';

function filesIn(dir: string, matches: (name: string) => boolean): string[] {
  return existsSync(dir) ? readdirSync(dir).filter(matches) : [];
}

/** `label   path` lines for the outputs present under the results and save folders. */
function outputLines(resultsDir: string, saveDir: string, evaluated: number): string[] {
  const shown = (target: string) => path.relative(process.cwd(), target) || '.';
  const lines: string[] = [];
  const predictions = filesIn(resultsDir, (name) => name.endsWith('_test_mcp_fuzzy.json'));
  if (predictions.length > 0) lines.push(`predictions   ${shown(path.join(resultsDir, '<model>_test_mcp_fuzzy.json'))} (${predictions.length} file(s))`);
  if (evaluated > 0) lines.push(`evaluations   ${shown(path.join(resultsDir, '<model>'))}/`);
  // A run folder's store is its results root's (results/runs/<id>/ → results/m3bench.sqlite).
  const store = [path.join(resultsDir, 'm3bench.sqlite'), path.join(resultsDir, '..', '..', 'm3bench.sqlite')].find((file) => existsSync(file));
  if (store) lines.push(`run store     ${shown(store)}`);
  const figures = filesIn(saveDir, (name) => /\.(png|svg)$/i.test(name));
  if (figures.length > 0) lines.push(`figures       ${shown(saveDir)}/ (${figures.length} file(s))`);
  const report = path.join(saveDir, 'report.html');
  if (existsSync(report)) lines.push(`report        ${shown(report)}`);
  return lines;
}

interface SummaryFlags extends BootstrapFlags, ResultsDirFlags {
  models?: string;
  batch?: string;
  json?: boolean;
}

/** The batch named, else the newest in the results folder, with its statistics (none: no batch). */
function loadTrials(flags: SummaryFlags, resultsDir: string) {
  if (!flags.batch && findBatchManifests(resultsDir).length === 0) return undefined;
  const file = resolveBatchFile(flags.batch ?? resultsDir);
  const batch = loadBatchResults(file);
  const settings = bootstrapSettings(flags);
  return { file, batch, settings, summaries: batch.cells.map((cell) => summarizeCell(cell, settings)), performance: batchPerformance(batch) };
}

/** Per prediction-file label: its mocked calls and placeholder-image tasks (one function computes them: src/report/fallback-share.ts). */
function sharesOf(resultsDir: string, labels: readonly string[]): Map<string, SummaryShares> {
  const shares = new Map<string, SummaryShares>();
  for (const label of labels) {
    const file = predictionFile(resultsDir, label);
    const share = mockedShare(label, file, manifestFileFor(file));
    if (share) shares.set(label, { mockedCalls: share.mockedCalls, calls: share.calls, placeholderTasks: share.placeholderTasks, tasks: share.tasks });
  }
  return shares;
}

/** Pass rates and intervals of a batch, then its performance table. */
function trialsSection(trials: NonNullable<ReturnType<typeof loadTrials>>): string {
  const { batch, file, settings, summaries, performance } = trials;
  const title = `batch ${batch.manifest.batchId} (${path.relative(process.cwd(), file)}): ${batch.manifest.trials} trial(s) per task`;
  const table = formatTrialsTable(summaries, settings);
  const costs = batchCosts(file, batch.manifest);
  const cached = [
    ...responseCacheLines(file, batch.manifest),
    ...costLines(costs, batch.manifest),
    ...estimateLines(estimateComparisons(costs, batch.manifest)),
    ...robustnessSummaryLines(batchRobustness(file, batch, settings)),
  ];
  return `${title}\n${table}${performance.length > 0 ? `\n\n${formatPerformanceTable(performance)}` : ''}${cached.length > 0 ? `\n\n${cached.join('\n')}` : ''}`;
}

export function registerSummaryCommand(program: Command): void {
  addBootstrapOptions(
    addResultsDirOption(program.command('summary').description('print the headline numbers of every evaluated model of one run and where the outputs are'))
      .option('--save <dir>', "figures and report folder (default: the run's save/, or save/ for a flat results folder)")
      .option('--models <list>', 'comma-separated model labels (default: every evaluated model)')
      .option('--batch <file>', 'the batch manifest whose pass rates to print (default: the newest *.batch.json in --results)')
      .option('--json', "print the batch's pass rates (with the success rule per task) and its performance as JSON"),
  ).action((flags: SummaryFlags) => {
    const { resultsDir, saveDir } = readFoldersFrom(flags);
    const trials = loadTrials(flags, resultsDir);
    if (flags.json) {
      if (!trials) throw new ConfigError(`${resultsDir}: no *.batch.json batch manifest (written by m3 run) for --json`);
      const { batch, file, settings, summaries, performance } = trials;
      const mocked = Object.fromEntries(
        sharesOf(
          path.dirname(file),
          batch.manifest.cells.flatMap((cell) => cell.trials.map((trial) => trial.label)),
        ),
      );
      // How the episodes ended (limits included) and what they cost: paid, and served by the model cache.
      const ends = endStatusCounts(path.dirname(file)).map(({ model, counts }) => ({ label: model, counts }));
      const costs = batchCosts(file, batch.manifest);
      const cost = {
        cells: costs,
        estimateVsActual: estimateComparisons(costs, batch.manifest),
        ...(batch.manifest.maxCost ? { maxCost: batch.manifest.maxCost } : {}),
      };
      process.stdout.write(
        `${JSON.stringify({ batch: batch.manifest.batchId, file, settings, successRule: SUCCESS_RULE, cells: summaries, performance, mocked, endStatuses: ends, cost, robustness: batchRobustness(file, batch, settings) }, null, 2)}\n`,
      );
      return;
    }
    const models = flags.models
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const loaded = loadAllResults(resultsDir, models);
    if (loaded.models.length > 0)
      process.stdout.write(
        `${formatSummaryTable(
          loaded.models,
          sharesOf(
            resultsDir,
            loaded.models.map((results) => results.model),
          ),
        )}\n`,
      );
    else
      process.stdout.write(
        `no evaluated model in ${path.relative(process.cwd(), resultsDir) || '.'} (run scripts/benchmark_fuzzy.sh, or m3 run then m3 eval step)\n`,
      );
    if (loaded.missing.length > 0) process.stdout.write(`not evaluated: ${loaded.missing.join(', ')}\n`);
    const ends = formatEndStatusCounts(endStatusCounts(resultsDir));
    if (ends.length > 0) process.stdout.write(`\nhow the episodes ended (end_status of the prediction files):\n  ${ends.join('\n  ')}\n`);
    if (trials) process.stdout.write(`\n${trialsSection(trials)}\n\n`);
    const lines = outputLines(resultsDir, saveDir, loaded.models.length);
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
  });
}
