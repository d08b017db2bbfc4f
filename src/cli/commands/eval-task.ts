// `m3 eval task`: task-level evaluation of one prediction file: rule evaluators, precise
// answers, state checks the run recorded, final-answer thresholds, task success, the tutorial's and MCP-RADAR's metrics per tier and domain, and an error
// taxonomy label with evidence for every failed task; writes results/<model>/task_eval.json + .csv.
import { evaluationInputsFor, stampEvaluationInputs } from '../../results/evaluation-inputs.js';
import { GRADER_VERSIONS } from '../../results/grader-versions.js';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { parseSwitches } from '../../config/switches.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';
import { ConfigError } from '../../errors/index.js';
import { loadToolCatalog } from '../../eval/call/catalog.js';
import { judgeRetryPolicy, loadPromptFile } from '../../eval/final/judge-kit.js';
import { runTaskFiles, type TaskRunOptions } from '../../eval/task/run.js';
import type { TaxonomyJudgeOptions } from '../../eval/task/taxonomy-judge.js';
import { createDriver } from '../../llm/registry.js';
import { log } from '../../log/logger.js';
import { positiveInteger, nonNegativeInteger } from '../option-parsers.js';
import { getOrCreateEvalCommand } from './eval-group.js';
import { formatPercent } from '../../core/number-format.js';

interface EvalTaskOptions {
  pred: string;
  gt?: string;
  tasks?: string;
  out?: string;
  stepResults?: string;
  calls?: string;
  catalog?: string;
  manifest?: string;
  store?: string;
  final?: string;
  proxy?: string;
  domain: string;
  judge?: string;
  attempts: number;
  maxTokens: number;
  maxResultChars: number;
}

const domainFields = ['auto', 'domain', 'tier', 'type'] as const;

async function createJudge(spec: string, options: EvalTaskOptions): Promise<TaxonomyJudgeOptions> {
  const env = loadEnvironment();
  const switches = parseSwitches(env);
  return {
    driver: await createDriver(spec, { env, timeoutMs: secondsToTimerMs(switches.M3_LLM_TIMEOUT) }),
    systemPrompt: loadPromptFile('taxonomy-judge.md'),
    attempts: options.attempts,
    retryPolicy: judgeRetryPolicy(switches),
    maxTokens: options.maxTokens,
    maxResultChars: options.maxResultChars,
  };
}

function percent(rate: { rate: number | null; numerator: number; denominator: number }): string {
  return rate.rate === null ? 'n/a' : `${formatPercent(rate.rate)} (${rate.numerator}/${rate.denominator})`;
}

async function runEvalTask(options: EvalTaskOptions): Promise<void> {
  const domainField = domainFields.find((field) => field === options.domain);
  if (!domainField) throw new ConfigError(`--domain "${options.domain}": expected one of ${domainFields.join(', ')}`);
  const resolve = (file: string | undefined) => (file ? path.resolve(file) : undefined);
  const run: TaskRunOptions = {
    ...(options.gt ? { gtFile: path.resolve(options.gt) } : {}),
    predFile: path.resolve(options.pred),
    domainField,
    warn: (message) => log.warn(message),
  };
  for (const [key, value] of [
    ['tasksFile', options.tasks],
    ['outputDir', options.out],
    ['stepResultsFile', options.stepResults],
    ['callsFile', options.calls],
    ['manifestFile', options.manifest],
    ['storeFile', options.store],
    ['finalFile', options.final],
    ['proxyFile', options.proxy],
  ] as const) {
    const resolved = resolve(value);
    if (resolved) run[key] = resolved;
  }
  if (options.catalog) run.catalog = loadToolCatalog(path.resolve(options.catalog));
  if (options.judge) run.judge = await createJudge(options.judge, options);
  const { document, files } = await runTaskFiles(run);
  stampEvaluationInputs(
    files.json,
    evaluationInputsFor({ predFile: run.predFile, ...(run.gtFile ? { gtFile: run.gtFile } : {}), layer: 'task', graderVersion: GRADER_VERSIONS.taskRules }),
    run.predFile,
  );
  const { aggregate, taxonomy } = document;
  log.info(
    `${path.basename(run.predFile)}: ${document.coverage.scored} task(s) scored, ${document.excluded.count} excluded (infrastructure); ` +
      `success ${percent(aggregate.task_success_rate)}, rules ${percent(aggregate.rule_pass_rate)}, state ${percent(aggregate.state_pass_rate)}, final threshold ${percent(aggregate.final_threshold_pass_rate)}, exception recovery ${percent(aggregate.exception_recovery_rate)}; ` +
      `${taxonomy.failed_tasks} failed task(s) labelled (tool use ${taxonomy.by_category.tool_use}, synthesis ${taxonomy.by_category.information_synthesis}, reasoning ${taxonomy.by_category.reasoning}, undetermined ${taxonomy.by_category.undetermined})`,
  );
  for (const entry of document.not_evaluated) log.warn(`task ${entry.id}: success NOT EVALUATED (in no denominator): ${entry.reasons.join('; ')}`);
  process.stdout.write(
    `${JSON.stringify({ wrote: [files.json, files.csv], success_rule: document.success_rule, excluded: document.excluded, not_evaluated: document.not_evaluated, aggregate, taxonomy })}\n`,
  );
}

export function registerEvalTaskCommand(program: Command): void {
  getOrCreateEvalCommand(program)
    .command('task')
    .description('task-level evaluation: rule evaluators, precise answers, task success, tutorial and MCP-RADAR metrics, error taxonomy of failed tasks')
    .requiredOption('--pred <file>', 'prediction file (e.g. results/<model>_test_mcp_fuzzy.json)')
    .option(
      '--gt <file>',
      'ground-truth file (evaluators, answers, facts, tiers); optional when the predictions carry their own evaluators (MCP-Universe tasks), which are scored beside the GT tasks',
    )
    .option('--tasks <file>', 'task file: evaluators / answers it states are used when the GT has none, and only its ids are scored')
    .option('--out <dir>', 'output folder (default results/<model>/ beside the predictions)')
    .option('--step-results <file>', 'step alignment to use (default results/<model>/results_eval.json; computed here for ids it lacks)')
    .option('--calls <file>', 'call labels to use (default results/<model>/callanalysis.json; classified here by rules when absent)')
    .option('--catalog <file>', 'tool list for classifying calls when there is no callanalysis.json')
    .option('--manifest <file>', 'run manifest (default <predictions>.manifest.json): infrastructure failures, max steps, condition')
    .option('--store <file>', 'run store for token usage (default m3bench.sqlite beside the predictions)')
    .option('--final <file>', "final-answer judges' scores a task's success.final threshold reads (default taskcompletion.json beside the predictions)")
    .option('--proxy <file>', 'final-answer proxy scores for a success.final threshold on a proxy metric (default final_proxy.json beside the predictions)')
    .option('--domain <field>', 'what groups tasks for resource efficiency: auto (domain, else tier, else type), domain, tier or type', 'auto')
    .option('--judge <provider:model>', 'LLM judge for failed tasks the taxonomy rules cannot label')
    .option('--attempts <n>', 'judge replies tried per task', positiveInteger, 3)
    .option('--max-tokens <n>', 'output token budget per judge request', positiveInteger, 256)
    .option('--max-result-chars <n>', 'cut tool results to this many characters for the judge; 0 disables', nonNegativeInteger, 2000)
    .action(runEvalTask);
}
