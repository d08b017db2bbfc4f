// The report's trials table: pass@1, pass@k, pass^k, avg@k and step recall/precision with their
// intervals for every cell of the newest batch in the results folder (none: no table).
import { findBatchManifests } from '../runner/batch-manifest.js';
import { loadBatchResults } from '../stats/batch-results.js';
import { defaultBootstrap } from '../stats/bootstrap.js';
import { summarizeCell } from '../stats/cell-summary.js';
import { trialsTable } from '../stats/format.js';
import { labelledAgent } from './leaderboard.js';
import type { Table } from './tables.js';

export function newestTrialsTable(resultsDir: string): Table | undefined {
  const newest = findBatchManifests(resultsDir)[0];
  if (!newest) return undefined;
  const batch = loadBatchResults(newest.file);
  const summaries = batch.cells.map((cell) => summarizeCell(cell, defaultBootstrap)).filter((summary) => summary.tasks > 0);
  if (summaries.length === 0) return undefined;
  const table = trialsTable(summaries, defaultBootstrap, batch.manifest.batchId);
  // The oracle and the noisy agent say what they are here too.
  return { ...table, rows: table.rows.map(([label, ...rest]) => [typeof label === 'string' ? labelledAgent(label) : (label ?? ''), ...rest]) };
}
