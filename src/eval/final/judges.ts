// Asking one judge for one score (Task Completion or Information Grounding). Malformed or
// out-of-range replies are retried up to a bound; a provider error (after the harness's own
// retries) fails the judge for this task at once, as in the reference.
import { errorMessage } from '../../errors/index.js';
import { generateWithRetry, type RetryPolicy } from '../../llm/retry.js';
import type { ModelDriver } from '../../llm/types.js';
import type { GtTask, Prediction } from '../../tasks/schemas.js';
import { truncateText } from './judge-kit.js';
import { parseScore, type ParseMethod, type ScoreRange } from './scores.js';
import { sleep } from '../../core/sleep.js';

export type FinalMetric = 'task_completion' | 'information_grounding';

const metricRanges: Record<FinalMetric, ScoreRange & { divisor: number }> = {
  // TC is asked on 0-10 and stored divided by 10; IG is asked on 0-1.
  task_completion: { min: 0, max: 10, divisor: 10 },
  information_grounding: { min: 0, max: 1, divisor: 1 },
};

export interface ScoreJudgeOptions {
  attempts: number;
  lenient: boolean;
  retryPolicy: RetryPolicy;
  maxTokens: number;
  /** Wait between attempts after a malformed reply (the reference slept 10 s). */
  retryDelayMs: number;
  signal?: AbortSignal;
}

interface AttemptNote {
  reply?: string;
  error?: string;
}

export type JudgeOutcome =
  | { ok: true; name: string; score: number; raw: number; parse: ParseMethod; attempts: number }
  | { ok: false; name: string; reason: string; notes: AttemptNote[] };

interface JudgeStep {
  step: number;
  calls: Array<{ name: unknown; arguments: unknown; result?: string }>;
}

function stepsForJudge(steps: Prediction['steps'], withResults: boolean, maxResultChars: number): JudgeStep[] {
  return steps.map((step, index) => ({
    step: step.step ?? index + 1,
    calls: step.calls.map((call) => ({
      name: call.name ?? null,
      arguments: call.arguments ?? null,
      ...(withResults ? { result: truncateText(typeof call.result === 'string' ? call.result : JSON.stringify(call.result ?? null), maxResultChars) } : {}),
    })),
  }));
}

/**
 * Judges see the request the agent actually received (the prediction's fuzzy question, bug 41);
 * the GT question is used only when a prediction file carries none.
 */
export function judgeQuestion(prediction: Prediction, gt: GtTask): { question: string; source: 'prediction' | 'gt' } {
  return prediction.question.trim() !== '' ? { question: prediction.question, source: 'prediction' } : { question: gt.question, source: 'gt' };
}

export function taskCompletionMessage(question: string, prediction: Prediction, maxResultChars: number): string {
  const body = {
    question,
    prediction: { id: prediction.id, steps: stepsForJudge(prediction.steps, true, maxResultChars), final_reply: prediction.final_reply },
  };
  return JSON.stringify(body, null, 2);
}

export function informationGroundingMessage(question: string, gt: GtTask, prediction: Prediction, maxResultChars: number): string {
  const body = {
    question,
    reference: { id: gt.id, steps: stepsForJudge(gt.steps, false, maxResultChars) },
    prediction: { id: prediction.id, steps: stepsForJudge(prediction.steps, true, maxResultChars), final_reply: prediction.final_reply },
  };
  return JSON.stringify(body, null, 2);
}

export async function askJudge(
  driver: ModelDriver,
  metric: FinalMetric,
  system: string,
  user: string,
  taskId: string,
  options: ScoreJudgeOptions,
): Promise<JudgeOutcome> {
  const range = metricRanges[metric];
  const notes: AttemptNote[] = [];
  const request = {
    system,
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: user }] }],
    tools: [],
    toolChoice: 'none' as const,
    maxTokens: options.maxTokens,
    context: { taskId, purpose: 'judge' as const },
  };
  for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
    if (attempt > 1) await sleep(options.retryDelayMs, options.signal);
    let reply: string;
    try {
      reply = (await generateWithRetry(driver, request, options.retryPolicy, options.signal ? { signal: options.signal } : {})).text;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      notes.push({ error: errorMessage(error) });
      return { ok: false, name: driver.id, reason: `judge request failed: ${errorMessage(error)}`, notes };
    }
    const parsed = parseScore(reply, range, { lenient: options.lenient });
    if (parsed.ok) return { ok: true, name: driver.id, score: parsed.value / range.divisor, raw: parsed.value, parse: parsed.method, attempts: attempt };
    notes.push({ reply: truncateText(reply, 200), error: parsed.reason });
  }
  const last = notes[notes.length - 1]?.error ?? 'no usable reply';
  return { ok: false, name: driver.id, reason: `no usable score in ${options.attempts} attempt(s); last: ${last}`, notes };
}
