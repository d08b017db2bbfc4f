// `m3 run`: produce predictions for one or more models over a task set.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { AGENT_KINDS } from '../../agent/agent-kind.js';
import { loopLimitsOf, RUN_DEFAULTS, type RunDefinition } from '../run-definition.js';
import type { ServerSpec } from '../../config/servers.js';
import { loadProjectConfig } from '../../config/index.js';
import { fromRepo, repoRoot } from '../../config/paths.js';
import { ConfigError, StoreError } from '../../errors/index.js';
import { createDriver, modelLabel } from '../../llm/registry.js';
import type { DriverContext } from '../../llm/types.js';
import { log } from '../../log/logger.js';
import { McpHost } from '../../mcp/index.js';
import { parseToolSurface } from '../../mcp/tool-surface.js';
import { assertRunNotHeld } from '../../runner/run-lease.js';
import { runModel, type RunModelReport } from '../../runner/run-model.js';
import { parseCachePolicy, type ResponseCacheSettings } from '../../runner/response-cache.js';
import { writeToolCatalogs } from '../../runner/tool-catalog.js';
import { loadTaskSet } from '../../runner/task-set.js';
import { resolveShardOption } from '../../runner/shard-option.js';
import { fallbackShare, isDiskFull, listRuns, openStore, type FallbackShare } from '../../store/index.js';
import { hostOptionsFrom } from '../host-options.js';
import { nonNegativeInteger, positiveInteger, seconds } from '../option-parsers.js';
import { batchManifestFile, writeBatchManifest, type BatchCell } from '../../runner/batch-manifest.js';
import { baselineCondition, cellLabel, knownConditions, parseCondition, parseMaxSteps } from '../../runner/conditions.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';
import { createVerboseView } from '../../log/verbose-view.js';
import { printSummary, reportOutcome, requireTasks } from '../run-outcome.js';
import { createStopSignal } from '../stop-signal.js';
import { nonNegativeNumber } from '../option-parsers.js';

const defaultTasksFile = RUN_DEFAULTS.tasks[0] as string;
const defaultGtFile = 'json/m3_local_GT.json';

type RunFlags = Omit<RunDefinition, 'defaultModel'>;

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** `<base>.<cell label>`; a --resume without a run id continues the latest run of that cell. */
function resolveRunId(base: string | undefined, label: string, storeFile: string): string {
  if (base) return `${base}.${label}`;
  const store = openStore(storeFile);
  try {
    const latest = listRuns(store, { modelLabel: label, limit: 1 })[0];
    if (!latest) throw new ConfigError(`--resume: no earlier run of ${label} in ${storeFile}; pass --run-id`);
    return latest.runId;
  } finally {
    store.close();
  }
}

/** A full disk stops the run (src/runner/run-batch.ts); the message says how to continue it. */
function diskFullWithResume(error: unknown, base: string | undefined): unknown {
  if (!isDiskFull(error) || !(error instanceof Error)) return error;
  const again = base ? `--resume --run-id ${base}` : '--resume';
  return new StoreError(`${error.message}: run the same command with ${again} (the run stopped; tasks not reported ok were not recorded and run again)`, {
    cause: error,
  });
}

/** The batch id: --run-id / M3_RUN_ID, else (a fresh run) a timestamp; a resume without either finds it per cell. */
function batchBase(flags: RunFlags, envRunId: string): string | undefined {
  return flags.runId ?? (envRunId || undefined) ?? (flags.resume ? undefined : timestamp());
}

function toBatchCell(report: RunModelReport, resultsDir: string): BatchCell {
  const relative = (file: string) => path.relative(resultsDir, file);
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

/** A --resume of a run another live process writes is refused before any server starts. */
function refuseHeldRuns(storeFile: string, runIds: readonly string[]): void {
  if (!existsSync(storeFile)) return;
  const store = openStore(storeFile);
  try {
    for (const runId of runIds) assertRunNotHeld(store, runId);
  } finally {
    store.close();
  }
}

/**
 * Every model's driver is created (an unknown provider or a missing key fails here, naming the
 * variable) and asked for its model, before any server starts: a rejected key or a model the
 * endpoint does not have stops the run now instead of failing every task.
 */
async function checkModels(models: readonly string[], context: DriverContext): Promise<void> {
  for (const model of models) {
    const driver = await createDriver(model, context);
    const result = await driver.preflight?.();
    if (!result || result.ok) continue;
    if (result.fatal) throw new ConfigError(`${result.message} (checked before starting the run; nothing was run)`);
    log.warn(`${model}: could not confirm the model before the run (${result.message}); starting anyway`);
  }
}

/** The run options, shared by `m3 run` and the equivalence test of `m3 bench`. */
export function addRunOptions(command: Command): Command {
  return command
    .description('run models over a task set and write predictions (results/<model>_test_mcp_fuzzy.json) and the run store')
    .option(
      '--model <spec...>',
      'provider:model, repeatable (replay:gt, replay:noisy, openai:gpt-4o, anthropic:..., gemini:..., ollama:...)',
      RUN_DEFAULTS.model,
    )
    .addOption(
      new Option('--agent <kind>', 'agent kind: function-call (native tool calling), react (text actions, no tools field; any model), basic (no tools)')
        .choices(AGENT_KINDS)
        .default(RUN_DEFAULTS.agent),
    )
    .option('--instruction <text>', 'extra system instruction for the agent')
    .option('--servers <name...>', 'start only these configured servers (default: every enabled server)')
    .option(
      '--tasks <file...>',
      'task files run together: M3-Bench task files (fuzzy tasks, or combined with ground truth) and MCP-Universe task files ({category, question, mcp_servers, output_format, evaluators})',
      RUN_DEFAULTS.tasks,
    )
    .option('--gt <file>', 'ground-truth file (needed by replay models and the server check)')
    .option('--image-dir <dir>', 'root for task image paths (default: M3_IMAGE_DIR, then the task file folder, then the repo)')
    .option('--concurrency <n>', 'tasks run in parallel', nonNegativeInteger, RUN_DEFAULTS.concurrency)
    .option(
      '--max-step <n[,n...]>',
      'maximum rounds of tool calls per task; a list (2,4,6) runs every model once per value (a max-rounds sweep)',
      RUN_DEFAULTS.maxStep,
    )
    .option('--max-concurrent <n>', 'maximum parallel tool calls per round', nonNegativeInteger, RUN_DEFAULTS.maxConcurrent)
    .option('--top-tools <n>', 'offer only the N best-ranked tools (0 = all)', nonNegativeInteger, RUN_DEFAULTS.topTools)
    .option('--max-new-tokens <n>', 'generation cap per model request', nonNegativeInteger, RUN_DEFAULTS.maxNewTokens)
    .option('--temperature <t>', 'sampling temperature, a number >= 0 (default: provider default)', nonNegativeNumber)
    .option('--seed <n>', 'sampling seed where the provider supports it', nonNegativeInteger)
    .option('--resume', 'continue a run: skip tasks already finished (same run id)')
    .option('--overwrite', 'start again even if the prediction file exists')
    .option('--run-id <id>', 'run id (default M3_RUN_ID or a timestamp); the model label is appended')
    .option('--output <file>', 'prediction file (single model only)')
    .option('--results-dir <dir>', 'where prediction files go', RUN_DEFAULTS.resultsDir)
    .option(
      '--shard <k/n|auto[/n]>',
      'run only the k-th of n deterministic slices of the tasks; auto reads k (and n) from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or M3_SHARD_INDEX/M3_SHARD_COUNT (docs/running.md)',
    )
    .option('--store <file>', 'SQLite run store (default: <results-dir>/m3bench.sqlite)')
    .option('--config <file>', 'MCP server configuration', RUN_DEFAULTS.config)
    .option('--startup-timeout <s>', 'seconds each MCP server may take to start (OCR loads large models)', seconds, RUN_DEFAULTS.startupTimeout)
    .option('--no-fuzzy', 'ask the explicit prompt instead of the fuzzy question')
    .option('--allow-missing-servers', 'run tasks whose ground truth needs servers that are not running')
    .option(
      '--placeholder-images',
      'pipeline check: a missing task image is replaced by a labelled stand-in (PLACEHOLDER — <file name>), recorded in the manifest, predictions, summary and report; scores of those tasks say nothing about a model',
    )
    .option(
      '--trials <k>',
      'run every task k times, each trial in fresh workspaces with its own seed (--seed + trial - 1)',
      positiveInteger,
      RUN_DEFAULTS.trials,
    )
    .option(
      '--condition <name...>',
      `run each model under these named conditions, one cell each (repeatable or comma-separated; a+b combines; none = baseline; known: ${knownConditions()
        .map((condition) => condition.name)
        .join(', ')})`,
    )
    .option(
      '--tool-surface <surface>',
      "tools offered: m3bench (the default: every tool of our servers), reference (exactly the reference catalog's tools, descriptions and schemas, from json/tools_catalog.json or ../shared/data/m3bench/tools_catalog.json) or reference:<catalog file>",
    )
    .option('--allow-tool-drift', 'continue a --resume whose servers list different tools than the run recorded (the drift is written into the manifest)')
    .option(
      '--cache [policy]',
      'model-response cache, exact request match: use (serve hits, record misses; the default), read (serve hits only), refresh (ask the provider, record over old entries)',
    )
    .option('--cache-file <file>', 'model-response cache file (default: <results-dir>/model-cache.sqlite)')
    .option('--cache-max-age <s>', 'with --cache: entries recorded more than this many seconds ago are not served', positiveInteger)
    .option('--json', 'print the summary as JSON')
    .option('--trace-file', 'also write every episode event with its timestamp to <results-dir>/<label>.trace.jsonl (one file per run and trial)')
    .option('--verbose', 'show every intermediate step (model replies, tool calls and results, final answers) on stderr, secrets masked')
    .addHelpText(
      'after',
      '\nWithout --model this runs the oracle replay:gt (replays the ground truth).\n' +
        'Ctrl-C (or SIGTERM) stops gracefully: tasks in flight are recorded as interrupted, the store and the\n' +
        'prediction file are flushed, and the message says how to resume; a second Ctrl-C exits at once.\n' +
        'Only one process may write a run: a concurrent --resume of the same run id is refused.\n' +
        'With --trials k > 1 each trial has its own files: <label>.trial-<t>_test_mcp_fuzzy.json (+ .manifest.json);\n' +
        'a condition adds +<condition> to the label (gpt-4o+images-off). <results>/<batch>.batch.json ties the cells together.\n' +
        'Exit status: 0 done; 2 bad input or configuration; 3 every task failed for infrastructure reasons\n' +
        '(nothing scored); 130 stopped by a signal (resume with --resume --run-id <id>).',
    );
}

function responseCacheSettings(flags: RunDefinition, resultsDir: string): ResponseCacheSettings | undefined {
  const policy = parseCachePolicy(flags.cache);
  if (!policy) {
    if (flags.cacheFile !== undefined || flags.cacheMaxAge !== undefined) throw new ConfigError('--cache-file and --cache-max-age need --cache');
    return undefined;
  }
  const file = path.resolve(flags.cacheFile ?? path.join(resultsDir, 'model-cache.sqlite'));
  return { policy, file, ...(flags.cacheMaxAge !== undefined ? { maxAgeSeconds: flags.cacheMaxAge } : {}) };
}

function selectServers(servers: ServerSpec[], names: readonly string[] | undefined): ServerSpec[] {
  if (!names || names.length === 0) return servers;
  const unknown = names.filter((name) => !servers.some((server) => server.name === name));
  if (unknown.length > 0)
    throw new ConfigError(`servers ${unknown.join(', ')} are not configured (configured: ${servers.map((server) => server.name).join(', ')})`);
  return servers.filter((server) => names.includes(server.name));
}

/** Runs one definition: the single code path of `m3 run` and `m3 bench`. */
export async function executeRun(flags: RunDefinition): Promise<void> {
  const loaded = loadProjectConfig({ serversFile: path.resolve(flags.config ?? RUN_DEFAULTS.config) });
  const config = { ...loaded, servers: selectServers(loaded.servers, flags.servers) };
  const models = flags.model
    .flatMap((entry) => entry.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (flags.defaultModel) {
    log.info(
      'no --model given: running the oracle replay:gt, which replays the ground truth (a self-check of the harness, not a model); pass --model provider:model to benchmark a model',
    );
  }
  const [firstTasksFile = defaultTasksFile, ...extraTaskFiles] = flags.tasks;
  const tasksFile = path.resolve(firstTasksFile);
  const gtFile = flags.gt
    ? path.resolve(flags.gt)
    : flags.tasks.length === 1 && firstTasksFile === defaultTasksFile && existsSync(fromRepo(defaultGtFile))
      ? fromRepo(defaultGtFile)
      : undefined;
  const taskSet = loadTaskSet({ tasksFile, extraTaskFiles, ...(gtFile ? { gtFile } : {}), fuzzy: flags.fuzzy });
  for (const warning of taskSet.warnings) log.warn(warning);
  const resolvedShard = resolveShardOption(flags.shard, config.env, flags.runId ?? (config.switches.M3_RUN_ID || undefined));
  if (resolvedShard) log.info(`shard ${resolvedShard.index}/${resolvedShard.count} (from ${resolvedShard.source})`);
  const shard = resolvedShard ? { index: resolvedShard.index, count: resolvedShard.count } : undefined;
  requireTasks(taskSet, shard);
  const taskDirs = [...new Set(taskSet.taskFiles.map((file) => path.dirname(file)))];
  const imageDirs = [flags.imageDir ?? config.switches.M3_IMAGE_DIR, ...taskDirs, repoRoot].map((dir) => path.resolve(dir));
  const resultsDir = path.resolve(flags.resultsDir);
  const storeFile = path.resolve(flags.store ?? path.join(resultsDir, 'm3bench.sqlite'));
  const conditions = (flags.condition ?? [baselineCondition]).flatMap((entry) => entry.split(',')).map((entry) => parseCondition(entry));
  const maxSteps = parseMaxSteps(flags.maxStep);
  if (flags.output && models.length * conditions.length * maxSteps.length > 1)
    throw new ConfigError('--output names one file: use it with a single --model, one --max-step and at most one --condition');
  const base = batchBase(flags, config.switches.M3_RUN_ID);
  const cache = responseCacheSettings(flags, resultsDir);
  // One cell per model x condition x K; a swept K adds `.k<K>` to the label (MCP-RADAR's accuracy-vs-K sweep).
  const plan = models.flatMap((model) =>
    conditions.flatMap((condition) =>
      maxSteps.map((maxStep) => {
        const labelSuffix = maxSteps.length > 1 ? `.k${maxStep}` : '';
        return {
          model,
          condition,
          maxStep,
          labelSuffix,
          runId: resolveRunId(base, `${cellLabel(modelLabel(model), condition)}${labelSuffix}`, storeFile),
        };
      }),
    ),
  );
  const batchId = base ?? plan[0]?.runId ?? timestamp();
  const startedAt = new Date().toISOString();
  if (flags.resume)
    refuseHeldRuns(
      storeFile,
      plan.map((entry) => entry.runId),
    );
  // A cached run may need no request at all (a reproduction from a shared cache): no preflight then.
  if (!cache || cache.policy === 'refresh')
    await checkModels(models, { env: config.env, groundTruth: taskSet.groundTruth, timeoutMs: config.switches.M3_LLM_TIMEOUT * 1000 });
  const host = await McpHost.start(config.servers, {
    ...hostOptionsFrom(config),
    startupTimeoutMs: secondsToTimerMs(flags.startupTimeout),
    logDir: path.join(resultsDir, 'logs', `servers-${timestamp()}`),
    toolSurface: parseToolSurface(flags.toolSurface, repoRoot),
  });
  // The live tool surface, for call-level evaluation and the tools-per-server chart.
  writeToolCatalogs(resultsDir, host);
  // The batch is this store's only writer of its rows: one commit per event-loop turn, not per row.
  const store = openStore(storeFile, { groupCommit: true });
  const reports: RunModelReport[] = [];
  let shares: Map<string, FallbackShare | undefined> | undefined;
  const stop = createStopSignal((name) =>
    log.warn(`${name}: stopping; tasks in flight are abandoned and recorded as interrupted (press Ctrl-C again to exit at once)`),
  );
  try {
    for (const { model, condition, maxStep, labelSuffix, runId } of plan) {
      if (stop.signal.aborted) break;
      log.info(
        `run ${runId}: ${model}${condition.parts.length > 0 ? ` under ${condition.name}` : ''}${maxSteps.length > 1 ? ` at max steps ${maxStep}` : ''} over ${taskSet.tasks.length} task(s)${flags.trials > 1 ? ` x ${flags.trials} trials` : ''} from ${path.relative(process.cwd(), tasksFile)}`,
      );
      reports.push(
        await runModel(
          {
            model,
            taskSet,
            ...(labelSuffix ? { labelSuffix } : {}),
            concurrency: Math.max(1, flags.concurrency),
            runId,
            resume: Boolean(flags.resume),
            overwrite: Boolean(flags.overwrite),
            ...(flags.output ? { output: flags.output } : {}),
            resultsDir,
            ...(shard ? { shard } : {}),
            imageDirs,
            allowMissingServers: Boolean(flags.allowMissingServers),
            placeholderImages: Boolean(flags.placeholderImages),
            signal: stop.signal,
            trials: flags.trials,
            condition,
            batchId,
            allowToolDrift: Boolean(flags.allowToolDrift),
            limits: loopLimitsOf(flags, maxStep),
            ...(flags.traceFile ? { traceFile: true } : {}),
            ...(cache ? { cache } : {}),
            ...(flags.verbose ? { onEvent: createVerboseView() } : {}),
          },
          { config, host, store, logger: log, root: repoRoot },
        ),
      );
    }
    // Per model, the share of scored calls and tasks that received mocked returns.
    if (config.switches.M3_MOCK_FALLBACK) shares = new Map(reports.map((report) => [report.runId, fallbackShare(store, report.runId)[0]]));
    writeBatchManifest(batchManifestFile(resultsDir, batchId), {
      kind: 'm3bench-batch',
      version: 1,
      batchId,
      startedAt,
      finishedAt: new Date().toISOString(),
      tasksFile,
      gtFile: gtFile ?? null,
      trials: flags.trials,
      conditions: conditions.map((condition) => condition.name),
      seed: flags.seed ?? null,
      store: path.relative(resultsDir, storeFile),
      cells: reports.map((report) => toBatchCell(report, resultsDir)),
    });
  } catch (error) {
    throw diskFullWithResume(error, base);
  } finally {
    store.close();
    // Still listening while the servers close, so a second Ctrl-C exits at once.
    await host.close();
    stop.dispose();
  }
  printSummary(reports, flags.json, shares);
  process.exitCode = reportOutcome(reports, plan.length, log);
}

export function registerRunCommand(program: Command): void {
  addRunOptions(program.command('run')).action(async (flags: RunFlags, command: Command) => {
    await executeRun({ ...flags, defaultModel: command.getOptionValueSource('model') === 'default' });
  });
}
