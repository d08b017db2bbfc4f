// The optional LLM judge for calls the rules cannot decide. Each reply must be a single digit
// 1-4 on its first line; malformed replies are retried up to a bound, and a provider error or
// exhausted attempts make the call `unclassified` instead of aborting the run (bug 36).
import { errorMessage } from '../../errors/index.js';
import { generateWithRetry, type RetryPolicy } from '../../llm/retry.js';
import type { ModelDriver } from '../../llm/types.js';
import { textJudgeRequest, truncateText } from '../final/judge-kit.js';
import { callCategories, type CallCategory } from './rules.js';

export interface CallJudgeOptions {
  driver: ModelDriver;
  systemPrompt: string;
  /** Replies parsed per call before giving up (malformed replies only; provider errors stop at once). */
  attempts: number;
  retryPolicy: RetryPolicy;
  maxTokens: number;
  /** Tool results longer than this are cut before they reach the judge. */
  maxResultChars: number;
  signal?: AbortSignal;
}

export interface JudgeAttempt {
  reply?: string;
  vote?: number;
  error?: string;
}

export interface CallJudgement {
  judge: string;
  label?: CallCategory;
  attempts: JudgeAttempt[];
  failure?: string;
}

export interface JudgedCall {
  id: string;
  name: unknown;
  arguments: unknown;
  result: string;
}

/**
 * The first non-empty line, stripped of markdown emphasis, must be exactly one digit 1-4.
 * @internal Exported for its tests.
 */
export function parseCallVerdict(reply: string): number | undefined {
  const line = reply
    .split(/\r?\n/)
    .map((item) => item.replace(/[*`_]/g, '').trim())
    .find((item) => item !== '');
  const match = line === undefined ? null : /^([1-4])[.)]?$/.exec(line);
  return match?.[1] ? Number(match[1]) : undefined;
}

function categoryForVote(vote: number): CallCategory {
  const category = callCategories[vote - 1];
  if (!category) throw new RangeError(`call-judge vote ${vote} is outside 1-4`);
  return category;
}

/** @internal Exported for its tests. */
export function callJudgeUserMessage(call: JudgedCall, maxResultChars: number): string {
  const body = { id: call.id, name: call.name, arguments: call.arguments ?? null, result: truncateText(call.result, maxResultChars) };
  return `Classify the tool call below. Output only one number among 1/2/3/4.\n\n${JSON.stringify(body, null, 2)}`;
}

export async function judgeCall(call: JudgedCall, options: CallJudgeOptions): Promise<CallJudgement> {
  const attempts: JudgeAttempt[] = [];
  const request = textJudgeRequest(options.systemPrompt, callJudgeUserMessage(call, options.maxResultChars), options.maxTokens, call.id);
  for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
    let reply: string;
    try {
      reply = (await generateWithRetry(options.driver, request, options.retryPolicy, options.signal ? { signal: options.signal } : {})).text;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      attempts.push({ error: errorMessage(error) });
      return { judge: options.driver.id, attempts, failure: `judge request failed: ${errorMessage(error)}` };
    }
    const vote = parseCallVerdict(reply);
    attempts.push({ reply: truncateText(reply, 200), ...(vote !== undefined ? { vote } : {}) });
    if (vote !== undefined) return { judge: options.driver.id, label: categoryForVote(vote), attempts };
  }
  return { judge: options.driver.id, attempts, failure: `no reply of the form 1-4 in ${options.attempts} attempt(s)` };
}
