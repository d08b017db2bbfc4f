// The batch: tasks pulled by N concurrent workers, each attempt under the task budget, failed
// attempts requeued at most M3_MAX_TASK_REQUEUE times (outages and timeouts only), every
// finished task written to the store first and then to the prediction file (atomically), so a
// run killed at any point resumes without losing or duplicating a task. A task is reported done
// (and its prediction kept) only once its rows are committed (recorder.committed); a store
// failure (a lost group commit, a full disk) stops the batch and is thrown to the caller.
import { setMaxListeners } from 'node:events';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import type { AgentEvent } from '../agent/events.js';
import { childSignal } from '../mcp/abort-helpers.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import type { FailureVerdict } from './failure.js';
import type { PredictionFile } from './prediction-file.js';
import type { RunRecorder } from './recorder.js';
import { runTask, type TaskEnvironment, type TaskOutcome } from './run-task.js';
import type { RunnableTask } from './task-set.js';
import type { TraceFile } from './trace-file.js';
import { countLimit, emptyLimitCounts, type LimitCounts, type RunBudget } from './run-cost.js';
import { emptyBilledUsage, sumBilledUsage, type BilledUsage, type CostOf } from '../llm/pricing.js';

interface BatchProgress {
  total: number;
  done: number;
  failedModel: number;
  failedInfra: number;
  running: number;
  requeued: number;
  /** Attempts in flight when the run was stopped (recorded as `interrupted`, run again on resume). */
  interrupted: number;
  usage: Usage;
  /** `usage` split by billing: synchronous, answered by a batch job, served by the model-response cache (nothing paid). */
  billed: BilledUsage;
  /** Tasks a per-task limit stopped (end status limit_tokens, limit_messages, limit_cost). */
  limited: LimitCounts;
}

export interface BatchOptions {
  concurrency: number;
  maxRequeue: number;
  recorder: RunRecorder;
  predictions: PredictionFile;
  onProgress?: (progress: BatchProgress, finished?: { taskId: string; outcome: TaskOutcome }) => void;
  onEvent?: (event: AgentEvent) => void;
  /** `--trace-file`: every event of the stream above, and each attempt's end, as JSONL (trace-file.ts). */
  trace?: TraceFile;
  /** What an episode paid and saved (src/llm/pricing.ts paidCost), when a price table is known. */
  costOf?: CostOf;
  /** `m3 run --max-cost`: once what the run paid reaches it, no further task starts (src/runner/run-cost.ts). */
  runBudget?: RunBudget;
  /**
   * Stops the batch (Ctrl-C): no new task starts, attempts in flight are abandoned and recorded
   * as `interrupted` (not scored, not requeued), and the prediction file is flushed.
   */
  signal?: AbortSignal;
}

export interface BatchResult {
  progress: BatchProgress;
  failures: Array<{ taskId: string; verdict: FailureVerdict; attempts: number }>;
  skipped: string[];
  /** Tasks never started because the batch was stopped. */
  notStarted: string[];
}

/**
 * The batch's own stop signal, following the run's with one listener: every attempt in flight
 * listens on it (src/runner/run-task.ts), so at a concurrency above ten Node would warn about a
 * listener leak on the run's signal although each listener is removed when its attempt ends.
 */
function followStop(run: AbortSignal | undefined, workers: number): { signal: AbortSignal | undefined; dispose: () => void } {
  const child = childSignal(run);
  if (child.signal) setMaxListeners(workers + 10, child.signal);
  return child;
}

export async function runBatch(tasks: readonly RunnableTask[], env: TaskEnvironment, options: BatchOptions): Promise<BatchResult> {
  const finished = options.recorder.finishedPredictions();
  for (const [id, prediction] of finished) if (!options.predictions.has(id)) options.predictions.put(prediction);
  const skipped = tasks.filter((task) => options.predictions.has(task.id)).map((task) => task.id);
  if (skipped.length > 0) options.predictions.save();
  const queue = tasks.filter((task) => !options.predictions.has(task.id)).map((task) => ({ task, attempt: 1 }));
  const progress: BatchProgress = {
    total: queue.length,
    done: 0,
    failedModel: 0,
    failedInfra: 0,
    running: 0,
    requeued: 0,
    interrupted: 0,
    usage: emptyUsage(),
    billed: emptyBilledUsage(),
    limited: emptyLimitCounts(),
  };
  const failures: BatchResult['failures'] = [];

  /** Closes the episode row (every attempt, requeued or final, is accounted the same way). */
  const closeEpisode = (episodeId: number, outcome: TaskOutcome, prediction: PredictionRecord | null, note = ''): void => {
    const trace = outcome.trace;
    const usage = trace?.usage ?? emptyUsage();
    const billed = trace?.billed ?? { ...emptyBilledUsage(), standard: usage };
    progress.usage = addUsage(progress.usage, usage);
    progress.billed = sumBilledUsage(progress.billed, billed);
    // The episode's cost is what was paid: batch replies at the batch price, cache-served ones nothing.
    const cost = options.costOf?.(billed) ?? null;
    const costUsd = cost?.paidUsd ?? null;
    options.runBudget?.spend(costUsd);
    options.recorder.finishEpisode(episodeId, {
      status: outcome.ok ? 'ok' : outcome.verdict.status,
      failureKind: outcome.ok ? null : outcome.verdict.kind,
      errorCode: outcome.ok ? null : outcome.verdict.code,
      errorMessage: outcome.ok ? null : `${outcome.verdict.message}${note}`,
      prediction,
      usage,
      rounds: trace?.rounds.length ?? 0,
      toolCalls: trace?.rounds.reduce((sum, round) => sum + round.calls.length, 0) ?? 0,
      costUsd,
      savedUsd: cost ? cost.savedByCacheUsd + cost.savedByBatchUsd : null,
      ...(outcome.promptHash ? { promptHash: outcome.promptHash } : {}),
      ...(trace?.end ? { endStatus: trace.end.status, ...(trace.end.detail ? { endDetail: trace.end.detail } : {}) } : {}),
    });
  };

  /** The task's rows are committed before its prediction is kept and its line is printed. */
  const record = async (episodeId: number, outcome: TaskOutcome) => {
    // Model failures are the model's result and are scored (with whatever it did before failing);
    // infrastructure failures are left out of the prediction file and counted apart.
    const prediction = outcome.ok ? outcome.prediction : outcome.verdict.kind === 'model' ? (outcome.prediction ?? null) : null;
    closeEpisode(episodeId, outcome, prediction);
    await options.recorder.committed?.();
    if (!prediction) return;
    options.predictions.put(outcome.ok ? prediction : { ...prediction, status: 'model_failure', error: outcome.verdict.message });
    options.predictions.saveSoon();
  };

  // A store failure (a lost group commit, a full disk) stops the batch: nothing after it could be
  // recorded, and a task whose rows were lost must not be reported done.
  const storeStop = new AbortController();
  let storeFailure: unknown;
  const failStore = (error: unknown) => {
    storeFailure ??= error;
    storeStop.abort(error);
  };
  const workers = Math.max(1, options.concurrency);
  const stop = followStop(options.signal ? AbortSignal.any([options.signal, storeStop.signal]) : storeStop.signal, workers);
  const taskEnv = stop.signal ? { ...env, signal: stop.signal } : env;

  const runOne = async (item: { task: RunnableTask; attempt: number }) => {
    progress.running += 1;
    options.onProgress?.({ ...progress });
    const episodeId = options.recorder.startEpisode(item.task.id, item.attempt);
    const outcome = await runTask(item.task, taskEnv, (event) => {
      try {
        options.recorder.observe(episodeId, event);
      } catch (error) {
        failStore(error);
      }
      options.trace?.write(event, item.attempt);
      options.onEvent?.(event);
    });
    if (storeFailure !== undefined) throw storeFailure;
    options.trace?.write(
      {
        type: 'task_end',
        taskId: item.task.id,
        status: outcome.ok ? 'ok' : outcome.verdict.status,
        ...(outcome.ok ? {} : { message: outcome.verdict.message }),
      },
      item.attempt,
    );
    progress.running -= 1;
    if (!outcome.ok && outcome.verdict.requeue && item.attempt <= options.maxRequeue) {
      closeEpisode(episodeId, outcome, null, ' (requeued)');
      await options.recorder.committed?.();
      progress.requeued += 1;
      queue.push({ task: item.task, attempt: item.attempt + 1 });
      options.onProgress?.({ ...progress }, { taskId: item.task.id, outcome });
      return;
    }
    await record(episodeId, outcome);
    if (!outcome.ok && outcome.verdict.code === 'interrupted') progress.interrupted += 1;
    else {
      progress.done += 1;
      progress.limited = countLimit(progress.limited, outcome.trace?.end?.status);
      if (!outcome.ok) {
        if (outcome.verdict.kind === 'model') progress.failedModel += 1;
        else progress.failedInfra += 1;
        failures.push({ taskId: item.task.id, verdict: outcome.verdict, attempts: item.attempt });
      }
    }
    options.onProgress?.({ ...progress }, { taskId: item.task.id, outcome });
  };

  const worker = async () => {
    for (;;) {
      if (stop.signal?.aborted || options.runBudget?.exhausted()) return;
      const item = queue.shift();
      if (!item) return;
      try {
        await runOne(item);
      } catch (error) {
        failStore(error);
        return;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    stop.dispose();
  }
  if (storeFailure !== undefined) {
    await options.predictions.flush();
    throw storeFailure;
  }
  await options.predictions.flush();
  return { progress, failures, skipped, notStarted: queue.map((item) => item.task.id) };
}
