// Performance beside correctness, never blended into it: per cell (model + condition) and per
// trial of it, from the run store's episodes, the median duration, rounds and tool calls of a
// task attempt, mean input/output tokens, total cost and cost per passed task. Only the last
// finished attempt of each (task, trial) that is not an infrastructure failure counts, the same
// trials the pass rates count. The price entry the costs were computed with comes from the
// run's manifest (src/llm/pricing.ts priceRecord), so every cost is printed with its price date.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { batchPath } from '../runner/batch-manifest.js';
import { type EpisodeImageTokens, type EpisodeRow, episodesForRun, imageTokensForRun, openStore } from '../store/index.js';
import { loadJsonFile } from '../tasks/load-json.js';
import type { BatchResults, CellResults } from './batch-results.js';
import { median } from './describe.js';
import { mean } from '../core/number-format.js';

interface PerformanceFigures {
  /** null: every trial of the cell together; else that trial. */
  trial: number | null;
  attempts: number;
  medianDurationMs: number;
  medianRounds: number;
  medianToolCalls: number;
  meanInputTokens: number;
  meanOutputTokens: number;
  /**
   * Estimated image tokens per model request (the store's per-request estimate, migration 011);
   * null when a request has none (a run from before 011, or a vendor without a published formula).
   */
  meanImageTokens: number | null;
  /** null: no price was known for the model (the price table says which prices it has). */
  costUsd: number | null;
  costPerPassedUsd: number | null;
  /** Passed (task, trial) pairs under each task's success rule. */
  passed: number;
}

export interface CellPerformance {
  label: string;
  /** The price entry the run's costs used, with its checkedAt date; null: none known; undefined: the run did not record it. */
  price: string | null | undefined;
  overall: PerformanceFigures;
  perTrial: PerformanceFigures[];
}

function lastValidAttempts(episodes: readonly EpisodeRow[]): EpisodeRow[] {
  const latest = new Map<string, EpisodeRow>();
  for (const episode of episodes) {
    if (episode.status === 'running' || episode.failureKind === 'infra') continue;
    const key = `${episode.taskId}\u0000${episode.trial}`;
    const seen = latest.get(key);
    if (!seen || episode.attempt > seen.attempt) latest.set(key, episode);
  }
  return [...latest.values()];
}

function figures(trial: number | null, valid: readonly EpisodeRow[], passed: number, imageTokens: ReadonlyMap<number, EpisodeImageTokens>): PerformanceFigures {
  const costs = valid.map((episode) => episode.costUsd);
  const priced = costs.length > 0 && costs.every((cost) => cost !== null);
  const costUsd = priced ? costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0) : null;
  return {
    trial,
    attempts: valid.length,
    medianDurationMs: median(valid.map((episode) => (episode.finishedAt ? Date.parse(episode.finishedAt) - Date.parse(episode.startedAt) : Number.NaN))),
    medianRounds: median(valid.map((episode) => episode.rounds)),
    medianToolCalls: median(valid.map((episode) => episode.toolCallCount)),
    meanInputTokens: mean(valid.map((episode) => episode.usage.inputTokens)),
    meanOutputTokens: mean(valid.map((episode) => episode.usage.outputTokens)),
    meanImageTokens: meanImageTokensPerRequest(valid, imageTokens),
    costUsd,
    costPerPassedUsd: costUsd !== null && passed > 0 ? costUsd / passed : null,
    passed,
  };
}

function meanImageTokensPerRequest(valid: readonly EpisodeRow[], imageTokens: ReadonlyMap<number, EpisodeImageTokens>): number | null {
  let requests = 0;
  let tokens = 0;
  for (const episode of valid) {
    const known = imageTokens.get(episode.id);
    if (!known) continue;
    if (known.tokens === null) return null;
    requests += known.requests;
    tokens += known.tokens;
  }
  return requests === 0 ? null : tokens / requests;
}

function passedIn(cell: CellResults, trial: number | null): number {
  return [...cell.tasks.values()].flat().filter((outcome) => outcome.passed && (trial === null || outcome.trial === trial)).length;
}

function cellPerformance(
  cell: CellResults,
  episodes: readonly EpisodeRow[],
  imageTokens: ReadonlyMap<number, EpisodeImageTokens>,
  price: string | null | undefined,
): CellPerformance {
  const valid = lastValidAttempts(episodes);
  const trials = [...new Set(valid.map((episode) => episode.trial))].sort((a, b) => a - b);
  return {
    label: cell.label,
    price,
    overall: figures(null, valid, passedIn(cell, null), imageTokens),
    perTrial: trials.map((trial) =>
      figures(
        trial,
        valid.filter((episode) => episode.trial === trial),
        passedIn(cell, trial),
        imageTokens,
      ),
    ),
  };
}

/** The `price` a cell's first trial manifest recorded (undefined: a run from before prices were recorded). */
function recordedPrice(batch: BatchResults, label: string): string | null | undefined {
  const trial = batch.manifest.cells.find((cell) => cell.label === label)?.trials[0];
  const file = trial ? batchPath(batch.file, trial.manifest) : undefined;
  if (!file || !existsSync(file)) return undefined;
  const price = (loadJsonFile(file) as { price?: unknown }).price;
  return typeof price === 'string' || price === null ? price : undefined;
}

/** The performance of every cell whose run is in the batch's store (none when the store is gone). */
export function batchPerformance(batch: BatchResults): CellPerformance[] {
  if (!batch.manifest.store) return [];
  const storeFile = path.resolve(path.dirname(batch.file), batch.manifest.store);
  if (!existsSync(storeFile)) return [];
  const store = openStore(storeFile, { readonly: true });
  try {
    return batch.cells.map((cell) =>
      cellPerformance(cell, episodesForRun(store, cell.runId), imageTokensForRun(store, cell.runId), recordedPrice(batch, cell.label)),
    );
  } finally {
    store.close();
  }
}
