// Small pieces every LLM judge needs (call-level and final-answer): the prompt files under
// `prompts/`, the retry policy derived from the M3_LLM_* switches, bounded concurrency,
// and truncation of tool results so one huge result cannot blow a judge's context.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromRepo } from '../../config/paths.js';
import type { Switches } from '../../config/switches.js';
import { EvaluationError } from '../../errors/index.js';
import { retryPolicyFrom, type RetryPolicy } from '../../llm/retry.js';
import { clip } from '../../core/number-format.js';

/** The reference's four-judge ensemble, as provider:model specs (m3 eval final --judges default; m3 run --estimate prices them). */
export const defaultJudges = ['openai:gpt-5-mini', 'gemini:gemini-2.5-flash', 'deepseek:deepseek-chat', 'xai:grok-4-fast-reasoning'];

const promptsDir = fromRepo('prompts');

/** Reads `prompts/<name>`, dropping the leading `<!-- ... -->` note meant for maintainers. */
export function loadPromptFile(name: string, dir: string = promptsDir): string {
  const file = path.join(dir, name);
  if (!existsSync(file)) {
    throw new EvaluationError(`judge prompt ${file} is missing (expected one of the files shipped in prompts/; restore it from the repository)`);
  }
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const body = text.replace(/^\s*<!--[\s\S]*?-->\s*/, '').trim();
  if (body === '') throw new EvaluationError(`judge prompt ${file} is empty after its header comment`);
  return body;
}

/** The harness retry policy for judges and remote embedders: the same switches and delays as the agent's model calls. */
export function judgeRetryPolicy(switches: Pick<Switches, 'M3_LLM_MAX_RETRIES' | 'M3_LLM_TIMEOUT'>): RetryPolicy {
  return retryPolicyFrom(switches);
}

export function truncateText(text: string, maxChars: number): string {
  if (maxChars <= 0) return text;
  return clip(text, maxChars, { marker: (whole) => `… [truncated, ${whole.length - maxChars} more characters]` });
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Splits `a:b,c:d` into trimmed specs, rejecting empty entries with a clear message. */
export function parseJudgeList(text: string, optionName: string): string[] {
  const specs = text.split(',').map((item) => item.trim());
  if (specs.some((item) => item === '')) {
    throw new EvaluationError(`${optionName} "${text}": empty entry in the comma-separated list (expected provider:model,provider:model,...)`);
  }
  return specs;
}

/** A one-message text request to a judge: no tools, the task id in the context for the logs. */
export function textJudgeRequest(system: string, text: string, maxTokens: number, taskId: string) {
  return {
    system,
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }],
    tools: [],
    toolChoice: 'none' as const,
    maxTokens,
    context: { taskId, purpose: 'judge' as const },
  };
}
