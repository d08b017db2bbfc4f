// `m3 run`: produce predictions for one or more models over a task set, into a run folder
// (results/runs/<run-id>/). The batch itself is src/runner/execute-run.ts.
import { Option, type Command } from 'commander';
import { AGENT_KINDS } from '../../agent/agent-kind.js';
import { log } from '../../log/logger.js';
import { knownConditions } from '../../runner/conditions.js';
import { liveTracesFor } from '../../export/live-traces.js';
import { robustnessConditionHelp } from '../../robustness/condition-spec.js';
import { estimateRun, executeRun } from '../../runner/execute-run.js';
import { formatEstimate } from '../../runner/estimate-run.js';
import { RUN_DEFAULTS, type RunDefinition } from '../../runner/run-definition.js';
import { hostOptionsFrom } from '../host-options.js';
import { nonNegativeInteger, nonNegativeNumber, positiveInteger, positiveNumber, seconds } from '../option-parsers.js';
import { printSummary, reportOutcome, requireTasks } from '../run-outcome.js';
import { createStopSignal } from '../stop-signal.js';

type RunFlags = Omit<RunDefinition, 'defaultModel'>;

/**
 * The run options, shared by `m3 run` and the equivalence test of `m3 bench`.
 * @internal Exported for its tests.
 */
export function addRunOptions(command: Command): Command {
  return command
    .description('run models over a task set and write predictions into a run folder (results/runs/<run-id>/<model>_test_mcp_fuzzy.json) and the run store')
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
    .option(
      '--resume [run-id]',
      'continue a run (its folder results/runs/<run-id>/): skip tasks already finished; without an id, the latest run of the first model',
    )
    .option('--overwrite', 'start the run again even if its prediction files exist (only with the same --run-id)')
    .option('--run-id <id>', 'run id and run folder name (default M3_RUN_ID or the start time); each cell appends its label')
    .option('--output <file>', 'prediction file (single model only)')
    .option('--results-dir <dir>', 'results root: the store, `latest` and runs/<run-id>/ (one folder per run)', RUN_DEFAULTS.resultsDir)
    .addOption(new Option('--results <dir>', 'alias of --results-dir').hideHelp())
    .option(
      '--run-dir <dir>',
      'write this run into exactly this folder instead of <results-dir>/runs/<run-id>/ (store default <run-dir>/m3bench.sqlite; `latest` is not moved)',
    )
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
        .join(', ')}; robustness conditions with a value: ${robustnessConditionHelp}, see docs/robustness.md)`,
    )
    .option(
      '--tool-surface <surface>',
      "tools offered: m3bench (every tool of our servers), reference (exactly the reference catalog's tools, descriptions and schemas, from json/tools_catalog.json or ../shared/data/m3bench/tools_catalog.json) or reference:<catalog file>",
      RUN_DEFAULTS.toolSurface,
    )
    .option('--allow-tool-drift', 'continue a --resume whose servers list different tools than the run recorded (the drift is written into the manifest)')
    .option(
      '--cache [policy]',
      'model-response cache, exact request match: use (serve hits, record misses; the default), read (serve hits only), refresh (ask the provider, record over old entries)',
    )
    .option('--cache-file <file>', 'model-response cache file (default: <results-dir>/model-cache.sqlite)')
    .option('--cache-max-age <s>', 'with --cache: entries recorded more than this many seconds ago are not served', positiveInteger)
    .option(
      '--batch',
      "send the model's requests through its vendor's batch API (OpenAI Batch, Anthropic Message Batches, Gemini batch mode: half price, answers within 24 h); requests the batch does not answer go the ordinary way (docs/batch.md)",
    )
    .option('--batch-window <ms>', 'with --batch: submit a job when no request has arrived for this long (default 2000)', positiveInteger)
    .option('--batch-poll <ms>', 'with --batch: first poll of a job after this long, doubled per poll up to 300000 (default 10000)', positiveInteger)
    .option(
      '--token-limit <n>',
      "per task: no further model request once the task's input + output tokens (cached and reasoning included) reach n; the task ends with end status limit_tokens",
      positiveInteger,
    )
    .option('--message-limit <n>', 'per task: at most n model replies (every stage); then the task ends with end status limit_messages', positiveInteger)
    .option(
      '--cost-limit <usd>',
      'per task: no further model request once what the task paid reaches this many USD (price table; replies served by --cache cost nothing); end status limit_cost',
      positiveNumber,
    )
    .option(
      '--max-cost <usd>',
      'per run: once every task together paid this many USD, no new task starts (tasks in flight finish); said on stdout and in the manifest',
      positiveNumber,
    )
    .option(
      '--estimate',
      'print what the run would send and cost per model (tasks, requests, image payload, tokens, USD) and the judges, then exit: no model request, no server start (--json: as JSON)',
    )
    .option('--json', 'print the summary as JSON')
    .option('--trace-file', 'also write every episode event with its timestamp to <run folder>/<label>.trace.jsonl (one file per run and trial)')
    .option('--verbose', 'show every intermediate step (model replies, tool calls and results, final answers) on stderr, secrets masked')
    .addHelpText(
      'after',
      '\nWithout --model this runs the oracle replay:gt (replays the ground truth).\n' +
        'Ctrl-C (or SIGTERM) stops gracefully: tasks in flight are recorded as interrupted, the store and the\n' +
        'prediction file are flushed, and the message says how to resume; a second Ctrl-C exits at once.\n' +
        'Only one process may write a run: a concurrent --resume of the same run id is refused.\n' +
        'Every run owns a folder, results/runs/<run-id>/ (predictions, manifests, evaluations, logs); results/latest\n' +
        'points at the last finished one. With --trials k > 1 each trial has its own files: <label>.trial-<t>_test_mcp_fuzzy.json\n' +
        '(+ .manifest.json); a condition adds +<condition> to the label (gpt-4o+images-off). <run-id>.batch.json ties the cells together.\n' +
        'Exit status: 0 done; 2 bad input or configuration; 3 every task failed for infrastructure reasons\n' +
        '(nothing scored); 130 stopped by a signal (resume with --resume <run-id>).',
    );
}

/** Runs one definition: the single code path of `m3 run` and `m3 bench`; prints the summary and sets the exit status. */
export async function runDefinition(definition: RunDefinition): Promise<void> {
  if (definition.estimate) {
    const estimate = await estimateRun(definition, { logger: log });
    process.stdout.write(definition.json ? `${JSON.stringify(estimate, null, 2)}\n` : formatEstimate(estimate));
    return;
  }
  const stop = createStopSignal((name) =>
    log.warn(`${name}: stopping; tasks in flight are abandoned and recorded as interrupted (press Ctrl-C again to exit at once)`),
  );
  try {
    const { reports, plan, fallbackOn, maxCost } = await executeRun(definition, {
      logger: log,
      signal: stop.signal,
      hostOptions: hostOptionsFrom,
      requireTasks,
      observeEpisodes: liveTracesFor,
    });
    printSummary(reports, definition.json, fallbackOn, maxCost);
    process.exitCode = reportOutcome(reports, plan.cells.length, log);
  } finally {
    // Still listening while the servers close (inside executeRun), so a second Ctrl-C exits at once.
    stop.dispose();
  }
}

export function registerRunCommand(program: Command): void {
  addRunOptions(program.command('run')).action(async ({ results, ...flags }: RunFlags & { results?: string }, command: Command) => {
    await runDefinition({ ...flags, ...(results ? { resultsDir: results } : {}), defaultModel: command.getOptionValueSource('model') === 'default' });
  });
}
