// The RunRecorder backed by the SQLite store: one episode row per attempt, a row per model
// request and per tool call (images recorded as facts, never as payloads). Each model call row
// says how its reply was paid for (synchronous, a batch job's, the cache's) and what it paid and
// saved, from the one price computation (src/llm/pricing.ts paidCost).
import type { AgentEvent } from '../agent/events.js';
import { addBilledUsage, emptyBilledUsage, type CostOf } from '../llm/pricing.js';
import { committed, episodesForRun, finishedTaskIds, finishEpisode, recordModelCall, recordToolCall, startEpisode, type Store } from '../store/index.js';
import { parsePredictionRecord } from '../tasks/load.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import type { EpisodeEnd, RunRecorder } from './recorder.js';

/** Which trial of the run this recorder writes, and the seed that trial sends (if any). */
export interface RecorderTrial {
  trial: number;
  seed?: number;
}

export class StoreRecorder implements RunRecorder {
  constructor(
    private readonly store: Store,
    private readonly runId: string,
    private readonly model: string,
    private readonly trial: RecorderTrial = { trial: 1 },
    /** Called after each episode's end is recorded. */
    private readonly onFinished?: (episodeId: number) => void,
    /** Prices each model call (none: calls are recorded without a cost). */
    private readonly costOf?: CostOf,
  ) {}

  startEpisode(taskId: string): number {
    // The store numbers attempts itself, so a resumed run continues after attempts a killed
    // process left behind instead of colliding with them.
    return startEpisode(this.store, {
      runId: this.runId,
      taskId,
      model: this.model,
      trial: this.trial.trial,
      ...(this.trial.seed !== undefined ? { seed: this.trial.seed } : {}),
    });
  }

  observe(episodeId: number, event: AgentEvent): void {
    if (event.type === 'model_call') {
      const billing = event.billing ?? 'standard';
      const cost = this.costOf?.(addBilledUsage(emptyBilledUsage(), event.usage, billing));
      recordModelCall(this.store, {
        episodeId,
        round: event.round,
        purpose: event.purpose,
        request: event.request ?? undefined,
        response: event.response ?? { text: event.text, toolCallCount: event.toolCallCount, warnings: event.warnings },
        usage: event.usage,
        imagePayload: event.imagePayload,
        latencyMs: event.latencyMs,
        attempts: event.attempts,
        images: event.images,
        ...(event.error ? { errorClass: event.error.errorClass, errorMessage: event.error.message } : {}),
        ...(event.agent ? { agent: event.agent } : {}),
        billing,
        ...(event.batch ? { vendorBatchId: event.batch.vendorBatchId } : {}),
        ...(cost ? { costUsd: cost.paidUsd, savedUsd: cost.savedByCacheUsd + cost.savedByBatchUsd } : {}),
      });
    } else if (event.type === 'tool_call_end') {
      recordToolCall(this.store, {
        episodeId,
        round: event.round,
        callIndex: event.index,
        canonicalName: event.name || '(empty name)',
        functionName: event.functionName,
        arguments: event.arguments ?? null,
        resultText: event.result,
        isError: event.isError,
        ...(event.errorCode ? { errorCode: event.errorCode } : {}),
        ...(event.fallback ? { fallback: event.fallback } : {}),
        ...(event.condition ? { condition: event.condition } : {}),
        durationMs: event.durationMs,
        ...(event.agent ? { agent: event.agent } : {}),
        images: event.images.map((image) => ({
          mediaType: image.mediaType,
          originalMediaType: image.originalMediaType,
          originalBytes: image.originalBytes,
          sentBytes: image.sentBytes,
          width: image.width,
          height: image.height,
          source: image.source,
        })),
      });
    }
  }

  finishEpisode(episodeId: number, end: EpisodeEnd): void {
    finishEpisode(this.store, episodeId, {
      status: end.status,
      ...(end.failureKind ? { failureKind: end.failureKind } : {}),
      ...(end.errorCode ? { errorCode: end.errorCode } : {}),
      ...(end.errorMessage ? { errorMessage: end.errorMessage } : {}),
      rounds: end.rounds,
      toolCallCount: end.toolCalls,
      usage: end.usage,
      ...(end.costUsd !== null ? { costUsd: end.costUsd } : {}),
      ...(end.savedUsd !== undefined && end.savedUsd !== null ? { savedUsd: end.savedUsd } : {}),
      ...(end.prediction ? { prediction: end.prediction } : {}),
      ...(end.promptHash ? { promptHash: end.promptHash } : {}),
      ...(end.endStatus ? { endStatus: end.endStatus } : {}),
      ...(end.endDetail ? { endDetail: end.endDetail } : {}),
    });
    this.onFinished?.(episodeId);
  }

  committed(): Promise<void> {
    return committed(this.store);
  }

  finishedPredictions(): Map<string, PredictionRecord> {
    const finished = new Set(finishedTaskIds(this.store, this.runId, this.model, { trial: this.trial.trial }));
    const predictions = new Map<string, PredictionRecord>();
    for (const episode of episodesForRun(this.store, this.runId, { model: this.model })) {
      if (episode.trial !== this.trial.trial) continue;
      if (finished.has(episode.taskId) && episode.prediction) {
        predictions.set(episode.taskId, parsePredictionRecord(episode.prediction, `run store, run ${this.runId}, episode ${episode.id}`));
      }
    }
    return predictions;
  }
}
