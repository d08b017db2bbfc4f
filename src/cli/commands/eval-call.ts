// `m3 eval call`: call-level classification of one prediction file. Rules first, an
// optional LLM judge for what they leave open; writes results/<model>/callanalysis.json.
import { evaluationInputsFor, evaluationLabels } from '../../results/evaluation-inputs.js';
import { GRADER_VERSIONS } from '../../results/grader-versions.js';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { parseSwitches } from '../../config/switches.js';
import { TOOL_ERROR_PREFIX, UNKNOWN_TOOL_TEXT } from '../../core/tool-result-contract.js';
import { loadToolCatalog } from '../../eval/call/catalog.js';
import { evaluateCalls } from '../../eval/call/evaluate.js';
import type { CallJudgeOptions } from '../../eval/call/judge.js';
import { defaultOutputFile } from '../../eval/call/output.js';
import { writeJsonAtomic } from '../../tasks/write-json.js';
import { judgeRetryPolicy, loadPromptFile } from '../../eval/final/judge-kit.js';
import { createDriver } from '../../llm/registry.js';
import { log } from '../../log/logger.js';
import { loadPredictions } from '../../tasks/load.js';
import { getOrCreateEvalCommand } from './eval-group.js';
import { nonNegativeInteger, positiveInteger } from '../option-parsers.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';

interface EvalCallOptions {
  pred: string;
  out?: string;
  catalog?: string;
  judge?: string;
  attempts: number;
  concurrency: number;
  maxTokens: number;
  maxResultChars: number;
}

async function runEvalCall(options: EvalCallOptions): Promise<void> {
  const predFile = path.resolve(options.pred);
  const outFile = path.resolve(options.out ?? defaultOutputFile(predFile, 'callanalysis.json'));
  const predictions = loadPredictions(predFile);
  const catalog = options.catalog ? loadToolCatalog(path.resolve(options.catalog)) : undefined;
  if (!catalog)
    log.warn(
      `no --catalog: unknown tools are found only from their recorded code or "${TOOL_ERROR_PREFIX}${UNKNOWN_TOOL_TEXT}" results, and arguments are not schema-checked`,
    );
  let judge: CallJudgeOptions | undefined;
  if (options.judge) {
    const env = loadEnvironment();
    const switches = parseSwitches(env);
    judge = {
      driver: await createDriver(options.judge, { env, timeoutMs: secondsToTimerMs(switches.M3_LLM_TIMEOUT) }),
      systemPrompt: loadPromptFile('call-judge.md'),
      attempts: options.attempts,
      retryPolicy: judgeRetryPolicy(switches),
      maxTokens: options.maxTokens,
      maxResultChars: options.maxResultChars,
    };
  }
  const analysis = await evaluateCalls(predictions, {
    ...(catalog ? { catalog } : {}),
    ...(judge ? { judge } : {}),
    concurrency: options.concurrency,
    predictionsFile: predFile,
    onProgress: (done, total) => log.debug(`call judge: ${done}/${total}`),
  });
  writeJsonAtomic(outFile, {
    ...analysis,
    ...evaluationLabels(evaluationInputsFor({ predFile, layer: 'call', graderVersion: GRADER_VERSIONS.call }), predFile),
  });
  const fallback = analysis.per_call.filter((record) => record.source === 'fallback').length;
  const judged = analysis.per_call.filter((record) => record.source === 'judge').length;
  log.info(
    `${path.basename(predFile)}: ${analysis.totals.calls} calls in ${analysis.totals.tasks} tasks → success ${analysis.success}, ` +
      `resource_not_found ${analysis.resource_not_found}, invalid_arguments ${analysis.invalid_arguments}, unknown_tool ${analysis.unknown_tool}, ` +
      `mocked (fallback layer, not success) ${analysis.mocked}, unclassified ${analysis.unclassified}; illegal calling in ${analysis.illegal_calling} task(s); judged ${judged}, rule fallback ${fallback}`,
  );
  const { per_call: _perCall, illegal_calling_ids: _ids, ...summary } = analysis;
  process.stdout.write(`${JSON.stringify({ wrote: outFile, ...summary })}\n`);
}

export function registerEvalCallCommand(program: Command): void {
  getOrCreateEvalCommand(program)
    .command('call')
    .description('call-level evaluation: unknown tool / invalid arguments / resource not found / success per call, illegal calling per task')
    .requiredOption('--pred <file>', 'prediction file (e.g. results/<model>_test_mcp_fuzzy.json)')
    .option('--out <file>', 'output file (default results/<model>/callanalysis.json beside the predictions)')
    .option('--catalog <file>', 'tool list: `m3 servers list-tools --json` output, or a catalog such as tools_catalog.json / mcp_tools_with_desc.json')
    .option('--judge <provider:model>', 'LLM judge for calls the rules cannot decide (without one, those get the documented rule fallback)')
    .option('--attempts <n>', 'judge replies tried per call before it is recorded as unclassified', positiveInteger, 3)
    .option('--concurrency <n>', 'judge requests in flight', positiveInteger, 4)
    .option('--max-tokens <n>', 'output token budget per judge request', positiveInteger, 1024)
    .option('--max-result-chars <n>', 'cut tool results to this many characters for the judge; 0 disables', nonNegativeInteger, 4000)
    .action(runEvalCall);
}
