// One model under one condition over a task set, for k trials: driver, recorder, one prediction
// file and manifest per trial, and the batch. The MCP host is started by the caller and shared,
// so several models and conditions reuse one server fleet. Trials run one after another, each in
// fresh workspaces, with its own seed (base + trial - 1 when --seed is given).
import path from 'node:path';
import { agentOptionsFrom } from '../agent/options.js';
import type { ProjectConfig } from '../config/index.js';
import { createFallbackLayer, fallbackSettingsFrom, manifestFallback, type FallbackLayer } from '../fallback/index.js';
import { costOfModel, loadPriceTable, priceRecord } from '../llm/pricing.js';
import { createDriver, modelLabel } from '../llm/registry.js';
import type { Logger } from '../log/logger.js';
import { parseAllowedRoots } from '../mcp/child-env.js';
import type { ToolHost } from '../mcp/types.js';
import { finishRun, updateRunManifest, type Store } from '../store/index.js';
import { removeStaleTemporaries } from '../tasks/write-json.js';
import { applyDriver, applyLimits, applyTaskHost, cellLabel, hintsFor, type ConditionSet } from './conditions.js';
import { withImageAudit } from './driver-decorators.js';
import { providerBatchRecord, withProviderBatch } from './provider-batch.js';
import type { EpisodeObserverFactory } from './recorder.js';
import { ResponseCache } from './response-cache.js';
import { costRecord, maxCostRecord } from './run-cost.js';
import { RunInterruptedError } from './failure.js';
import { buildManifest, finishManifest, openRunRow } from './run-row.js';
import type { BatchResult } from './run-batch.js';
import { selectShard, serversNeeded, type RunnableTask } from './task-set.js';
import { combineResults, placeholderManifest, runTrial, trialSeed, type TrialReport } from './run-trial.js';
import { taskSetHash } from './prompt-hash.js';
import { manifestFileFor, predictionFile } from '../results/layout.js';
import type { RunModelRequest } from './run-request.js';

export type { RunModelRequest };

export interface RunModelReport {
  model: string;
  /** The cell label: the model label plus the condition (`gpt-4o+images-off`). */
  label: string;
  condition: string;
  runId: string;
  /** Trial 1's files (the only ones of a single-trial run). */
  output: string;
  manifestFile: string;
  /** Every trial's counts added up; the per-trial results are in `trials`. */
  result: BatchResult;
  trials: TrialReport[];
  /** Set when the run was stopped before its queue was empty (Ctrl-C, or the lease was lost). */
  stopped?: string;
  /** With --placeholder-images: task id → the image entries that ran on stand-ins. */
  placeholderImages?: Record<string, string[]>;
}

export interface RunModelDeps {
  config: ProjectConfig;
  host: ToolHost;
  store: Store;
  logger: Logger;
  root: string;
  /** Told of each episode once recorded (live traces); none by default. */
  observeEpisodes?: EpisodeObserverFactory;
}

const noCondition: ConditionSet = { name: 'baseline', parts: [] };

/** The tasks of this shard; those needing a server that is not running fail up front. */
function tasksToRun(request: RunModelRequest, condition: ConditionSet, host: ToolHost, logger: Logger): RunnableTask[] {
  const available = new Set(host.tools.map((tool) => tool.server));
  // A task whose ground truth needs a server that is not running fails up front (recorded,
  // counted as infrastructure) instead of silently scoring against tools it never had.
  const tasks = selectShard(request.taskSet.tasks, request.shard).map((task) => {
    const gt = request.taskSet.groundTruth.get(task.id);
    const hints = hintsFor(condition, gt);
    const withHints = hints.length > 0 ? { ...task, hints } : task;
    const needed = new Set([...serversNeeded(gt), ...(task.universe?.servers ?? [])]);
    const missing = [...needed].filter((server) => !available.has(server));
    return missing.length === 0 || request.allowMissingServers ? withHints : { ...withHints, missingServers: missing };
  });
  const unavailable = tasks.filter((task) => task.missingServers).length;
  if (unavailable > 0)
    logger.warn(`${unavailable} task(s) need servers that are not running; they are recorded as failures (--allow-missing-servers runs them anyway)`);
  return tasks;
}

/** The condition's per-task tool host, when a part of it changes what tasks see (robustness conditions). */
function conditionTaskHost(condition: ConditionSet, request: RunModelRequest): ((host: ToolHost, taskId: string, seed: number) => ToolHost) | undefined {
  if (!condition.parts.some((part) => part.taskHost)) return undefined;
  return (host, taskId, seed) => applyTaskHost(condition, host, { taskId, gt: request.taskSet.groundTruth.get(taskId), seed });
}

/** Aborts `stop` when the caller's signal fires (Ctrl-C) or the lease is lost; the reason says which. */
function stopController(signal: AbortSignal | undefined): { stop: AbortController; dispose: () => void } {
  const stop = new AbortController();
  const forward = () =>
    stop.abort(signal?.reason instanceof RunInterruptedError ? signal.reason : new RunInterruptedError(String(signal?.reason ?? 'stopped')));
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  return { stop, dispose: () => signal?.removeEventListener('abort', forward) };
}

/**
 * Under --batch a model call waits for its job (minutes to hours), so the harness sets no limit
 * per attempt (M3_LLM_TIMEOUT); the SDK clients keep theirs for each HTTP request, and the task
 * timeout still bounds the episode.
 */
function withoutAttemptTimeout<T extends { retry: { timeoutMs: number } }>(options: T, batch: unknown): T {
  return batch ? { ...options, retry: { ...options.retry, timeoutMs: 0 } } : options;
}

export async function runModel(request: RunModelRequest, deps: RunModelDeps): Promise<RunModelReport> {
  const { config, host, store, logger } = deps;
  const switches = config.switches;
  const condition = request.condition ?? noCondition;
  const trials = Math.max(1, request.trials ?? 1);
  const label = `${cellLabel(modelLabel(request.model), condition)}${request.labelSuffix ?? ''}`;
  const limits = applyLimits(condition, request.limits);
  // Temp files of an atomic write a killed run never finished.
  for (const dir of new Set([path.resolve(request.resultsDir), ...(request.output ? [path.dirname(path.resolve(request.output))] : [])])) {
    for (const name of removeStaleTemporaries(dir)) logger.info(`removed ${name}, left in ${dir} by a process that no longer runs`);
  }
  const prices = loadPriceTable(config.env);
  // Images tools wrote are shown to the model from the same folders the servers may write to.
  const imageRoots = [
    path.join(deps.root, 'media'),
    ...parseAllowedRoots(switches.M3_ALLOWED_ROOTS, deps.root),
    ...(request.workspaceRoot ? [request.workspaceRoot] : []),
  ];
  const options = agentOptionsFrom(switches, limits, imageRoots, request.model);
  const driverContext = { env: config.env, groundTruth: request.taskSet.groundTruth, timeoutMs: options.retry.timeoutMs };
  const plainDriver = await createDriver(request.model, driverContext);
  // Under --batch the vendor's batch API answers; the plain driver takes what a job does not.
  const batch = request.batch
    ? await withProviderBatch(plainDriver, {
        settings: request.batch,
        runId: request.runId,
        concurrency: request.concurrency,
        context: driverContext,
        store,
        logger,
      })
    : undefined;
  const baseDriver = batch?.driver ?? plainDriver;
  // The response cache sits next to the driver, so its key sees the request a condition changed.
  const cache = request.cache ? ResponseCache.open(request.cache, request.runId, request.workspaceRoot) : undefined;
  // The audit wraps the driver itself, inside the condition's decorators: it sees what is sent.
  const driver = applyDriver(condition, withImageAudit(cache ? cache.wrap(baseDriver) : baseDriver));
  const tasks = tasksToRun(request, condition, host, logger);
  const manifest = buildManifest({ ...request, limits, condition, trials }, label, config, host, deps.root);
  const { stop, dispose } = stopController(request.signal);
  const fallbackSettings = fallbackSettingsFrom(switches, deps.root);
  manifest.fallback = manifestFallback(fallbackSettings, deps.root);
  manifest.price = priceRecord(request.model, prices, config.env.M3_PRICE_TABLE);
  if (cache) manifest.responseCache = cache.counts;
  if (batch) manifest.providerBatch = providerBatchRecord(batch.counts, request.model, prices);
  const lease = openRunRow(store, { ...request, condition, trials }, label, manifest, {
    logger,
    onLost: (message) => stop.abort(new RunInterruptedError(message)),
  });
  let fallback: FallbackLayer | undefined;
  const observer = await deps.observeEpisodes?.(config.env, store, request.runId, logger);
  try {
    const placeholderImagesDir = request.placeholderImages ? path.join(path.resolve(request.resultsDir), 'placeholder-images') : undefined;
    // Fixture assets (a downloaded PDF, an image) are written into the task's workspace, which lives in the run folder.
    fallback = createFallbackLayer({ settings: fallbackSettings, host, env: config.env, timeoutMs: options.retry.timeoutMs, logger, assetRoots: imageRoots });
    const taskHost = conditionTaskHost(condition, request);
    const extras = {
      ...(fallback ? { interceptor: fallback.interceptor } : {}),
      ...(placeholderImagesDir ? { placeholderImagesDir } : {}),
      ...(taskHost ? { taskHost } : {}),
    };
    const costOf = costOfModel(request.model, prices);
    const reports: TrialReport[] = [];
    for (let trial = 1; trial <= trials && !stop.signal.aborted; trial += 1) {
      const seed = trialSeed(limits.seed, trial);
      reports.push(
        await runTrial(
          {
            request,
            label,
            trial,
            trials,
            seed,
            tasks,
            driver,
            options: withoutAttemptTimeout(
              agentOptionsFrom(switches, { ...limits, ...(seed !== undefined ? { seed } : {}) }, imageRoots, request.model),
              batch,
            ),
            manifest,
            costOf,
            ...(request.runBudget ? { runBudget: request.runBudget } : {}),
            ...extras,
          },
          {
            config,
            host,
            store,
            logger,
            root: deps.root,
            signal: stop.signal,
            leaseLost: () => lease.lost,
            ...(observer ? { onEpisodeRecorded: (episodeId: number) => observer.episodeRecorded(episodeId) } : {}),
          },
        ),
      );
    }
    const stopped = stop.signal.aborted ? (stop.signal.reason as Error).message : undefined;
    const first = reports[0];
    const result = combineResults(reports.map((report) => report.result));
    const placeholders: Record<string, string[]> = Object.assign({}, ...reports.map((report) => report.placeholderImages ?? {}));
    // A process that lost its lease leaves the run's files and row to the new owner.
    if (!lease.lost) {
      const hashes = new Map(reports.flatMap((report) => Object.entries(report.manifest.promptHashes ?? {})));
      finishManifest(manifest, tasks, result, stopped);
      manifest.cost = costRecord(result.progress.billed, result.progress.limited, costOf);
      if (request.runBudget) manifest.maxCost = maxCostRecord(request.runBudget, result.notStarted.length);
      manifest.promptHashes = Object.fromEntries(hashes);
      manifest.taskSetHash = taskSetHash(hashes);
      manifest.resolvedModels = [...new Set(reports.flatMap((report) => report.manifest.resolvedModels ?? []))].sort();
      manifest.trialFiles = reports.map((report) => ({
        trial: report.trial,
        seed: report.seed ?? null,
        predictions: report.output,
        manifest: report.manifestFile,
        ...(report.manifest.counts ? { counts: report.manifest.counts } : {}),
      }));
      if (placeholderImagesDir) manifest.placeholderImages = placeholderManifest(placeholderImagesDir, placeholders, deps.root);
      updateRunManifest(store, request.runId, manifest, trials);
      finishRun(store, request.runId, stopped ? 'interrupted' : 'finished');
    }
    const fallbackOutput = request.output ? path.resolve(request.output) : predictionFile(request.resultsDir, label, request.shard);
    const output = first?.output ?? fallbackOutput;
    return {
      model: request.model,
      label,
      condition: condition.name,
      runId: request.runId,
      output,
      manifestFile: first?.manifestFile ?? manifestFileFor(output),
      result,
      trials: reports,
      ...(stopped ? { stopped } : {}),
      ...(placeholderImagesDir ? { placeholderImages: placeholders } : {}),
    };
  } finally {
    await observer?.close();
    cache?.close();
    fallback?.close();
    dispose();
    lease.release();
  }
}
