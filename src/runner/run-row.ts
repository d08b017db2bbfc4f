// The run's row in the store and its manifest: created on a fresh run, reopened on --resume
// (same model, tool surface checked for drift), and completed when the run ends.
import type { ProjectConfig } from '../config/index.js';
import { ConfigError } from '../errors/index.js';
import type { ToolHost } from '../mcp/types.js';
import { createRun, getRun, reopenRun, type Store } from '../store/index.js';
import type { ConditionSet } from './conditions.js';
import { configHash, gitCommit, packageVersions, sha256OfFile } from './manifest.js';
import type { RunManifest, SamplingRecord } from '../results/run-manifest.js';
import type { RunModelRequest } from './run-request.js';
import { holdRunLease, type HeldRunLease, type HoldLeaseOptions } from './run-lease.js';
import type { BatchResult } from './run-batch.js';
import type { RunnableTask } from './task-set.js';
import { checkToolDrift, toolSurfaceDrift } from './tool-drift.js';

type CellRequest = RunModelRequest & { condition: ConditionSet; trials: number };

/** Per-server tools hashes of a manifest. */
function toolSurfaceOf(manifest: RunManifest): Record<string, string> {
  return Object.fromEntries(manifest.tools.filter((tool) => tool.toolsHash).map((tool) => [tool.server, tool.toolsHash as string]));
}

/** Creates or reopens the run row and takes its lease (refused while another process writes it). */
export function openRunRow(
  store: Store,
  request: CellRequest,
  label: string,
  manifest: RunManifest,
  lease: Omit<HoldLeaseOptions, 'heartbeatMs'>,
): HeldRunLease {
  const existing = getRun(store, request.runId);
  if (existing && !request.resume) {
    throw new ConfigError(`run id "${request.runId}" already exists in the store: pass --resume to continue it, or choose another --run-id`);
  }
  if (existing) {
    if (existing.modelSpec !== request.model)
      throw new ConfigError(`run "${request.runId}" was started with model ${existing.modelSpec}, not ${request.model}`);
    if (existing.condition !== request.condition.name)
      throw new ConfigError(`run "${request.runId}" was started under condition ${existing.condition}, not ${request.condition.name}`);
    const drift = checkToolDrift(
      `--resume of run "${request.runId}"`,
      toolSurfaceDrift(existing.toolSurface, toolSurfaceOf(manifest)),
      Boolean(request.allowToolDrift),
    );
    if (drift.length > 0) {
      manifest.toolSurfaceDrift = [...drift];
      lease.logger.warn(`run ${request.runId}: continuing although the tool surface changed (--allow-tool-drift); recorded in the manifest`);
    }
    const held = holdRunLease(store, request.runId, lease);
    reopenRun(store, request.runId);
    return held;
  }
  createRun(store, {
    runId: request.runId,
    modelSpec: request.model,
    modelLabel: label,
    configHash: manifest.configHash,
    ...(manifest.gitCommit ? { gitCommit: manifest.gitCommit } : {}),
    packageVersions: manifest.versions,
    switches: manifest.switches as unknown as Record<string, unknown>,
    toolsHash: manifest.toolsHash,
    toolSurface: toolSurfaceOf(manifest),
    manifest,
    ...(manifest.seed !== null ? { seed: manifest.seed } : {}),
    taskFile: manifest.tasksFile,
    ...(manifest.gtFile ? { gtFile: manifest.gtFile } : {}),
    ...(request.batchId ? { batchId: request.batchId } : {}),
    condition: request.condition.name,
    trials: request.trials,
  });
  return holdRunLease(store, request.runId, lease);
}

export function samplingRecord(limits: RunModelRequest['limits'], seed: number | undefined): SamplingRecord {
  return {
    temperature: limits.temperature ?? null,
    seed: seed ?? null,
    maxNewTokens: limits.maxNewTokens,
    maxSteps: limits.maxStep,
    maxConcurrentCalls: limits.maxConcurrent,
    topTools: limits.topTools,
    providerDefaults: [
      'top_p',
      'top_k',
      'presence/frequency penalties',
      ...(limits.temperature === undefined ? ['temperature'] : []),
      ...(seed === undefined ? ['seed'] : []),
    ],
  };
}

export function buildManifest(request: CellRequest, label: string, config: ProjectConfig, host: ToolHost, root: string): RunManifest {
  const switches = config.switches;
  const runsFrom = new Map(config.servers.map((spec) => [spec.name, spec.runsFrom]));
  const workflow = request.limits.workflow;
  return {
    runId: request.runId,
    model: request.model,
    modelLabel: label,
    startedAt: new Date().toISOString(),
    configHash: configHash({ servers: config.servers.map(({ description: _description, ...spec }) => spec), switches, limits: request.limits }),
    serversFile: config.serversFile,
    serversFileSha256: sha256OfFile(config.serversFile),
    toolsHash: host.toolsHash(),
    toolSurface: {
      name: host.surface?.name ?? 'm3bench',
      hash: host.toolsHash(),
      ...(host.surface?.catalogFile ? { catalogFile: host.surface.catalogFile } : {}),
    },
    tools: host.status().map((server) => ({
      server: server.name,
      toolCount: server.toolCount,
      state: server.state,
      ...(server.toolsHash ? { toolsHash: server.toolsHash } : {}),
      ...(runsFrom.get(server.name) ? { runsFrom: runsFrom.get(server.name) } : {}),
    })),
    switches,
    options: { ...request.limits, concurrency: request.concurrency },
    versions: packageVersions(root),
    gitCommit: gitCommit(root),
    seed: request.limits.seed ?? null,
    tasksFile: request.taskSet.tasksFile,
    tasksFileSha256: sha256OfFile(request.taskSet.tasksFile),
    ...(request.taskSet.taskFiles.length > 1
      ? { extraTaskFiles: request.taskSet.taskFiles.slice(1).map((file) => ({ file, sha256: sha256OfFile(file) })) }
      : {}),
    gtFile: request.taskSet.gtFile ?? null,
    gtFileSha256: sha256OfFile(request.taskSet.gtFile),
    shard: request.shard ? `${request.shard.index}/${request.shard.count}` : null,
    ...(request.batchId ? { batchId: request.batchId } : {}),
    condition: { name: request.condition.name, parts: request.condition.parts.map((part) => ({ name: part.name, description: part.description })) },
    trials: request.trials,
    sampling: samplingRecord(request.limits, request.limits.seed),
    ...(workflow ? { workflow: { name: workflow.name, type: workflow.type, sha256: configHash({ ...workflow }) } } : {}),
  };
}

export function finishManifest(manifest: RunManifest, tasks: readonly RunnableTask[], result: BatchResult, stopped: string | undefined): void {
  manifest.finishedAt = new Date().toISOString();
  const { progress } = result;
  manifest.counts = {
    tasks: tasks.length,
    skippedResumed: result.skipped.length,
    done: progress.done,
    modelFailures: progress.failedModel,
    infraFailures: progress.failedInfra,
    requeued: progress.requeued,
    interrupted: progress.interrupted,
    notStarted: result.notStarted.length,
    limitTokens: progress.limited.tokens,
    limitMessages: progress.limited.messages,
    limitCost: progress.limited.cost,
  };
  manifest.failures = result.failures.map((failure) => ({
    taskId: failure.taskId,
    status: failure.verdict.status,
    code: failure.verdict.code,
    message: failure.verdict.message,
    attempts: failure.attempts,
  }));
  if (stopped) manifest.stopped = stopped;
}
