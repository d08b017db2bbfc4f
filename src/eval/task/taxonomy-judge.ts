// The optional LLM judge of the error taxonomy, asked only about failed tasks the rules label
// `undetermined` (taxonomy.ts). The first non-empty line of its reply must be one label word;
// malformed replies are retried up to a bound, and a provider error or exhausted attempts keep
// the task `undetermined` with the failure recorded, never aborting the evaluation.
import { errorMessage } from '../../errors/index.js';
import { generateWithRetry } from '../../llm/retry.js';
import type { CallJudgeOptions } from '../call/judge.js';
import type { Prediction } from '../../tasks/schemas.js';
import { mapWithConcurrency, textJudgeRequest, truncateText } from '../final/judge-kit.js';
import { categoryOf, taxonomyLabels, type TaskTaxonomy, type TaxonomyLabel } from './taxonomy.js';
import type { TaskRecord } from './task-record.js';

/** The call judge's options (driver, prompt, attempts, retries, token and result-size caps), without a stop signal. */
export type TaxonomyJudgeOptions = Omit<CallJudgeOptions, 'signal'>;

interface JudgedTask {
  id: string;
  question: string;
  reply: string;
  calls: ReadonlyArray<{ tool: string; arguments: unknown; result: string | undefined }>;
  expected: readonly string[];
}

interface TaxonomyJudgement {
  judge: string;
  label?: Exclude<TaxonomyLabel, 'undetermined'>;
  replies: string[];
  failure?: string;
}

const judgeable = taxonomyLabels.filter((label): label is Exclude<TaxonomyLabel, 'undetermined'> => label !== 'undetermined');

function parseTaxonomyVerdict(reply: string): Exclude<TaxonomyLabel, 'undetermined'> | undefined {
  const line = reply
    .split(/\r?\n/)
    .map((item) =>
      item
        .replace(/[*`"'.]/g, '')
        .trim()
        .toLowerCase(),
    )
    .find((item) => item !== '');
  return judgeable.find((label) => label === line);
}

function userMessage(task: JudgedTask, maxResultChars: number): string {
  const body = {
    task: task.question,
    tool_calls: task.calls.map((call) => ({ tool: call.tool, arguments: call.arguments ?? null, result: truncateText(call.result ?? '', maxResultChars) })),
    final_reply: task.reply,
    expected: task.expected,
  };
  return `Label the failure of the task below with one of: ${judgeable.join(', ')}.\n\n${JSON.stringify(body, null, 2)}`;
}

async function judgeTaxonomy(task: JudgedTask, options: TaxonomyJudgeOptions): Promise<TaxonomyJudgement> {
  const replies: string[] = [];
  const request = textJudgeRequest(options.systemPrompt, userMessage(task, options.maxResultChars), options.maxTokens, task.id);
  for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
    let reply: string;
    try {
      reply = (await generateWithRetry(options.driver, request, options.retryPolicy)).text;
    } catch (error) {
      return { judge: options.driver.id, replies, failure: `judge request failed: ${errorMessage(error)}` };
    }
    replies.push(truncateText(reply, 200));
    const label = parseTaxonomyVerdict(reply);
    if (label) return { judge: options.driver.id, label, replies };
  }
  return { judge: options.driver.id, replies, failure: `no reply naming one label in ${options.attempts} attempt(s)` };
}

/** Asks the judge about every record the rules left `undetermined`; the rest are untouched. */
export async function applyJudge(records: TaskRecord[], predictions: ReadonlyMap<string, Prediction>, options: TaxonomyJudgeOptions): Promise<void> {
  const open = records.filter((record) => record.taxonomy?.primary === 'undetermined');
  await mapWithConcurrency(open, 4, async (record) => {
    const prediction = predictions.get(record.id);
    const calls = (prediction?.steps ?? []).flatMap((step) =>
      step.calls.map((call) => ({
        tool: String(call.name ?? ''),
        arguments: call.arguments,
        result: typeof call.result === 'string' ? call.result : undefined,
      })),
    );
    const expected = record.checks.filter((check) => !check.passed).map((check) => `${check.evaluator} (${check.reason})`);
    const judgement = await judgeTaxonomy(
      { id: record.id, question: prediction?.question ?? '', reply: prediction?.final_reply ?? '', calls, expected },
      options,
    );
    const taxonomy = record.taxonomy as TaskTaxonomy;
    const detail = judgement.failure ?? `judge ${judgement.judge} replied ${JSON.stringify(judgement.replies.at(-1) ?? '')}`;
    if (!judgement.label) {
      taxonomy.labels.push({ label: 'undetermined', category: 'undetermined', evidence: { rule: 'llm_judge_failed', detail } });
      return;
    }
    taxonomy.labels.push({ label: judgement.label, category: categoryOf(judgement.label), evidence: { rule: 'llm_judge', detail } });
    record.taxonomy = { ...taxonomy, primary: judgement.label, category: categoryOf(judgement.label), source: 'judge' };
  });
}
