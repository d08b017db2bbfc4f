// One model over one task set: driver, recorder, prediction file, manifest and the batch.
// The MCP host is started by the caller and shared, so several models reuse one server fleet.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { agentOptionsFrom, type LoopLimits } from '../agent/options.js';
import type { ProjectConfig } from '../config/index.js';
import type { Usage } from '../core/usage.js';
import { ConfigError } from '../errors/index.js';
import { createFallbackLayer, fallbackSettingsFrom, manifestFallback } from '../fallback/index.js';
import { costUsd, loadPriceTable } from '../llm/pricing.js';
import { createDriver, modelLabel } from '../llm/registry.js';
import type { Logger } from '../log/logger.js';
import { createProgress } from '../log/progress.js';
import type { ToolHost } from '../mcp/types.js';
import { createRun, finishRun, getRun, reopenRun, type Store } from '../store/index.js';
import { LlmStats } from './llm-stats.js';
import { configHash, gitCommit, packageVersions, sha256OfFile, type RunManifest } from './manifest.js';
import { writeJsonAtomic } from '../tasks/write-json.js';
import { PredictionFile } from './prediction-file.js';
import { runBatch, type BatchResult } from './run-batch.js';
import { StoreRecorder } from './store-recorder.js';
import { selectShard, serversNeeded, type TaskSet } from './task-set.js';

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
}

export interface RunModelReport {
  model: string;
  label: string;
  runId: string;
  output: string;
  manifestFile: string;
  result: BatchResult;
}

export function defaultOutputFile(resultsDir: string, label: string, shard?: { index: number; count: number }): string {
  const suffix = shard ? `.shard-${shard.index}-of-${shard.count}` : '';
  return path.join(resultsDir, `${label}_test_mcp_fuzzy${suffix}.json`);
}

function openRunRow(store: Store, request: RunModelRequest, label: string, manifest: RunManifest): void {
  const existing = getRun(store, request.runId);
  if (existing && !request.resume) {
    throw new ConfigError(`run id "${request.runId}" already exists in the store: pass --resume to continue it, or choose another --run-id`);
  }
  if (existing) {
    if (existing.modelSpec !== request.model) throw new ConfigError(`run "${request.runId}" was started with model ${existing.modelSpec}, not ${request.model}`);
    reopenRun(store, request.runId);
    return;
  }
  createRun(store, {
    runId: request.runId, modelSpec: request.model, modelLabel: label, configHash: manifest.configHash,
    ...(manifest.gitCommit ? { gitCommit: manifest.gitCommit } : {}), packageVersions: manifest.versions,
    switches: manifest.switches as unknown as Record<string, unknown>, toolsHash: manifest.toolsHash,
    toolSurface: Object.fromEntries(manifest.tools.filter((tool) => tool.toolsHash).map((tool) => [tool.server, tool.toolsHash as string])),
    manifest, ...(manifest.seed !== null ? { seed: manifest.seed } : {}), taskFile: manifest.tasksFile,
    ...(manifest.gtFile ? { gtFile: manifest.gtFile } : {}),
  });
}

function buildManifest(request: RunModelRequest, label: string, config: ProjectConfig, host: ToolHost, root: string): RunManifest {
  const switches = config.switches;
  return {
    runId: request.runId, model: request.model, modelLabel: label, startedAt: new Date().toISOString(),
    configHash: configHash({ servers: config.servers, switches, limits: request.limits }), serversFile: config.serversFile,
    serversFileSha256: sha256OfFile(config.serversFile), toolsHash: host.toolsHash(),
    tools: host.status().map((server) => ({ server: server.name, toolCount: server.toolCount, state: server.state, ...(server.toolsHash ? { toolsHash: server.toolsHash } : {}) })),
    switches, options: { ...request.limits, concurrency: request.concurrency }, versions: packageVersions(root), gitCommit: gitCommit(root),
    seed: request.limits.seed ?? null, tasksFile: request.taskSet.tasksFile, tasksFileSha256: sha256OfFile(request.taskSet.tasksFile),
    gtFile: request.taskSet.gtFile ?? null, gtFileSha256: sha256OfFile(request.taskSet.gtFile), shard: request.shard ? `${request.shard.index}/${request.shard.count}` : null,
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

export async function runModel(request: RunModelRequest, deps: { config: ProjectConfig; host: ToolHost; store: Store; logger: Logger; root: string }): Promise<RunModelReport> {
  const { config, host, store, logger } = deps;
  const switches = config.switches;
  const label = modelLabel(request.model);
  const output = path.resolve(request.output ?? defaultOutputFile(request.resultsDir, label, request.shard));
  const predictions = openPredictionFile(output, request);
  const prices = loadPriceTable(config.env);
  const options = agentOptionsFrom(switches, request.limits, [path.join(deps.root, 'media')]);
  const driver = await createDriver(request.model, { env: config.env, groundTruth: request.taskSet.groundTruth, timeoutMs: options.retry.timeoutMs });
  const available = new Set(host.tools.map((tool) => tool.server));
  // A task whose ground truth needs a server that is not running fails up front (recorded,
  // counted as infrastructure) instead of silently scoring against tools it never had.
  const tasks = selectShard(request.taskSet.tasks, request.shard).map((task) => {
    const missing = serversNeeded(request.taskSet.groundTruth.get(task.id)).filter((server) => !available.has(server));
    return missing.length === 0 || request.allowMissingServers ? task : { ...task, missingServers: missing };
  });
  const unavailable = tasks.filter((task) => task.missingServers).length;
  if (unavailable > 0) logger.warn(`${unavailable} task(s) need servers that are not running; they are recorded as failures (--allow-missing-servers runs them anyway)`);
  const manifest = buildManifest(request, label, config, host, deps.root);
  const fallbackSettings = fallbackSettingsFrom(switches, deps.root);
  manifest.fallback = manifestFallback(fallbackSettings, deps.root);

  openRunRow(store, request, label, manifest);
  const costOf = (usage: Usage) => costUsd(request.model, usage, prices) ?? null;
  const statsFile = switches.M3_LLM_STATS ? switches.M3_LLM_STATS_FILE || path.join(request.resultsDir, `${label}.llm_stats.json`) : undefined;
  const stats = new LlmStats(statsFile, switches.M3_LLM_STATS_FLUSH_EVERY, costOf);
  const progress = createProgress(label);
  mkdirSync(path.dirname(output), { recursive: true });
  const fallback = createFallbackLayer({ settings: fallbackSettings, host, env: config.env, timeoutMs: options.retry.timeoutMs, logger });
  const result = await runBatch(
    tasks,
    {
      driver, host, options, root: deps.root, runId: request.runId, workspaceMode: switches.M3_WORKSPACE_MODE,
      keepWorkspace: switches.M3_KEEP_WORKSPACE, imageSearchDirs: request.imageDirs, taskTimeoutMs: switches.M3_TASK_TIMEOUT * 1000,
      ...(fallback ? { interceptor: fallback.interceptor } : {}),
    },
    {
      concurrency: request.concurrency, maxRequeue: switches.M3_MAX_TASK_REQUEUE, recorder: new StoreRecorder(store, request.runId, request.model), predictions,
      costOf,
      onEvent: (event) => stats.observe(event),
      onProgress: (snapshot, finished) => {
        const line = finished ? `${finished.taskId} ${finished.outcome.ok ? 'ok' : `${finished.outcome.verdict.status}: ${finished.outcome.verdict.message}`}` : undefined;
        progress.update({ ...snapshot, tokens: snapshot.usage.inputTokens + snapshot.usage.outputTokens }, line);
      },
    },
  );
  progress.stop();
  stats.flush();
  fallback?.close();
  const manifestFile = output.replace(/\.json$/i, '.manifest.json');
  manifest.finishedAt = new Date().toISOString();
  manifest.counts = { tasks: tasks.length, skippedResumed: result.skipped.length, done: result.progress.done, modelFailures: result.progress.failedModel, infraFailures: result.progress.failedInfra, requeued: result.progress.requeued };
  manifest.failures = result.failures.map((failure) => ({ taskId: failure.taskId, status: failure.verdict.status, code: failure.verdict.code, message: failure.verdict.message, attempts: failure.attempts }));
  writeJsonAtomic(manifestFile, manifest);
  finishRun(store, request.runId, 'finished');
  return { model: request.model, label, runId: request.runId, output, manifestFile, result };
}
