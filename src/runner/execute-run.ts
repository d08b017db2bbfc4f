// One `m3 run` / `m3 bench` invocation, from its definition to its finished run folder: load
// the tasks, plan the cells, refuse what would be refused (before anything starts), check the
// models, start the servers once, run every cell's trials, write the batch manifest and the
// `latest` pointer. The commands parse options, call this, and print.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ServerSpec } from '../config/servers.js';
import { loadProjectConfig, type ProjectConfig } from '../config/index.js';
import { fromRepo, repoRoot } from '../config/paths.js';
import { secondsToTimerMs } from '../config/timer-ms.js';
import { ConfigError, StoreError } from '../errors/index.js';
import { createDriver, modelLabel } from '../llm/registry.js';
import type { DriverContext } from '../llm/types.js';
import type { Logger } from '../log/logger.js';
import { createVerboseView } from '../agent/verbose-view.js';
import type { HostOptions } from '../mcp/host.js';
import { McpHost } from '../mcp/index.js';
import { parseToolSurface } from '../mcp/tool-surface.js';
import { checkBatchModel } from '../llm/batch/index.js';
import { defaultBatchSettings, type BatchSettings } from './provider-batch.js';
import { parseCachePolicy, type ResponseCacheSettings } from './response-cache.js';
import { findPrice, loadPriceTable } from '../llm/pricing.js';
import { maxCostRecord, RunBudget } from './run-cost.js';
import { batchManifestFile } from '../results/layout.js';
import { writeLatestPointer } from '../results/latest.js';
import { isDiskFull, openStore } from '../store/index.js';
import { writeBatchManifest, type BatchCell } from './batch-manifest.js';
import { baselineCondition, parseCondition, parseMaxSteps } from './conditions.js';
import { loopLimitsOf, RUN_DEFAULTS, type RunDefinition } from './run-definition.js';
import type { EpisodeObserverFactory } from './recorder.js';
import { runModel, type RunModelReport, type RunModelRequest } from './run-model.js';
import { planRun, refuseBeforeStart, type PlannedCell, type RunPlan } from './run-plan.js';
import { loadTaskSet, selectShard, type TaskSet } from './task-set.js';
import { estimateModels, latestToolCatalog, type RunEstimate } from './estimate-run.js';
import type { CatalogTool } from '../mcp/types.js';
import { resolveShardOption } from './shard-option.js';
import { labelSourcesFor, writeToolCatalogs } from './tool-catalog.js';

const defaultTasksFile = RUN_DEFAULTS.tasks[0] as string;
const defaultGtFile = 'json/m3_local_GT.json';

export interface ExecuteRunContext {
  logger: Logger;
  /** Ctrl-C: stops the batch gracefully. */
  signal: AbortSignal;
  /** What every command that starts the MCP host takes from the configuration (src/cli/host-options.ts). */
  hostOptions: (config: ProjectConfig) => Pick<HostOptions, 'callTimeoutMs' | 'sharedEnv'>;
  /** Refuses an empty task list or shard, naming what was empty (src/cli/run-outcome.ts). */
  requireTasks: (taskSet: TaskSet, shard: { index: number; count: number } | undefined) => void;
  /** Told of each recorded episode (live traces when OTEL_EXPORTER_OTLP_ENDPOINT is set: src/export/live-traces.ts). */
  observeEpisodes?: EpisodeObserverFactory;
}

export interface ExecuteRunResult {
  reports: RunModelReport[];
  plan: RunPlan;
  /** The tool fallback layer was on (M3_MOCK_FALLBACK): the summary then gives each trial's mocked share. */
  fallbackOn: boolean;
  /** `--max-cost`: the run's budget, what it paid, whether it stopped scheduling. */
  maxCost?: RunBudget;
}

function selectServers(servers: ServerSpec[], names: readonly string[] | undefined): ServerSpec[] {
  if (!names || names.length === 0) return servers;
  const unknown = names.filter((name) => !servers.some((server) => server.name === name));
  if (unknown.length > 0)
    throw new ConfigError(`servers ${unknown.join(', ')} are not configured (configured: ${servers.map((server) => server.name).join(', ')})`);
  return servers.filter((server) => names.includes(server.name));
}

/**
 * Every model's driver is created (an unknown provider or a missing key fails here, naming the
 * variable) and asked for its model, before any server starts: a rejected key or a model the
 * endpoint does not have stops the run now instead of failing every task.
 */
async function checkModels(models: readonly string[], context: DriverContext, logger: Logger): Promise<void> {
  for (const model of models) {
    const driver = await createDriver(model, context);
    const result = await driver.preflight?.();
    if (!result || result.ok) continue;
    if (result.fatal) throw new ConfigError(`${result.message} (checked before starting the run; nothing was run)`);
    logger.warn(`${model}: could not confirm the model before the run (${result.message}); starting anyway`);
  }
}

function loadDefinitionTasks(definition: RunDefinition, logger: Logger): { taskSet: TaskSet; tasksFile: string; gtFile: string | undefined } {
  const [firstTasksFile = defaultTasksFile, ...extraTaskFiles] = definition.tasks;
  const tasksFile = path.resolve(firstTasksFile);
  const gtFile = definition.gt
    ? path.resolve(definition.gt)
    : definition.tasks.length === 1 && firstTasksFile === defaultTasksFile && existsSync(fromRepo(defaultGtFile))
      ? fromRepo(defaultGtFile)
      : undefined;
  const taskSet = loadTaskSet({ tasksFile, extraTaskFiles, ...(gtFile ? { gtFile } : {}), fuzzy: definition.fuzzy });
  for (const warning of taskSet.warnings) logger.warn(warning);
  return { taskSet, tasksFile, gtFile };
}

function toBatchCell(report: RunModelReport, runDir: string): BatchCell {
  const relative = (file: string) => path.relative(runDir, file);
  return {
    model: report.model,
    modelLabel: modelLabel(report.model),
    condition: report.condition,
    label: report.label,
    runId: report.runId,
    trials: report.trials.map((trial) => ({
      trial: trial.trial,
      seed: trial.seed ?? null,
      label: trial.label,
      predictions: relative(trial.output),
      manifest: relative(trial.manifestFile),
    })),
  };
}

/** Task image folders: --image-dir (or M3_IMAGE_DIR), the task files' folders, the repository. */
function imageDirsOf(definition: RunDefinition, config: ProjectConfig, taskSet: TaskSet): string[] {
  const taskDirs = [...new Set(taskSet.taskFiles.map((file) => path.dirname(file)))];
  return [definition.imageDir ?? config.switches.M3_IMAGE_DIR, ...taskDirs, repoRoot].map((dir) => path.resolve(dir));
}

/** What the run's models would send and cost (src/runner/estimate-run.ts), given the tools they are offered. */
function estimateFor(
  definition: RunDefinition,
  config: ProjectConfig,
  taskSet: TaskSet,
  shard: { index: number; count: number } | undefined,
  tools: { tools: readonly CatalogTool[]; file: string | null },
): Promise<RunEstimate> {
  return estimateModels({
    models: splitList(definition.model),
    tasks: selectShard(taskSet.tasks, shard),
    taskSet,
    tools: tools.tools,
    toolCatalog: tools.file,
    switches: config.switches,
    env: config.env,
    limits: loopLimitsOf(definition),
    imageDirs: imageDirsOf(definition, config, taskSet),
    trials: definition.trials,
  });
}

/** `m3 run --estimate`: the estimate of the definition's run; no model request, no server start, nothing written. */
export async function estimateRun(definition: RunDefinition, context: Pick<ExecuteRunContext, 'logger'>): Promise<RunEstimate> {
  const config = loadProjectConfig({ serversFile: path.resolve(definition.config ?? RUN_DEFAULTS.config) });
  const { taskSet } = loadDefinitionTasks(definition, context.logger);
  const shard = resolveShardOption(definition.shard, config.env, definition.runId ?? (config.switches.M3_RUN_ID || undefined));
  return estimateFor(definition, config, taskSet, shard, latestToolCatalog(definition.resultsDir));
}

/** The servers may read and write the run folder (task workspaces live there), besides media/ and M3_ALLOWED_ROOTS. */
function withRunFolderAllowed(options: Pick<HostOptions, 'callTimeoutMs' | 'sharedEnv'>, runDir: string): Pick<HostOptions, 'callTimeoutMs' | 'sharedEnv'> {
  const roots = [options.sharedEnv?.M3_ALLOWED_ROOTS, runDir].filter((root): root is string => Boolean(root));
  return { ...options, sharedEnv: { ...options.sharedEnv, M3_ALLOWED_ROOTS: roots.join(path.delimiter) } };
}

function splitList(entries: readonly string[]): string[] {
  return entries
    .flatMap((entry) => entry.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** `--cache [policy]`: the model-response cache, shared by the runs of one results folder by default. */
function responseCacheSettings(definition: RunDefinition): ResponseCacheSettings | undefined {
  const policy = parseCachePolicy(definition.cache);
  if (!policy) {
    if (definition.cacheFile !== undefined || definition.cacheMaxAge !== undefined) throw new ConfigError('--cache-file and --cache-max-age need --cache');
    return undefined;
  }
  const file = path.resolve(definition.cacheFile ?? path.join(definition.resultsDir, 'model-cache.sqlite'));
  return { policy, file, ...(definition.cacheMaxAge !== undefined ? { maxAgeSeconds: definition.cacheMaxAge } : {}) };
}

/** `--batch`: the vendor batch API with this window and first poll delay; --batch-window/--batch-poll need it. */
function providerBatchSettings(definition: RunDefinition): BatchSettings | undefined {
  if (!definition.batch) {
    if (definition.batchWindow !== undefined || definition.batchPoll !== undefined) throw new ConfigError('--batch-window and --batch-poll need --batch');
    return undefined;
  }
  return {
    ...defaultBatchSettings,
    ...(definition.batchWindow !== undefined ? { windowMs: definition.batchWindow } : {}),
    ...(definition.batchPoll !== undefined ? { pollMs: definition.batchPoll } : {}),
  };
}

/**
 * `--cost-limit` and `--max-cost` count USD at the price table: a model without a price could
 * spend without limit, so it is refused before anything starts.
 */
function refuseUnpricedLimits(definition: RunDefinition, models: readonly string[], env: DriverContext['env']): void {
  const flags = [definition.costLimit !== undefined ? '--cost-limit' : '', definition.maxCost !== undefined ? '--max-cost' : ''].filter(Boolean);
  if (flags.length === 0) return;
  const table = loadPriceTable(env);
  const unpriced = models.filter((model) => !findPrice(model, table));
  if (unpriced.length > 0)
    throw new ConfigError(
      `${flags.join(' and ')} count USD at the price table, which has no price for ${unpriced.join(', ')} (add one with M3_PRICE_TABLE, or use --token-limit)`,
    );
}

interface CellInputs {
  runBudget: RunBudget | undefined;
  cache: ResponseCacheSettings | undefined;
  batch: BatchSettings | undefined;
  taskSet: TaskSet;
  shard: { index: number; count: number } | undefined;
  imageDirs: string[];
  signal: AbortSignal;
}

/** What runModel runs for one planned cell. */
function cellRequest(definition: RunDefinition, plan: RunPlan, cell: PlannedCell, inputs: CellInputs): RunModelRequest {
  const { taskSet, shard, imageDirs, signal, cache, batch, runBudget } = inputs;
  return {
    ...(cache ? { cache } : {}),
    ...(batch ? { batch } : {}),
    ...(runBudget ? { runBudget } : {}),
    model: cell.model,
    taskSet,
    ...(cell.labelSuffix ? { labelSuffix: cell.labelSuffix } : {}),
    concurrency: Math.max(1, definition.concurrency),
    runId: cell.runId,
    resume: Boolean(definition.resume),
    overwrite: Boolean(definition.overwrite),
    ...(definition.output ? { output: definition.output } : {}),
    resultsDir: plan.runDir,
    workspaceRoot: plan.runDir,
    ...(shard ? { shard } : {}),
    imageDirs,
    allowMissingServers: Boolean(definition.allowMissingServers),
    placeholderImages: Boolean(definition.placeholderImages),
    signal,
    trials: definition.trials,
    condition: cell.condition,
    batchId: plan.batchId,
    allowToolDrift: Boolean(definition.allowToolDrift),
    limits: loopLimitsOf(definition, cell.maxStep),
    ...(definition.traceFile ? { traceFile: true } : {}),
    ...(definition.verbose ? { onEvent: createVerboseView() } : {}),
  };
}

/** A full disk stops the run (src/runner/run-batch.ts); the message says how to continue it. */
function diskFullWithResume(error: unknown, runId: string): unknown {
  if (!isDiskFull(error) || !(error instanceof Error)) return error;
  return new StoreError(
    `${error.message}: run the same command with --resume ${runId} (the run stopped; tasks not reported ok were not recorded and run again)`,
    { cause: error },
  );
}

export async function executeRun(definition: RunDefinition, context: ExecuteRunContext): Promise<ExecuteRunResult> {
  const { logger } = context;
  const loaded = loadProjectConfig({ serversFile: path.resolve(definition.config ?? RUN_DEFAULTS.config) });
  const config = { ...loaded, servers: selectServers(loaded.servers, definition.servers) };
  const models = splitList(definition.model);
  if (definition.defaultModel)
    logger.info(
      'no --model given: running the oracle replay:gt, which replays the ground truth (a self-check of the harness, not a model); pass --model provider:model to benchmark a model',
    );
  const { taskSet, tasksFile, gtFile } = loadDefinitionTasks(definition, logger);
  const resolvedShard = resolveShardOption(definition.shard, config.env, definition.runId ?? (config.switches.M3_RUN_ID || undefined));
  if (resolvedShard) logger.info(`shard ${resolvedShard.index}/${resolvedShard.count} (from ${resolvedShard.source})`);
  const shard = resolvedShard ? { index: resolvedShard.index, count: resolvedShard.count } : undefined;
  context.requireTasks(taskSet, shard);
  const conditions = splitList(definition.condition ?? [baselineCondition]).map((entry) => parseCondition(entry));
  const maxSteps = parseMaxSteps(definition.maxStep);
  if (definition.output && models.length * conditions.length * maxSteps.length > 1)
    throw new ConfigError('--output names one file: use it with a single --model, one --max-step and at most one --condition');
  const plan = planRun(definition, { models, conditions, maxSteps }, config.switches.M3_RUN_ID);
  refuseBeforeStart(definition, plan, shard);
  refuseUnpricedLimits(definition, models, config.env);
  const runBudget = definition.maxCost !== undefined ? new RunBudget(definition.maxCost) : undefined;
  const cache = responseCacheSettings(definition);
  const batch = providerBatchSettings(definition);
  if (batch) for (const model of models) checkBatchModel(model);
  // A cached run may need no request at all (a reproduction from a shared cache): no preflight then.
  if (!cache || cache.policy === 'refresh')
    await checkModels(models, { env: config.env, groundTruth: taskSet.groundTruth, timeoutMs: config.switches.M3_LLM_TIMEOUT * 1000 }, logger);
  mkdirSync(plan.runDir, { recursive: true });
  logger.info(`run folder: ${path.relative(process.cwd(), plan.runDir) || '.'}`);
  const imageDirs = imageDirsOf(definition, config, taskSet);
  const startedAt = new Date().toISOString();
  const host = await McpHost.start(config.servers, {
    ...withRunFolderAllowed(context.hostOptions(config), plan.runDir),
    startupTimeoutMs: secondsToTimerMs(definition.startupTimeout),
    logDir: path.join(plan.runDir, 'logs', 'servers'),
    toolSurface: parseToolSurface(definition.toolSurface, repoRoot),
  });
  // The live tool surface, for call-level evaluation and the tools-per-server chart.
  writeToolCatalogs(plan.runDir, host, labelSourcesFor(plan.runDir, definition.resultsDir));
  // What `m3 run --estimate` would have said, with the live tools: m3 summary prints it beside the
  // actual figures. Only a calibration aid: an image it cannot read leaves the run without one.
  const estimate = await estimateFor(definition, config, taskSet, shard, { tools: host.tools, file: 'the tools of the servers this run started' }).catch(
    (error: unknown) => {
      logger.warn(`no cost estimate stored for this run: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    },
  );
  // The batch is this store's only writer of its rows: one commit per event-loop turn, not per row.
  const store = openStore(plan.storeFile, { groupCommit: true });
  const reports: RunModelReport[] = [];
  try {
    for (const cell of plan.cells) {
      if (context.signal.aborted) break;
      logger.info(
        `run ${cell.runId}: ${cell.model}${cell.condition.parts.length > 0 ? ` under ${cell.condition.name}` : ''}${maxSteps.length > 1 ? ` at max steps ${cell.maxStep}` : ''} over ${taskSet.tasks.length} task(s)${definition.trials > 1 ? ` x ${definition.trials} trials` : ''} from ${path.relative(process.cwd(), tasksFile)}`,
      );
      reports.push(
        await runModel(cellRequest(definition, plan, cell, { cache, batch, runBudget, taskSet, shard, imageDirs, signal: context.signal }), {
          config,
          host,
          store,
          logger,
          root: repoRoot,
          ...(context.observeEpisodes ? { observeEpisodes: context.observeEpisodes } : {}),
        }),
      );
    }
    writeBatchManifest(batchManifestFile(plan.runDir, plan.batchId), {
      kind: 'm3bench-batch',
      version: 1,
      batchId: plan.batchId,
      startedAt,
      finishedAt: new Date().toISOString(),
      tasksFile,
      gtFile: gtFile ?? null,
      trials: definition.trials,
      conditions: conditions.map((condition) => condition.name),
      seed: definition.seed ?? null,
      store: path.relative(plan.runDir, plan.storeFile),
      cells: reports.map((report) => toBatchCell(report, plan.runDir)),
      ...(estimate ? { estimate: { models: estimate.models, judges: estimate.judges, assumptions: estimate.assumptions } } : {}),
      ...(runBudget
        ? {
            maxCost: maxCostRecord(
              runBudget,
              reports.reduce((sum, report) => sum + report.result.notStarted.length, 0),
            ),
          }
        : {}),
    });
  } catch (error) {
    throw diskFullWithResume(error, plan.batchId);
  } finally {
    store.close();
    await host.close();
  }
  // `latest` names the last finished run under the results folder (a --run-dir run chose its own place).
  if (!definition.runDir && !context.signal.aborted && reports.every((report) => !report.stopped)) writeLatestPointer(definition.resultsDir, plan.runDir);
  return { reports, plan, fallbackOn: Boolean(config.switches.M3_MOCK_FALLBACK), ...(runBudget ? { maxCost: runBudget } : {}) };
}
