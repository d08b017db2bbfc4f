// `m3 eval final`: final-answer evaluation. With --judges, an LLM judge ensemble
// writes results/<model>/taskcompletion.json (resumable); without judges, or with --proxy,
// deterministic proxies against the GT final_reply go to results/<model>/final_proxy.json.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { parseSwitches } from '../../config/switches.js';
import { defaultOutputFile } from '../../eval/call/output.js';
import { writeJsonAtomic } from '../../tasks/write-json.js';
import { evaluationInputsFor, evaluationLabels } from '../../results/evaluation-inputs.js';
import { GRADER_VERSIONS } from '../../results/grader-versions.js';
import { evaluateFinalAnswers } from '../../eval/final/evaluate.js';
import { defaultJudges, judgeRetryPolicy, loadPromptFile, parseJudgeList } from '../../eval/final/judge-kit.js';
import { loadTaskCompletion, taskEntries } from '../../eval/final/output.js';
import { evaluateProxies } from '../../eval/final/proxies.js';
import { loadInfraFailures, manifestFileFor, type InfraFailures } from '../../eval/infra-failures.js';
import { ConfigError } from '../../errors/index.js';
import { withJudgeBatch } from '../../llm/batch/judge-driver.js';
import { createDriver } from '../../llm/registry.js';
import { log } from '../../log/logger.js';
import { loadGroundTruth, loadPredictions } from '../../tasks/load.js';
import { nonNegativeInteger, positiveInteger, wholeSeconds } from '../option-parsers.js';
import { getOrCreateEvalCommand } from './eval-group.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';

interface EvalFinalOptions {
  gt: string;
  pred: string;
  out?: string;
  judges?: string;
  proxy?: boolean;
  proxyOut?: string;
  lenient?: boolean;
  resume: boolean;
  attempts: number;
  retryDelay: number;
  concurrency: number;
  maxTokens: number;
  maxResultChars: number;
  runManifest?: string;
  referenceCompat?: boolean;
  batch?: boolean;
  batchWindow: number;
  batchPoll: number;
}

/** The run's infrastructure failures (left out of every denominator), from --run-manifest or beside the predictions. */
function infraFailuresFor(options: EvalFinalOptions, predictions: string): InfraFailures {
  const file = options.runManifest ? path.resolve(options.runManifest) : manifestFileFor(predictions);
  if (options.runManifest && !existsSync(file)) throw new ConfigError(`--run-manifest ${file}: file not found`);
  const failures = loadInfraFailures(file);
  if (failures.warning) log.warn(failures.warning);
  return failures;
}

/** What the final-answer output evaluated and its mocked share, as every layer records them (src/results/evaluation-inputs.ts). */
function finalLabels(files: { gt: string; predictions: string }): Record<string, unknown> {
  return evaluationLabels(
    evaluationInputsFor({ predFile: files.predictions, gtFile: files.gt, layer: 'final', graderVersion: GRADER_VERSIONS.final }),
    files.predictions,
  );
}

async function runJudges(options: EvalFinalOptions, files: { gt: string; predictions: string }, judgeSpecs: string[]): Promise<void> {
  const outFile = path.resolve(options.out ?? defaultOutputFile(files.predictions, 'taskcompletion.json'));
  if (judgeSpecs.length < 3) log.warn(`${judgeSpecs.length} judge(s): the trimmed mean drops min and max only with more than 2 judges (the reference used 4)`);
  if (options.lenient) log.warn('--lenient: replies without \\boxed{} fall back to their last number; such scores are flagged parse=lenient_last_number');
  const env = loadEnvironment();
  const switches = parseSwitches(env);
  const context = { env, timeoutMs: secondsToTimerMs(switches.M3_LLM_TIMEOUT) };
  const batch = {
    maxSize: options.concurrency * 2,
    windowMs: options.batchWindow,
    pollMs: options.batchPoll,
    onState: (line: string) => log.info(line),
    onFallback: (line: string) => log.warn(line),
  };
  const judges = await Promise.all(
    judgeSpecs.map(async (spec) => {
      const driver = await createDriver(spec, context);
      return options.batch ? withJudgeBatch(driver, context, batch) : driver;
    }),
  );
  const previous = options.resume && existsSync(outFile) ? taskEntries(loadTaskCompletion(outFile)) : undefined;
  if (previous) log.info(`resuming: ${Object.keys(previous).length} task(s) already scored in ${outFile}`);
  const output = await evaluateFinalAnswers(loadGroundTruth(files.gt), loadPredictions(files.predictions), {
    judges,
    prompts: { taskCompletion: loadPromptFile('task-completion.md'), informationGrounding: loadPromptFile('information-grounding.md') },
    attempts: options.attempts,
    lenient: options.lenient ?? false,
    retryPolicy: judgeRetryPolicy(switches),
    maxTokens: options.maxTokens,
    retryDelayMs: secondsToTimerMs(options.retryDelay),
    maxResultChars: options.maxResultChars,
    concurrency: options.concurrency,
    files,
    ...(previous ? { previous } : {}),
    infraFailures: infraFailuresFor(options, files.predictions),
    referenceCompat: options.referenceCompat ?? false,
    checkpoint: (partial) => writeJsonAtomic(outFile, partial),
    onTask: (id, entry, failures) => {
      if (entry)
        log.info(
          `${id}: TC ${entry.final.toFixed(3)} [${entry.judges.map((judge) => judge.score.toFixed(2)).join(', ')}]  IG ${entry.info_grounding?.final.toFixed(3) ?? '-'}`,
        );
      for (const failure of failures) log.warn(`${id}: ${failure.metric} judge ${failure.judge} failed: ${failure.reason}`);
    },
  });
  writeJsonAtomic(outFile, { ...output, ...finalLabels(files) });
  process.stdout.write(`${JSON.stringify({ wrote: outFile, ...output.aggregate })}\n`);
}

function runProxies(options: EvalFinalOptions, files: { gt: string; predictions: string }): void {
  const outFile = path.resolve(options.proxyOut ?? defaultOutputFile(files.predictions, 'final_proxy.json'));
  const output = evaluateProxies(
    loadGroundTruth(files.gt),
    loadPredictions(files.predictions),
    files,
    infraFailuresFor(options, files.predictions),
    options.referenceCompat ?? false,
  );
  writeJsonAtomic(outFile, { ...output, ...finalLabels(files) });
  log.info(`final-answer proxies (not judge scores): ${output.aggregate.num_scored}/${output.aggregate.num_total} tasks with a prediction`);
  process.stdout.write(`${JSON.stringify({ wrote: outFile, kind: 'proxy', ...output.aggregate })}\n`);
}

export function registerEvalFinalCommand(program: Command): void {
  getOrCreateEvalCommand(program)
    .command('final')
    .description('final-answer evaluation: judge ensemble (task completion, information grounding) or deterministic proxies')
    .requiredOption('--gt <file>', 'ground-truth file (e.g. json/test_mcp_GT.json)')
    .requiredOption('--pred <file>', 'prediction file (e.g. results/<model>_test_mcp_fuzzy.json)')
    .option('--out <file>', 'judge output (default results/<model>/taskcompletion.json beside the predictions)')
    .option('--judges <list>', `comma-separated provider:model judges, or "default" (${defaultJudges.join(',')}); without it only proxies are computed`)
    .option('--proxy', 'also compute the deterministic proxies when judges are given')
    .option('--proxy-out <file>', 'proxy output (default results/<model>/final_proxy.json)')
    .option('--lenient', 'accept a reply without \\boxed{} by its last number (flagged in the output)')
    .option('--no-resume', 'judge every task again instead of keeping the scores already in --out')
    .option('--attempts <n>', 'replies tried per judge and metric before the task is listed as a judge failure', positiveInteger, 5)
    .option('--retry-delay <seconds>', 'wait between attempts after a malformed reply', wholeSeconds, 2)
    .option('--concurrency <n>', 'tasks judged at once (each asks all judges in parallel)', positiveInteger, 2)
    .option('--max-tokens <n>', 'output token budget per judge request', positiveInteger, 4096)
    .option('--batch', "ask the judges through their vendors' batch APIs (half price; requests a job does not answer go the ordinary way; docs/batch.md)")
    .option('--batch-window <ms>', 'with --batch: submit a job when no judge request has arrived for this long', positiveInteger, 2000)
    .option('--batch-poll <ms>', 'with --batch: first poll of a job after this long, doubled per poll up to 300000', positiveInteger, 10_000)
    .option('--max-result-chars <n>', 'cut each tool result to this many characters for the judges; 0 disables', nonNegativeInteger, 2000)
    .option(
      '--reference-compat',
      'num_total as the reference counts it: every GT record with an id, duplicates included (213 for the published GT; default: distinct ids, 208)',
    )
    .option(
      '--run-manifest <file>',
      'run manifest whose infrastructure failures are listed apart and left out of the rates (default: <predictions>.manifest.json, when present)',
    )
    .action(async (options: EvalFinalOptions) => {
      const files = { gt: path.resolve(options.gt), predictions: path.resolve(options.pred) };
      const judgeSpecs = options.judges ? (options.judges.trim() === 'default' ? defaultJudges : parseJudgeList(options.judges, '--judges')) : [];
      if (judgeSpecs.length > 0) await runJudges(options, files, judgeSpecs);
      if (judgeSpecs.length === 0 || options.proxy) runProxies(options, files);
    });
}
