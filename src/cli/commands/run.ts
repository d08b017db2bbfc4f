// `m3 run`: produce predictions for one or more models over a task set.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { AGENT_KINDS } from '../../agent/agent-kind.js';
import { loopLimitsOf, RUN_DEFAULTS, type RunDefinition } from '../run-definition.js';
import { loadProjectConfig } from '../../config/index.js';
import { fromRepo, repoRoot } from '../../config/paths.js';
import type { ServerSpec } from '../../config/servers.js';
import { ConfigError } from '../../errors/index.js';
import { createDriver, modelLabel } from '../../llm/registry.js';
import type { DriverContext } from '../../llm/types.js';
import { log } from '../../log/logger.js';
import { McpHost } from '../../mcp/index.js';
import { assertRunNotHeld } from '../../runner/run-lease.js';
import { runModel, type RunModelReport } from '../../runner/run-model.js';
import { writeToolCatalogs } from '../../runner/tool-catalog.js';
import { loadTaskSet, parseShard } from '../../runner/task-set.js';
import { listRuns, openStore } from '../../store/index.js';
import { hostOptionsFrom } from '../host-options.js';
import { nonNegativeInteger, seconds } from '../option-parsers.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';
import { printSummary, reportOutcome, requireTasks } from '../run-outcome.js';
import { createStopSignal } from '../stop-signal.js';
import { nonNegativeNumber } from '../option-parsers.js';

export const defaultTasksFile = RUN_DEFAULTS.tasks;
export const defaultGtFile = 'json/m3_local_GT.json';


type RunFlags = Omit<RunDefinition, 'defaultModel'>;

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

function resolveRunId(flags: RunDefinition, envRunId: string, label: string, storeFile: string): string {
  const base = flags.runId ?? (envRunId || undefined);
  if (base) return `${base}.${label}`;
  if (flags.resume) {
    const store = openStore(storeFile);
    try {
      const latest = listRuns(store, { modelLabel: label, limit: 1 })[0];
      if (!latest) throw new ConfigError(`--resume: no earlier run of ${label} in ${storeFile}; pass --run-id`);
      return latest.runId;
    } finally {
      store.close();
    }
  }
  return `${timestamp()}.${label}`;
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
    .option('--model <spec...>', 'provider:model, repeatable (replay:gt, replay:noisy, openai:gpt-4o, anthropic:..., gemini:..., ollama:...)', RUN_DEFAULTS.model)
    .addOption(new Option('--agent <kind>', 'agent kind: function-call (native tool calling), react (text actions, no tools field; any model), basic (no tools)').choices(AGENT_KINDS).default(RUN_DEFAULTS.agent))
    .option('--instruction <text>', 'extra system instruction for the agent')
    .option('--servers <name...>', 'start only these configured servers (default: every enabled server)')
    .option('--tasks <file>', 'task file (fuzzy tasks, or a combined file with ground truth)', defaultTasksFile)
    .option('--gt <file>', 'ground-truth file (needed by replay models and the server check)')
    .option('--image-dir <dir>', 'root for task image paths (default: M3_IMAGE_DIR, then the task file folder, then the repo)')
    .option('--concurrency <n>', 'tasks run in parallel', nonNegativeInteger, RUN_DEFAULTS.concurrency)
    .option('--max-step <n>', 'maximum rounds of tool calls per task', nonNegativeInteger, RUN_DEFAULTS.maxStep)
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
    .option('--shard <k/n>', 'run only the k-th of n deterministic slices of the tasks')
    .option('--store <file>', 'SQLite run store (default: <results-dir>/m3bench.sqlite)')
    .option('--config <file>', 'MCP server configuration', RUN_DEFAULTS.config)
    .option('--startup-timeout <s>', 'seconds each MCP server may take to start (OCR loads large models)', seconds, RUN_DEFAULTS.startupTimeout)
    .option('--no-fuzzy', 'ask the explicit prompt instead of the fuzzy question')
    .option('--allow-missing-servers', 'run tasks whose ground truth needs servers that are not running')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      '\nWithout --model this runs the oracle replay:gt (replays the ground truth).\n' +
        'Ctrl-C (or SIGTERM) stops gracefully: tasks in flight are recorded as interrupted, the store and the\n' +
        'prediction file are flushed, and the message says how to resume; a second Ctrl-C exits at once.\n' +
        'Only one process may write a run: a concurrent --resume of the same run id is refused.\n' +
        'Exit status: 0 done; 2 bad input or configuration; 3 every task failed for infrastructure reasons\n' +
        '(nothing scored); 130 stopped by a signal (resume with --resume --run-id <id>).',
    );
}

function selectServers(servers: ServerSpec[], names: readonly string[] | undefined): ServerSpec[] {
  if (!names || names.length === 0) return servers;
  const unknown = names.filter((name) => !servers.some((server) => server.name === name));
  if (unknown.length > 0) throw new ConfigError(`servers ${unknown.join(', ')} are not configured (configured: ${servers.map((server) => server.name).join(', ')})`);
  return servers.filter((server) => names.includes(server.name));
}

/** Runs one definition: the single code path of `m3 run` and `m3 bench`. */
export async function executeRun(flags: RunDefinition): Promise<void> {
  const loaded = loadProjectConfig({ serversFile: path.resolve(flags.config ?? RUN_DEFAULTS.config) });
  const config = { ...loaded, servers: selectServers(loaded.servers, flags.servers) };
  const models = flags.model.flatMap((entry) => entry.split(',')).map((entry) => entry.trim()).filter(Boolean);
  if (flags.defaultModel) {
    log.info('no --model given: running the oracle replay:gt, which replays the ground truth (a self-check of the harness, not a model); pass --model provider:model to benchmark a model');
  }
  if (flags.output && models.length > 1) throw new ConfigError('--output names one file: use it with a single --model');
  const tasksFile = path.resolve(flags.tasks);
  const gtFile = flags.gt ? path.resolve(flags.gt) : flags.tasks === defaultTasksFile && existsSync(fromRepo(defaultGtFile)) ? fromRepo(defaultGtFile) : undefined;
  const taskSet = loadTaskSet({ tasksFile, ...(gtFile ? { gtFile } : {}), fuzzy: flags.fuzzy });
  for (const warning of taskSet.warnings) log.warn(warning);
  const shard = parseShard(flags.shard);
  requireTasks(taskSet, shard);
  const imageDirs = [flags.imageDir ?? config.switches.M3_IMAGE_DIR, path.dirname(tasksFile), repoRoot].map((dir) => path.resolve(dir));
  const resultsDir = path.resolve(flags.resultsDir);
  const storeFile = path.resolve(flags.store ?? path.join(resultsDir, 'm3bench.sqlite'));
  const plan = models.map((model) => ({ model, runId: resolveRunId(flags, config.switches.M3_RUN_ID, modelLabel(model), storeFile) }));
  if (flags.resume) refuseHeldRuns(storeFile, plan.map((entry) => entry.runId));
  await checkModels(models, { env: config.env, groundTruth: taskSet.groundTruth, timeoutMs: config.switches.M3_LLM_TIMEOUT * 1000 });
  const host = await McpHost.start(config.servers, {
    ...hostOptionsFrom(config),
    startupTimeoutMs: secondsToTimerMs(flags.startupTimeout),
    logDir: path.join(resultsDir, 'logs', `servers-${timestamp()}`),
  });
  // The live tool surface, for call-level evaluation and the tools-per-server chart.
  writeToolCatalogs(resultsDir, host);
  const store = openStore(storeFile);
  const reports: RunModelReport[] = [];
  const stop = createStopSignal((name) => log.warn(`${name}: stopping; tasks in flight are abandoned and recorded as interrupted (press Ctrl-C again to exit at once)`));
  try {
    for (const { model, runId } of plan) {
      if (stop.signal.aborted) break;
      log.info(`run ${runId}: ${model} over ${taskSet.tasks.length} task(s) from ${path.relative(process.cwd(), tasksFile)}`);
      reports.push(
        await runModel(
          {
            model, taskSet, concurrency: Math.max(1, flags.concurrency), runId, resume: Boolean(flags.resume), overwrite: Boolean(flags.overwrite),
            ...(flags.output ? { output: flags.output } : {}), resultsDir, ...(shard ? { shard } : {}), imageDirs,
            allowMissingServers: Boolean(flags.allowMissingServers), signal: stop.signal,
            limits: loopLimitsOf(flags),
          },
          { config, host, store, logger: log, root: repoRoot },
        ),
      );
    }
  } finally {
    store.close();
    // Still listening while the servers close, so a second Ctrl-C exits at once.
    await host.close();
    stop.dispose();
  }
  printSummary(reports, flags.json);
  process.exitCode = reportOutcome(reports, models.length, log);
}

export function registerRunCommand(program: Command): void {
  addRunOptions(program.command('run')).action(async (flags: RunFlags, command: Command) => {
    await executeRun({ ...flags, defaultModel: command.getOptionValueSource('model') === 'default' });
  });
}
