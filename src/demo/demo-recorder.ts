// The demo in the run store: one run per demo process (model spec = the offered models), one
// episode per message (task id `<session>/<n>`), and the same model-call and tool-call rows
// the benchmark writes, through the runner's StoreRecorder.
import type { AgentEvent } from '../agent/events.js';
import type { EpisodeTrace } from '../agent/episode.js';
import { toPrediction } from '../agent/to-prediction.js';
import { emptyUsage } from '../core/usage.js';
import type { Switches } from '../config/switches.js';
import type { EpisodeEnd } from '../runner/recorder.js';
import { StoreRecorder } from '../runner/store-recorder.js';
import { createRun, finishRun, type Store } from '../store/index.js';

export interface DemoRunInfo {
  models: string[];
  toolsHash: string;
  switches: Switches;
  settings: Record<string, unknown>;
}

export interface EpisodeOutcome {
  status: 'ok' | 'cancelled' | 'error';
  trace: EpisodeTrace | undefined;
  question: string;
  imagePaths: string[];
  error?: { code: string; message: string; kind: 'model' | 'infra' };
}

export class DemoRecorder {
  private readonly recorders = new Map<string, StoreRecorder>();
  readonly runId: string;

  constructor(
    private readonly store: Store,
    info: DemoRunInfo,
  ) {
    this.runId = `demo-${new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 18)}-${process.pid}`;
    createRun(store, {
      runId: this.runId,
      modelSpec: info.models.length > 0 ? info.models.join(',') : 'none',
      modelLabel: 'demo',
      toolsHash: info.toolsHash,
      switches: info.switches as unknown as Record<string, unknown>,
      manifest: { kind: 'demo', ...info.settings },
    });
  }

  private recorderFor(model: string): StoreRecorder {
    let recorder = this.recorders.get(model);
    if (!recorder) {
      recorder = new StoreRecorder(this.store, this.runId, model);
      this.recorders.set(model, recorder);
    }
    return recorder;
  }

  start(model: string, taskId: string): { observe: (event: AgentEvent) => void; finish: (outcome: EpisodeOutcome) => void } {
    const recorder = this.recorderFor(model);
    const episodeId = recorder.startEpisode(taskId);
    return {
      observe: (event) => recorder.observe(episodeId, event),
      finish: (outcome) => recorder.finishEpisode(episodeId, toEpisodeEnd(taskId, outcome)),
    };
  }

  close(status: 'finished' | 'failed' = 'finished'): void {
    finishRun(this.store, this.runId, status);
  }
}

function toEpisodeEnd(taskId: string, outcome: EpisodeOutcome): EpisodeEnd {
  const trace = outcome.trace;
  const prediction = trace ? toPrediction({ id: taskId, image: outcome.imagePaths }, outcome.question, trace) : null;
  const failed = outcome.status !== 'ok';
  return {
    // A cancelled episode is nobody's failure to score; it is recorded as infrastructure.
    status: !failed ? 'ok' : outcome.error?.kind === 'model' ? 'model_failure' : 'infra_failure',
    failureKind: !failed ? null : (outcome.error?.kind ?? 'infra'),
    errorCode: outcome.error?.code ?? null,
    errorMessage: outcome.error?.message ?? null,
    prediction,
    usage: trace?.usage ?? emptyUsage(),
    rounds: trace?.rounds.length ?? 0,
    toolCalls: trace?.rounds.reduce((sum, round) => sum + round.calls.length, 0) ?? 0,
    costUsd: null,
  };
}
