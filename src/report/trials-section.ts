// The report's trials tables for the newest batch in the results folder (none: no tables):
// pass@1, pass@k, pass^k, avg@k and step recall/precision with their intervals for every cell,
// and beside it (never blended in) the performance per cell and trial from the run store.
import { findBatchManifests } from '../runner/batch-manifest.js';
import { loadBatchResults } from '../stats/batch-results.js';
import { defaultBootstrap } from '../stats/bootstrap.js';
import { batchPerformance } from '../stats/cell-performance.js';
import { summarizeCell } from '../stats/cell-summary.js';
import { performanceTable, trialsTable } from '../stats/format.js';
import { labelledAgent } from './leaderboard.js';
import type { Table } from './tables.js';

export function newestTrialsTables(resultsDir: string): { trials?: Table; performance?: Table } {
  const newest = findBatchManifests(resultsDir)[0];
  if (!newest) return {};
  const batch = loadBatchResults(newest.file);
  const summaries = batch.cells.map((cell) => summarizeCell(cell, defaultBootstrap)).filter((summary) => summary.tasks > 0);
  if (summaries.length === 0) return {};
  const performance = batchPerformance(batch).filter((cell) => summaries.some((summary) => summary.label === cell.label));
  // The oracle and the noisy agent say what they are here too.
  const labelled = (table: Table): Table => ({
    ...table,
    rows: table.rows.map(([label, ...rest]) => [typeof label === 'string' ? labelledAgent(label) : (label ?? ''), ...rest]),
  });
  return {
    trials: labelled(trialsTable(summaries, defaultBootstrap, batch.manifest.batchId)),
    ...(performance.length > 0 ? { performance: labelled(performanceTable(performance, batch.manifest.batchId)) } : {}),
  };
}
