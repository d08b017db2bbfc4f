// Performance beside correctness, never blended into it: per cell, from the run store, the
// median duration, rounds and tool calls of a task attempt, mean input/output tokens, total cost
// and cost per passed trial. Only the last finished attempt of each (task, trial) that is not an
// infrastructure failure counts, the same trials the pass rates count.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { episodesForRun, openStore, type EpisodeRow } from '../store/index.js';
import type { CellResults } from './batch-results.js';
import { median } from './describe.js';

export interface CellPerformance {
  label: string;
  trials: number;
  medianDurationMs: number;
  medianRounds: number;
  medianToolCalls: number;
  meanInputTokens: number;
  meanOutputTokens: number;
  /** null: no price was known for the model (the price table says which prices it has). */
  costUsd: number | null;
  costPerPassedUsd: number | null;
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

const average = (values: readonly number[]) => (values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length);

function cellPerformance(cell: CellResults, episodes: readonly EpisodeRow[]): CellPerformance {
  const valid = lastValidAttempts(episodes);
  const costs = valid.map((episode) => episode.costUsd);
  const priced = costs.every((cost) => cost !== null) && costs.length > 0;
  const costUsd = priced ? costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0) : null;
  const passed = [...cell.tasks.values()].flat().filter((outcome) => outcome.passed).length;
  return {
    label: cell.label,
    trials: valid.length,
    medianDurationMs: median(valid.map((episode) => (episode.finishedAt ? Date.parse(episode.finishedAt) - Date.parse(episode.startedAt) : Number.NaN))),
    medianRounds: median(valid.map((episode) => episode.rounds)),
    medianToolCalls: median(valid.map((episode) => episode.toolCallCount)),
    meanInputTokens: average(valid.map((episode) => episode.usage.inputTokens)),
    meanOutputTokens: average(valid.map((episode) => episode.usage.outputTokens)),
    costUsd,
    costPerPassedUsd: costUsd !== null && passed > 0 ? costUsd / passed : null,
  };
}

/** The performance of every cell whose run is in the batch's store (none when the store is gone). */
export function batchPerformance(batchFile: string, storeRelative: string | null, cells: readonly CellResults[]): CellPerformance[] {
  if (!storeRelative) return [];
  const storeFile = path.resolve(path.dirname(batchFile), storeRelative);
  if (!existsSync(storeFile)) return [];
  const store = openStore(storeFile, { readonly: true });
  try {
    return cells.map((cell) => cellPerformance(cell, episodesForRun(store, cell.runId)));
  } finally {
    store.close();
  }
}
