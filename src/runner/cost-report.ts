// What a batch's model requests cost, for `m3 summary` (text and --json): per cell, read from its
// trials' manifests (src/runner/run-cost.ts costRecord), what was paid to the provider, what the
// model-response cache served (recorded usage, nothing paid: saved), the tasks each per-task limit
// stopped, and the batch's --max-cost stop.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runManifestSchema } from '../results/run-manifest.js';
import type { BatchManifest } from './batch-manifest.js';

const manifestCostSchema = runManifestSchema.pick({ cost: true });

export interface CellCost {
  label: string;
  /** USD paid; null when the model has no price (or no trial manifest recorded a cost). */
  paidUsd: number | null;
  savedUsd: number | null;
  servedTokens: number;
  limited: { tokens: number; messages: number; cost: number };
}

const addOrNull = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/** Per cell, its trials' cost records added up; cells none of whose manifests has one are left out. */
export function batchCosts(batchFile: string, manifest: BatchManifest): CellCost[] {
  const dir = path.dirname(batchFile);
  const cells: CellCost[] = [];
  for (const cell of manifest.cells) {
    let total: CellCost | undefined;
    for (const trial of cell.trials) {
      const file = path.resolve(dir, trial.manifest);
      if (!existsSync(file)) continue;
      const cost = manifestCostSchema.safeParse(JSON.parse(readFileSync(file, 'utf8'))).data?.cost;
      if (!cost) continue;
      const served = cost.servedTokens.input + cost.servedTokens.output;
      const { tokens, messages, cost: byCost } = cost.limited;
      total = total
        ? {
            label: cell.label,
            paidUsd: addOrNull(total.paidUsd, cost.paidUsd),
            savedUsd: addOrNull(total.savedUsd, cost.savedUsd),
            servedTokens: total.servedTokens + served,
            limited: { tokens: total.limited.tokens + tokens, messages: total.limited.messages + messages, cost: total.limited.cost + byCost },
          }
        : { label: cell.label, paidUsd: cost.paidUsd, savedUsd: cost.savedUsd, servedTokens: served, limited: { tokens, messages, cost: byCost } };
    }
    if (total) cells.push(total);
  }
  return cells;
}

const usd = (value: number | null) => (value === null ? 'n/a (no price)' : `$${value.toFixed(4)}`);

/** `cost          <label>: $P paid, $S served by the model cache (saved); stopped by a limit: tokens T, messages M, cost C` per cell, then the --max-cost stop. */
export function costLines(costs: readonly CellCost[], manifest: BatchManifest): string[] {
  const lines = costs.map((cell) => {
    const { tokens, messages, cost } = cell.limited;
    const saved = cell.servedTokens > 0 ? `, ${usd(cell.savedUsd)} served by the model cache (saved)` : '';
    const limited = tokens + messages + cost > 0 ? `; stopped by a limit: tokens ${tokens}, messages ${messages}, cost ${cost}` : '';
    return `cost          ${cell.label}: ${usd(cell.paidUsd)} paid${saved}${limited}`;
  });
  if (manifest.maxCost?.note) lines.push(`max cost      ${manifest.maxCost.note}`);
  return lines;
}
