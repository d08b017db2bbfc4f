// What the batch runner needs from persistence. The SQLite store implements it (store-recorder.ts);
// keeping the seam here lets the runner be tested and reasoned about without SQL.
import type { AgentEvent } from '../agent/events.js';
import type { EndStatus } from '../core/end-status.js';
import type { Usage } from '../core/usage.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/index.js';
import type { FailureKind, FinalEpisodeStatus } from '../store/schemas.js';

export interface EpisodeEnd {
  status: FinalEpisodeStatus;
  failureKind: FailureKind | null;
  errorCode: string | null;
  errorMessage: string | null;
  prediction: PredictionRecord | null;
  usage: Usage;
  rounds: number;
  toolCalls: number;
  /** USD paid (src/llm/pricing.ts paidCost); null when the model has no price. */
  costUsd: number | null;
  /** USD the cache and batch pricing saved against the list price. */
  savedUsd?: number | null;
  /** The task's prompt hash, when its images were read (src/runner/prompt-hash.ts). */
  promptHash?: string;
  /** How the episode's last reply ended (src/agent/end-status.ts), and what the vendor said. */
  endStatus?: EndStatus;
  endDetail?: string;
}

/** Told of each episode once its end is recorded, closed when the model's run ends (live traces: src/export/live-traces.ts). */
export interface EpisodeObserver {
  episodeRecorded(episodeId: number): void;
  close(): Promise<void>;
}

/** Makes the observer of one run, or none (the CLI injects it, so the runner imports no exporter). */
export type EpisodeObserverFactory = (
  env: Readonly<Record<string, string | undefined>>,
  store: Store,
  runId: string,
  logger: Logger,
) => Promise<EpisodeObserver | undefined>;

export interface RunRecorder {
  startEpisode(taskId: string, attempt: number): number;
  observe(episodeId: number, event: AgentEvent): void;
  finishEpisode(episodeId: number, end: EpisodeEnd): void;
  /** Resolves when every row recorded so far is in the store (group commit); rejects when they were lost. */
  committed?(): Promise<void>;
  /** Predictions of tasks already finished in this run (for --resume), by task id. */
  finishedPredictions(): Map<string, PredictionRecord>;
}
