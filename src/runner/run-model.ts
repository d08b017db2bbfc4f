// One model over one task set: driver, recorder, prediction file, manifest and the batch.
// The MCP host is started by the caller and shared, so several models reuse one server fleet.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { agentOptionsFrom, type LoopLimits } from '../agent/options.js';
import type { ProjectConfig } from '../config/index.js';
import type { Usage } from '../core/usage.js';
import { ConfigError } from '../errors/index.js';
import { costUsd, loadPriceTable } from '../llm/pricing.js';
import { createDriver, modelLabel } from '../llm/registry.js';
import type { Logger } from '../log/logger.js';
import { createProgress } from '../log/progress.js';
import { parseAllowedRoots } from '../mcp/child-env.js';
import type { ToolHost } from '../mcp/types.js';
import { createRun, finishRun, getRun, reopenRun, type Store } from '../store/index.js';
import { LlmStats } from './llm-stats.js';
import { holdRunLease, type HeldRunLease, type HoldLeaseOptions } from './run-lease.js';
import { configHash, gitCommit, packageVersions, sha256OfFile, type RunManifest } from './manifest.js';
import { removeStaleTemporaries, writeJsonAtomic } from '../tasks/write-json.js';
import { PredictionFile } from './prediction-file.js';
import { runBatch, type BatchResult } from './run-batch.js';
import { StoreRecorder } from './store-recorder.js';
import { RunInterruptedError } from './failure.js';
import { selectShard, serversNeeded, type RunnableTask, type TaskSet } from './task-set.js';
import { secondsToTimerMs } from '../config/timer-ms.js';

export interface RunModelRequest {
  model: string;
  taskSet: TaskSet;
  limits: LoopLimits;
  concurrency: number;
  runId: string;
  resume: boolean;
  overwrite: boolean;
  output?: string;
  resultsDir: string;
  shard?: { index: number; count: number };
  imageDirs: string[];
  allowMissingServers: boolean;
  /** Ctrl-C: stops the batch gracefully (see BatchOptions.signal). */
  signal?: AbortSignal;
  /** Label of the run's files and store rows (default: modelLabel(model)); sweep cells add a suffix (conditions.ts). */
  label?: string;
  /** The run condition (conditions.ts), recorded in the manifest; absent for a plain run. */
  condition?: string;
}

export interface RunModelReport {
  model: string;
  label: string;
  runId: string;
  output: string;
  manifestFile: string;
  result: BatchResult;
  /** Set when the run was stopped before its queue was empty (Ctrl-C, or the lease was lost). */
  stopped?: string;
}

export interface RunModelDeps {
  config: ProjectConfig;
  host: ToolHost;
  store: Store;
  logger: Logger;
  root: string;
}

export function defaultOutputFile(resultsDir: string, label: string, shard?: { index: number; count: number }): string {
  const suffix = shard ? `.shard-${shard.index}-of-${shard.count}` : '';
  return path.join(resultsDir, `${label}_test_mcp_fuzzy${suffix}.json`);
}

/** Creates or reopens the run row and takes its lease (refused while another process writes it). */
function openRunRow(store: Store, request: RunModelRequest, label: string, manifest: RunManifest, lease: Omit<HoldLeaseOptions, 'heartbeatMs'>): HeldRunLease {
  const existing = getRun(store, request.runId);
  if (existing && !request.resume) {
    throw new ConfigError(`run id "${request.runId}" already exists in the store: pass --resume to continue it, or choose another --run-id`);
  }
  if (existing) {
    if (existing.modelSpec !== request.model) throw new ConfigError(`run "${request.runId}" was started with model ${existing.modelSpec}, not ${request.model}`);
    const held = holdRunLease(store, request.runId, lease);
    reopenRun(store, request.runId);
    return held;
  }
  createRun(store, {
    runId: request.runId, modelSpec: request.model, modelLabel: label, configHash: manifest.configHash,
    ...(manifest.gitCommit ? { gitCommit: manifest.gitCommit } : {}), packageVersions: manifest.versions,
    switches: manifest.switches as unknown as Record<string, unknown>, toolsHash: manifest.toolsHash,
    toolSurface: Object.fromEntries(manifest.tools.filter((tool) => tool.toolsHash).map((tool) => [tool.server, tool.toolsHash as string])),
    manifest, ...(manifest.seed !== null ? { seed: manifest.seed } : {}), taskFile: manifest.tasksFile,
    ...(manifest.gtFile ? { gtFile: manifest.gtFile } : {}),
  });
  return holdRunLease(store, request.runId, lease);
}

function buildManifest(request: RunModelRequest, label: string, config: ProjectConfig, host: ToolHost, root: string): RunManifest {
  const switches = config.switches;
  return {
    runId: request.runId, model: request.model, modelLabel: label, startedAt: new Date().toISOString(),
    configHash: configHash({ servers: config.servers.map(({ description: _description, ...spec }) => spec), switches, limits: request.limits, condition: request.condition }), serversFile: config.serversFile,
    serversFileSha256: sha256OfFile(config.serversFile), toolsHash: host.toolsHash(),
    tools: host.status().map((server) => ({ server: server.name, toolCount: server.toolCount, state: server.state, ...(server.toolsHash ? { toolsHash: server.toolsHash } : {}) })),
    switches, options: { ...request.limits, concurrency: request.concurrency }, versions: packageVersions(root), gitCommit: gitCommit(root),
    seed: request.limits.seed ?? null, tasksFile: request.taskSet.tasksFile, tasksFileSha256: sha256OfFile(request.taskSet.tasksFile),
    gtFile: request.taskSet.gtFile ?? null, gtFileSha256: sha256OfFile(request.taskSet.gtFile), shard: request.shard ? `${request.shard.index}/${request.shard.count}` : null,
    ...(request.condition ? { condition: request.condition } : {}),
  };
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

/** The tasks of this shard; those needing a server that is not running fail up front. */
function tasksToRun(request: RunModelRequest, host: ToolHost, logger: Logger): RunnableTask[] {
  const available = new Set(host.tools.map((tool) => tool.server));
  // A task whose ground truth needs a server that is not running fails up front (recorded,
  // counted as infrastructure) instead of silently scoring against tools it never had.
  const tasks = selectShard(request.taskSet.tasks, request.shard).map((task) => {
    const missing = serversNeeded(request.taskSet.groundTruth.get(task.id)).filter((server) => !available.has(server));
    return missing.length === 0 || request.allowMissingServers ? task : { ...task, missingServers: missing };
  });
  const unavailable = tasks.filter((task) => task.missingServers).length;
  if (unavailable > 0) logger.warn(`${unavailable} task(s) need servers that are not running; they are recorded as failures (--allow-missing-servers runs them anyway)`);
  return tasks;
}

function finishManifest(manifest: RunManifest, tasks: readonly RunnableTask[], result: BatchResult, stopped: string | undefined): void {
  manifest.finishedAt = new Date().toISOString();
  const { progress } = result;
  manifest.counts = {
    tasks: tasks.length, skippedResumed: result.skipped.length, done: progress.done, modelFailures: progress.failedModel, infraFailures: progress.failedInfra,
    requeued: progress.requeued, interrupted: progress.interrupted, notStarted: result.notStarted.length,
  };
  manifest.failures = result.failures.map((failure) => ({ taskId: failure.taskId, status: failure.verdict.status, code: failure.verdict.code, message: failure.verdict.message, attempts: failure.attempts }));
  if (stopped) manifest.stopped = stopped;
}

/** Aborts `stop` when the caller's signal fires (Ctrl-C) or the lease is lost; the reason says which. */
function stopController(signal: AbortSignal | undefined): { stop: AbortController; dispose: () => void } {
  const stop = new AbortController();
  const forward = () => stop.abort(signal?.reason instanceof RunInterruptedError ? signal.reason : new RunInterruptedError(String(signal?.reason ?? 'stopped')));
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  return { stop, dispose: () => signal?.removeEventListener('abort', forward) };
}

export async function runModel(request: RunModelRequest, deps: RunModelDeps): Promise<RunModelReport> {
  const { config, host, store, logger } = deps;
  const switches = config.switches;
  const label = request.label ?? modelLabel(request.model);
  const output = path.resolve(request.output ?? defaultOutputFile(request.resultsDir, label, request.shard));
  // Temp files of an atomic write a killed run never finished.
  for (const dir of new Set([path.resolve(request.resultsDir), path.dirname(output)])) {
    for (const name of removeStaleTemporaries(dir)) logger.info(`removed ${name}, left in ${dir} by a process that no longer runs`);
  }
  const predictions = openPredictionFile(output, request);
  const prices = loadPriceTable(config.env);
  // Images tools wrote are shown to the model from the same folders the servers may write to.
  const options = agentOptionsFrom(switches, request.limits, [path.join(deps.root, 'media'), ...parseAllowedRoots(switches.M3_ALLOWED_ROOTS, deps.root)]);
  const driver = await createDriver(request.model, { env: config.env, groundTruth: request.taskSet.groundTruth, timeoutMs: options.retry.timeoutMs });
  const tasks = tasksToRun(request, host, logger);
  const manifest = buildManifest(request, label, config, host, deps.root);
  const { stop, dispose } = stopController(request.signal);
  const lease = openRunRow(store, request, label, manifest, { logger, onLost: (message) => stop.abort(new RunInterruptedError(message)) });
  try {
    const costOf = (usage: Usage) => costUsd(request.model, usage, prices) ?? null;
    const statsFile = switches.M3_LLM_STATS ? switches.M3_LLM_STATS_FILE || path.join(request.resultsDir, `${label}.llm_stats.json`) : undefined;
    const stats = new LlmStats(statsFile, switches.M3_LLM_STATS_FLUSH_EVERY, costOf);
    const progress = createProgress(label);
    mkdirSync(path.dirname(output), { recursive: true });
    const result = await runBatch(
      tasks,
      {
        driver, host, options, root: deps.root, runId: request.runId, workspaceMode: switches.M3_WORKSPACE_MODE,
        keepWorkspace: switches.M3_KEEP_WORKSPACE, imageSearchDirs: request.imageDirs, taskTimeoutMs: secondsToTimerMs(switches.M3_TASK_TIMEOUT),
      },
      {
        concurrency: request.concurrency, maxRequeue: switches.M3_MAX_TASK_REQUEUE, recorder: new StoreRecorder(store, request.runId, request.model), predictions,
        costOf, signal: stop.signal,
        onEvent: (event) => stats.observe(event),
        onProgress: (snapshot, finished) => {
          const line = finished ? `${finished.taskId} ${finished.outcome.ok ? 'ok' : `${finished.outcome.verdict.status}: ${finished.outcome.verdict.message}`}` : undefined;
          progress.update({ ...snapshot, tokens: snapshot.usage.inputTokens + snapshot.usage.outputTokens }, line);
        },
      },
    );
    progress.stop();
    stats.flush();
    const stopped = stop.signal.aborted ? (stop.signal.reason as Error).message : undefined;
    const manifestFile = output.replace(/\.json$/i, '.manifest.json');
    // A process that lost its lease leaves the run's files and row to the new owner.
    if (!lease.lost) {
      // Written even when no task produced a prediction, so the summary's path always exists.
      predictions.save();
      finishManifest(manifest, tasks, result, stopped);
      writeJsonAtomic(manifestFile, manifest);
      finishRun(store, request.runId, stopped ? 'interrupted' : 'finished');
    }
    return { model: request.model, label, runId: request.runId, output, manifestFile, result, ...(stopped ? { stopped } : {}) };
  } finally {
    dispose();
    lease.release();
  }
}
