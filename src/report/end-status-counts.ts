// How the episodes of each prediction file ended (src/core/end-status.ts), counted from the
// `end_status` field m3 run writes into every prediction record (src/agent/to-prediction.ts):
// `m3 summary` prints one line per file so refusals, cut-off answers and context overflows are
// never hidden inside a plain score. Records written before that field existed count as `unknown`.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { endStatuses } from '../core/end-status.js';
import { loadPredictions } from '../tasks/load.js';

const predictionSuffix = '_test_mcp_fuzzy.json';

export interface EndStatusCounts {
  /** The model label: the prediction file's name without its suffix. */
  model: string;
  file: string;
  counts: Record<string, number>;
}

/** One entry per prediction file in `resultsDir`, in name order; statuses in src/core/end-status.ts order, then `unknown`. */
export function endStatusCounts(resultsDir: string): EndStatusCounts[] {
  if (!existsSync(resultsDir)) return [];
  const files = readdirSync(resultsDir)
    .filter((name) => name.endsWith(predictionSuffix))
    .sort();
  return files.map((name) => {
    const file = path.join(resultsDir, name);
    const counts: Record<string, number> = {};
    for (const record of loadPredictions(file)) {
      const status = (record as { end_status?: unknown }).end_status;
      const key = typeof status === 'string' && (endStatuses as readonly string[]).includes(status) ? status : 'unknown';
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return { model: name.slice(0, -predictionSuffix.length), file, counts };
  });
}

export function formatEndStatusCounts(entries: readonly EndStatusCounts[]): string[] {
  const order = [...endStatuses, 'unknown'];
  return entries.map((entry) => {
    const parts = order.filter((status) => entry.counts[status]).map((status) => `${status} ${entry.counts[status]}`);
    return `${entry.model}: ${parts.length > 0 ? parts.join(', ') : 'no records'}`;
  });
}
