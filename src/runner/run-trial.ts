// One trial of one cell: its prediction file and manifest, its recorder (the store's trial
// column), the driver tagged with the trial, its workspaces, and the batch over the tasks.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentOptions } from '../agent/options.js';
import type { ProjectConfig } from '../config/index.js';
import { emptyUsage, addUsage } from '../core/usage.js';
import { ConfigError } from '../errors/index.js';
import { emptyBilledUsage, sumBilledUsage, type CostOf } from '../llm/pricing.js';
import type { ModelDriver } from '../llm/types.js';
import type { Logger } from '../log/logger.js';
import { createProgress } from '../log/progress.js';
import { redactValue } from '../log/redact.js';
import { createWaitingOn } from '../log/waiting-on.js';
import { TraceFile, traceFileFor } from './trace-file.js';
import type { ToolCallInterceptor } from '../mcp/checked-call.js';
import type { ToolHost } from '../mcp/types.js';
import type { Store } from '../store/index.js';
import { trialLabel } from './conditions.js';
import { withTrialContext } from './driver-decorators.js';
import { LlmStats } from './llm-stats.js';
import { manifestFileFor, predictionFile } from '../results/layout.js';
import { writeRunManifest, type RunManifest } from '../results/run-manifest.js';
import { PredictionFile } from './prediction-file.js';
import { runBatch, type BatchResult } from './run-batch.js';
import type { RunModelRequest } from './run-request.js';
import { finishManifest, samplingRecord } from './run-row.js';
import { StoreRecorder } from './store-recorder.js';
import type { RunnableTask } from './task-set.js';
import { secondsToTimerMs } from '../config/timer-ms.js';
import { taskSetHash } from './prompt-hash.js';
import { addLimitCounts, costRecord, emptyLimitCounts, maxCostRecord, type RunBudget } from './run-cost.js';
import { sum } from '../core/number-format.js';

export interface TrialReport {
  trial: number;
  seed: number | undefined;
  label: string;
  output: string;
  manifestFile: string;
  result: BatchResult;
  manifest: RunManifest;
  /** With --placeholder-images: task id → the image entries that ran on stand-ins. */
  placeholderImages?: Record<string, string[]>;
}

export interface TrialPlan {
  request: RunModelRequest;
  /** The cell label (model + condition). */
  label: string;
  trial: number;
  trials: number;
  seed: number | undefined;
  tasks: RunnableTask[];
  driver: ModelDriver;
  options: AgentOptions;
  /** The run's manifest; each trial writes a copy completed with its own fields. */
  manifest: RunManifest;
  costOf: CostOf;
  /** `m3 run --max-cost`: the invocation's budget, shared by every cell and trial. */
  runBudget?: RunBudget;
  /** The tool fallback layer (src/fallback/), when it is on. */
  interceptor?: ToolCallInterceptor;
  /** `--placeholder-images`: where stand-ins for missing task images are written. */
  placeholderImagesDir?: string;
  /** The condition's wrapper of the tool host one task sees (robustness conditions), given this trial's seed. */
  taskHost?: (host: ToolHost, taskId: string, seed: number) => ToolHost;
}

export interface TrialDeps {
  config: ProjectConfig;
  host: ToolHost;
  store: Store;
  logger: Logger;
  root: string;
  signal: AbortSignal;
  leaseLost: () => boolean;
  /** Told of each episode once it is recorded (live traces, src/export/live-traces.ts). */
  onEpisodeRecorded?: (episodeId: number) => void;
}

/** Trial t sends base + t - 1 when a base seed was given, and no seed otherwise. */
export function trialSeed(base: number | undefined, trial: number): number | undefined {
  return base === undefined ? undefined : base + trial - 1;
}

/** The model id a provider says it served: `model` (OpenAI, Anthropic) or `modelVersion` (Gemini). */
function resolvedModelOf(response: unknown): string | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const record = response as Record<string, unknown>;
  const value = record.model ?? record.modelVersion;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A trial's prediction file: `--output` (with `.trial-<t>` when k > 1), else `<run folder>/<label>_test_mcp_fuzzy.json`. */
export function trialOutputFile(request: Pick<RunModelRequest, 'output' | 'resultsDir' | 'shard'>, label: string, trial: number, trials: number): string {
  const name = trialLabel(label, trial, trials);
  if (request.output) {
    const base = path.resolve(request.output);
    return trials > 1 ? base.replace(/(\.json)?$/i, `.trial-${trial}.json`) : base;
  }
  return predictionFile(request.resultsDir, name, request.shard);
}

/** Loads the prediction file for --resume, or refuses to clobber one without --overwrite. */
function openPredictionFile(output: string, request: RunModelRequest): PredictionFile {
  const predictions = new PredictionFile(output);
  const existing = predictions.load();
  if (!request.resume) {
    if (existing > 0 && !request.overwrite) {
      throw new ConfigError(`${output} already holds ${existing} prediction(s): pass --resume to continue, or --overwrite to start again`);
    }
    predictions.clear();
  }
  return predictions;
}

export async function runTrial(plan: TrialPlan, deps: TrialDeps): Promise<TrialReport> {
  const { request, label, trial, trials } = plan;
  const switches = deps.config.switches;
  const output = trialOutputFile(request, label, trial, trials);
  const predictions = openPredictionFile(output, request);
  const name = trialLabel(label, trial, trials);
  const statsFile = switches.M3_LLM_STATS ? switches.M3_LLM_STATS_FILE || path.join(request.resultsDir, `${name}.llm_stats.json`) : undefined;
  const stats = new LlmStats(statsFile, switches.M3_LLM_STATS_FLUSH_EVERY, plan.costOf);
  const resolved = new Set<string>();
  const promptHashes = new Map<string, string>();
  const placeholders: Record<string, string[]> = {};
  const progress = createProgress(name);
  // A call slower than a few seconds is named on the progress line (what the run is waiting on).
  const waiting = createWaitingOn({ announce: (text) => progress.note(text), callTimeoutMs: secondsToTimerMs(switches.M3_TOOL_CALL_TIMEOUT) });
  mkdirSync(path.dirname(output), { recursive: true });
  const result = await runBatch(
    plan.tasks,
    {
      driver: withTrialContext(plan.driver, trial),
      host: deps.host,
      options: plan.options,
      root: deps.root,
      runId: request.runId,
      // Each trial gets its own workspaces (isolated mode): nothing a trial wrote is there for the next.
      ...(trials > 1 ? { workspaceRunId: `${request.runId}.trial-${trial}` } : {}),
      workspaceMode: switches.M3_WORKSPACE_MODE,
      ...(request.workspaceRoot ? { workspaceRoot: request.workspaceRoot } : {}),
      keepWorkspace: switches.M3_KEEP_WORKSPACE,
      imageSearchDirs: request.imageDirs,
      taskTimeoutMs: secondsToTimerMs(switches.M3_TASK_TIMEOUT),
      costOf: plan.costOf,
      ...(plan.interceptor ? { interceptor: plan.interceptor } : {}),
      ...(plan.placeholderImagesDir ? { placeholderImagesDir: plan.placeholderImagesDir } : {}),
      ...(plan.taskHost ? { taskHost: (host: ToolHost, taskId: string) => plan.taskHost?.(host, taskId, plan.seed ?? 0) ?? host } : {}),
    },
    {
      concurrency: request.concurrency,
      maxRequeue: switches.M3_MAX_TASK_REQUEUE,
      predictions,
      costOf: plan.costOf,
      ...(plan.runBudget ? { runBudget: plan.runBudget } : {}),
      signal: deps.signal,
      ...(request.traceFile ? { trace: new TraceFile(traceFileFor(request.resultsDir, name), { runId: request.runId, trial }, request.resume) } : {}),
      recorder: new StoreRecorder(
        deps.store,
        request.runId,
        request.model,
        { trial, ...(plan.seed !== undefined ? { seed: plan.seed } : {}) },
        deps.onEpisodeRecorded,
        plan.costOf,
      ),
      onEvent: (event) => {
        stats.observe(event);
        waiting.observe(event);
        request.onEvent?.(event);
        const model = event.type === 'model_call' ? resolvedModelOf(event.response) : undefined;
        if (model) resolved.add(model);
      },
      onProgress: (snapshot, finished) => {
        if (finished?.outcome.promptHash) promptHashes.set(finished.taskId, finished.outcome.promptHash);
        if (finished?.outcome.placeholderImages) placeholders[finished.taskId] = finished.outcome.placeholderImages;
        const line = finished
          ? `${finished.taskId} ${finished.outcome.ok ? 'ok' : `${finished.outcome.verdict.status}: ${finished.outcome.verdict.message}`}`
          : undefined;
        progress.update({ ...snapshot, tokens: snapshot.usage.inputTokens + snapshot.usage.outputTokens }, line);
      },
    },
  );
  waiting.stop();
  progress.stop();
  stats.flush();
  // Tasks resumed from the store keep the hash their prediction recorded.
  for (const record of predictions.values())
    if (typeof record.prompt_hash === 'string' && !promptHashes.has(record.id)) promptHashes.set(record.id, record.prompt_hash);
  const stopped = deps.signal.aborted ? (deps.signal.reason as Error).message : undefined;
  const manifestFile = manifestFileFor(output);
  const manifest: RunManifest = {
    ...plan.manifest,
    trial,
    trials,
    sampling: samplingRecord(plan.options, plan.seed),
    resolvedModels: [...resolved].sort(),
    promptHashes: Object.fromEntries(promptHashes),
    taskSetHash: taskSetHash(promptHashes),
  };
  if (!deps.leaseLost()) {
    // Written even when no task produced a prediction, so the summary's path always exists.
    predictions.save();
    finishManifest(manifest, plan.tasks, result, stopped);
    manifest.cost = costRecord(result.progress.billed, result.progress.limited, plan.costOf);
    if (plan.runBudget) manifest.maxCost = maxCostRecord(plan.runBudget, result.notStarted.length);
    if (plan.placeholderImagesDir) manifest.placeholderImages = placeholderManifest(plan.placeholderImagesDir, placeholders, deps.root);
    // Redacted as the store is; the schema checks what redaction returns.
    writeRunManifest(manifestFile, redactValue(manifest) as RunManifest);
  }
  return {
    trial,
    seed: plan.seed,
    label: name,
    output,
    manifestFile,
    result,
    manifest,
    ...(plan.placeholderImagesDir ? { placeholderImages: placeholders } : {}),
  };
}

/** What the manifest says about --placeholder-images: on, where the stand-ins are, which tasks used them. */
export function placeholderManifest(dir: string, placeholders: Record<string, string[]>, root: string): RunManifest['placeholderImages'] {
  const tasks = Object.keys(placeholders).sort();
  return {
    enabled: true,
    note: 'pipeline check: missing task images were replaced by labelled stand-ins (PLACEHOLDER — <file name>); scores of these tasks say nothing about a model',
    dir: dir.startsWith(`${root}${path.sep}`) ? path.relative(root, dir) : dir,
    taskCount: tasks.length,
    tasks: Object.fromEntries(tasks.map((id) => [id, placeholders[id] as string[]])),
  };
}

/** Every trial's counts added up, failures and skips listed per trial in order. */
export function combineResults(results: readonly BatchResult[]): BatchResult {
  const usage = results.reduce((total, result) => addUsage(total, result.progress.usage), emptyUsage());
  const billed = results.reduce((total, result) => sumBilledUsage(total, result.progress.billed), emptyBilledUsage());
  const limited = results.reduce((total, result) => addLimitCounts(total, result.progress.limited), emptyLimitCounts());
  return {
    progress: {
      total: sum(results, (r) => r.progress.total),
      done: sum(results, (r) => r.progress.done),
      failedModel: sum(results, (r) => r.progress.failedModel),
      failedInfra: sum(results, (r) => r.progress.failedInfra),
      running: 0,
      requeued: sum(results, (r) => r.progress.requeued),
      interrupted: sum(results, (r) => r.progress.interrupted),
      usage,
      billed,
      limited,
    },
    failures: results.flatMap((result) => result.failures),
    skipped: results.flatMap((result) => result.skipped),
    notStarted: results.flatMap((result) => result.notStarted),
  };
}
