// What a batch's model requests cost, for `m3 summary` (text and --json): per cell, read from its
// trials' manifests (src/runner/run-cost.ts costRecord), what was paid to the provider (batch
// replies at the batch price), what the model-response cache served (recorded usage, nothing paid:
// saved), what batch pricing saved, the tasks each per-task limit stopped, and the --max-cost stop.
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
  /** USD batch pricing took off the list price (0 without batch replies). */
  savedByBatchUsd: number | null;
  servedTokens: number;
  /** Input + output tokens a provider batch job answered. */
  batchTokens: number;
  /** Input and output tokens of every reply, paid or served. */
  inputTokens: number;
  outputTokens: number;
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
      const batched = (cost.batchTokens?.input ?? 0) + (cost.batchTokens?.output ?? 0);
      const savedByBatch = cost.savedByBatchUsd === undefined ? (cost.paidUsd === null ? null : 0) : cost.savedByBatchUsd;
      const inputTokens = cost.paidTokens.input + cost.servedTokens.input;
      const outputTokens = cost.paidTokens.output + cost.servedTokens.output;
      const { tokens, messages, cost: byCost } = cost.limited;
      total = total
        ? {
            label: cell.label,
            paidUsd: addOrNull(total.paidUsd, cost.paidUsd),
            savedUsd: addOrNull(total.savedUsd, cost.savedUsd),
            savedByBatchUsd: addOrNull(total.savedByBatchUsd, savedByBatch),
            servedTokens: total.servedTokens + served,
            batchTokens: total.batchTokens + batched,
            inputTokens: total.inputTokens + inputTokens,
            outputTokens: total.outputTokens + outputTokens,
            limited: { tokens: total.limited.tokens + tokens, messages: total.limited.messages + messages, cost: total.limited.cost + byCost },
          }
        : {
            label: cell.label,
            paidUsd: cost.paidUsd,
            savedUsd: cost.savedUsd,
            savedByBatchUsd: savedByBatch,
            servedTokens: served,
            batchTokens: batched,
            inputTokens,
            outputTokens,
            limited: { tokens, messages, cost: byCost },
          };
    }
    if (total) cells.push(total);
  }
  return cells;
}

const usd = (value: number | null) => (value === null ? 'n/a (no price)' : `$${value.toFixed(4)}`);

/** `cost          <label>: $P paid, $S served by the model cache (saved), $B saved by batch pricing; stopped by a limit: tokens T, messages M, cost C` per cell, then the --max-cost stop. */
export function costLines(costs: readonly CellCost[], manifest: BatchManifest): string[] {
  const lines = costs.map((cell) => {
    const { tokens, messages, cost } = cell.limited;
    const saved = cell.servedTokens > 0 ? `, ${usd(cell.savedUsd)} served by the model cache (saved)` : '';
    const batch = cell.batchTokens > 0 ? `, ${usd(cell.savedByBatchUsd)} saved by batch pricing (batch replies paid at the batch price)` : '';
    const limited = tokens + messages + cost > 0 ? `; stopped by a limit: tokens ${tokens}, messages ${messages}, cost ${cost}` : '';
    return `cost          ${cell.label}: ${usd(cell.paidUsd)} paid${saved}${batch}${limited}`;
  });
  if (manifest.maxCost?.note) lines.push(`max cost      ${manifest.maxCost.note}`);
  return lines;
}

const integer = new Intl.NumberFormat('en-US');

/** `+12%`: how far the actual figure is from the estimate, relative to the actual. */
function deviation(estimated: number, actual: number): string {
  if (actual === 0) return 'n/a';
  const percent = Math.round(((estimated - actual) / actual) * 100);
  return `${percent >= 0 ? '+' : ''}${percent}%`;
}

export interface EstimateComparison {
  label: string;
  model: string;
  estimated: { inputTokens: number; outputTokens: number; costUsd: number | null };
  actual: { inputTokens: number; outputTokens: number; costUsd: number | null };
}

/** Per cell, the run's stored estimate for its model beside what its trials' manifests recorded (at list price: paid plus what the cache and batch pricing saved, as the estimate prices). */
export function estimateComparisons(costs: readonly CellCost[], manifest: BatchManifest): EstimateComparison[] {
  const comparisons: EstimateComparison[] = [];
  for (const cell of manifest.cells) {
    const estimate = manifest.estimate?.models.find((model) => model.model === cell.model);
    const actual = costs.find((cost) => cost.label === cell.label);
    if (!estimate || !actual) continue;
    comparisons.push({
      label: cell.label,
      model: cell.model,
      estimated: { inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens, costUsd: estimate.costUsd },
      actual: {
        inputTokens: actual.inputTokens,
        outputTokens: actual.outputTokens,
        costUsd: addOrNull(addOrNull(actual.paidUsd, actual.savedUsd), actual.savedByBatchUsd),
      },
    });
  }
  return comparisons;
}

/** `estimate      <label>: input 12,000 estimated vs 11,500 actual (+4%), output ..., cost ...` per cell. */
export function estimateLines(comparisons: readonly EstimateComparison[]): string[] {
  return comparisons.map(({ label, estimated, actual }) => {
    const cost =
      estimated.costUsd === null || actual.costUsd === null
        ? 'cost n/a (no price)'
        : `cost ${usd(estimated.costUsd)} vs ${usd(actual.costUsd)} (${deviation(estimated.costUsd, actual.costUsd)})`;
    return `estimate      ${label}: input tokens ${integer.format(estimated.inputTokens)} estimated vs ${integer.format(actual.inputTokens)} actual (${deviation(estimated.inputTokens, actual.inputTokens)}), output ${integer.format(estimated.outputTokens)} vs ${integer.format(actual.outputTokens)} (${deviation(estimated.outputTokens, actual.outputTokens)}), ${cost}`;
  });
}
