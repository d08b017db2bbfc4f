// What the exports read of one stored run: the run row and, per episode, its model requests and
// tool calls, straight from the store (which redacted every value on write, src/store/json-column.ts).
import { StoreError } from '../errors/index.js';
import { episodesForRun, getEpisode, getRun, modelCallsForEpisode, toolCallsForEpisode, type EpisodeRow, type RunRow, type Store } from '../store/index.js';

type ModelCallRow = ReturnType<typeof modelCallsForEpisode>[number];
type ToolCallRow = ReturnType<typeof toolCallsForEpisode>[number];

export interface EpisodeRecord {
  episode: EpisodeRow;
  modelCalls: ModelCallRow[];
  toolCalls: ToolCallRow[];
}

export interface RunRecords {
  run: RunRow;
  episodes: EpisodeRecord[];
}

export type { ModelCallRow, ToolCallRow };

export function requireRun(store: Store, runId: string): RunRow {
  const run = getRun(store, runId);
  if (!run) throw new StoreError(`no run "${runId}" in ${store.file}; m3 runs list shows the stored run ids`);
  return run;
}

/** Every attempt of the run (`latestOnly`: the last attempt of each task and trial, the one that counts). */
export function loadRunRecords(store: Store, runId: string, options: { latestOnly?: boolean } = {}): RunRecords {
  const run = requireRun(store, runId);
  let episodes = episodesForRun(store, runId);
  if (options.latestOnly) {
    const latest = new Map<string, EpisodeRow>();
    for (const episode of episodes) {
      const key = `${episode.taskId}\u0000${episode.model}\u0000${episode.trial}`;
      const held = latest.get(key);
      if (!held || episode.attempt > held.attempt) latest.set(key, episode);
    }
    episodes = [...latest.values()];
  }
  return {
    run,
    episodes: episodes.map((episode) => ({
      episode,
      modelCalls: modelCallsForEpisode(store, episode.id),
      toolCalls: toolCallsForEpisode(store, episode.id),
    })),
  };
}

/** One stored episode with its calls (undefined when there is no such episode). */
export function loadEpisodeRecord(store: Store, episodeId: number): EpisodeRecord | undefined {
  const episode = getEpisode(store, episodeId);
  return episode && { episode, modelCalls: modelCallsForEpisode(store, episodeId), toolCalls: toolCallsForEpisode(store, episodeId) };
}

/** `provider:model` split; a spec without a provider prefix is all model. */
export function splitModelSpec(spec: string): { provider: string | null; model: string } {
  const colon = spec.indexOf(':');
  return colon > 0 ? { provider: spec.slice(0, colon), model: spec.slice(colon + 1) } : { provider: null, model: spec };
}

/** The episode's model spec: the run's own when it ran one model, else the episode's label. */
export function episodeModelSpec(run: RunRow, episode: EpisodeRow): string {
  return run.modelSpec.includes(',') ? episode.model : run.modelSpec;
}

/** The stable id of a stored tool call (the provider's own call id is not kept in the store). */
export function toolCallIdOf(call: ToolCallRow): string {
  return `m3-${call.episodeId}-${call.round}-${call.callIndex}`;
}

/** Start and end (epoch ms) of a stored model request: its first attempt's start, the row's time as the end. */
export function modelCallTimes(call: ModelCallRow): { start: number; end: number } {
  const end = Date.parse(call.createdAt);
  const firstAttempt = call.attempts[0]?.startedAt;
  const start = firstAttempt !== undefined && firstAttempt <= end ? firstAttempt : end - call.latencyMs;
  return { start, end };
}

/** A tool call's row is written when it returns: its start is that time less its duration. */
export function toolCallTimes(call: ToolCallRow): { start: number; end: number } {
  const end = Date.parse(call.createdAt);
  return { start: end - call.durationMs, end };
}
