// The replay driver: an ordinary driver that answers each round with the next step of a known
// trajectory as native parallel tool calls, then the final reply. Specs:
//   replay:gt                         ground truth (the oracle; the grader's self-check)
//   replay:noisy[?seed=1&drop=..]     seeded, perturbed ground truth (synthetic, for contrast)
//   replay:gt?drop=0.2&noise=0.1...   explicit perturbation options
//   replay:file=<predictions.json>    replays an existing prediction file
//   ...?retry=1                       re-sends the calls of a round that came back as errors (up
//                                     to 2 more times each) before the next step: an oracle that
//                                     recovers from transient tool failures (--condition faults=p)
import { ConfigError, ProviderError } from '../../errors/index.js';
import { emptyUsage } from '../../core/usage.js';
import type { ToolCall } from '../../core/messages.js';
import { loadPredictions, indexById } from '../../tasks/load.js';
import type { DriverContext, GenerateRequest, GenerateResponse, ModelDriver } from '../types.js';
import { planFromGroundTruth, planFromPrediction, type ReplayPlan } from './plan.js';
import { perturbPlan, type PerturbOptions } from './perturb.js';

const noisyDefaults: PerturbOptions = { seed: 1, drop: 0.2, noise: 0.25, wrong: 0.1, merge: false };

/** `retry=1` is the driver's own option; the rest of the query are perturbation options. */
function takeRetry(query: string, spec: string): { retry: boolean; rest: string } {
  const params = new URLSearchParams(query);
  const value = params.get('retry');
  if (value !== null && value !== '0' && value !== '1') throw new ConfigError(`replay option retry=${value} in "${spec}" must be 0 or 1`);
  params.delete('retry');
  return { retry: value === '1', rest: params.toString() };
}

/** How many retries a replayed call gets after an error, before the plan moves on. */
const maxRetries = 2;

/**
 * Where a replay with retries stands: the plan step to send next, or the failed calls of the last
 * round to send again. Plan rounds and retries are told apart by their call ids.
 */
function retryState(request: GenerateRequest): { step: number; again: ToolCall[] } {
  const messages = request.messages;
  const rounds = messages.filter(
    (message): message is Extract<typeof message, { role: 'assistant' }> => message.role === 'assistant' && message.toolCalls.length > 0,
  );
  const step = rounds.filter((message) => message.toolCalls[0]?.id.startsWith('replay_')).length;
  const last = rounds.at(-1);
  // The results of the last round follow it (an instruction turn may come after them).
  const results = last ? messages.slice(messages.lastIndexOf(last) + 1).find((message) => message.role === 'tool') : undefined;
  if (!last || results?.role !== 'tool') return { step, again: [] };
  const failed = new Set(results.results.filter((result) => result.isError).map((result) => result.callId));
  const again = last.toolCalls
    .filter((call) => failed.has(call.id))
    .filter((call) => Number(/_try(\d+)$/.exec(call.id)?.[1] ?? 0) < maxRetries)
    .map((call) => {
      const attempt = Number(/_try(\d+)$/.exec(call.id)?.[1] ?? 0) + 1;
      return { ...call, id: `retry_${call.id.replace(/^(replay|retry)_/, '').replace(/_try\d+$/, '')}_try${attempt}` };
    });
  return { step, again };
}

function parseOptions(query: string, base: PerturbOptions | undefined, spec: string): PerturbOptions | undefined {
  if (!query) return base;
  const params = new URLSearchParams(query);
  const options: PerturbOptions = { ...(base ?? { seed: 1, drop: 0, noise: 0, wrong: 0, merge: false }) };
  for (const [key, value] of params) {
    if (key === 'merge') options.merge = value === '1' || value === 'true';
    else if (key === 'seed' || key === 'drop' || key === 'noise' || key === 'wrong') {
      const number = Number(value);
      if (!Number.isFinite(number) || (key !== 'seed' && (number < 0 || number > 1))) {
        throw new ConfigError(`replay option ${key}=${value} in "${spec}" must be ${key === 'seed' ? 'a number' : 'between 0 and 1'}`);
      }
      options[key] = number;
    } else throw new ConfigError(`unknown replay option "${key}" in "${spec}" (known: seed, drop, noise, wrong, merge, retry)`);
  }
  return options;
}

/**
 * Trial t > 1 of a task draws its own damage (a seed derived from the spec's seed and t), so
 * repeated trials of the noisy oracle differ like repeated samples of a model; trial 1 keeps the
 * spec's seed, so a single-trial run is unchanged.
 */
function forTrial(options: PerturbOptions, trial: number | undefined): PerturbOptions {
  if (trial === undefined || trial <= 1) return options;
  return { ...options, seed: (options.seed ^ Math.imul(trial, 0x9e3779b1)) >>> 0 };
}

function roundIndex(request: GenerateRequest): number {
  return request.messages.filter((message) => message.role === 'assistant' && message.toolCalls.length > 0).length;
}

export async function createReplayDriver(model: string, context: DriverContext): Promise<ModelDriver> {
  const [mode = '', fullQuery = ''] = model.split('?', 2);
  const { retry, rest: query } = takeRetry(fullQuery, `replay:${model}`);
  let plans: Map<string, ReplayPlan>;
  let perturb: PerturbOptions | undefined;
  if (mode === 'gt' || mode === 'noisy') {
    if (!context.groundTruth) throw new ConfigError(`replay:${mode} needs ground truth: pass --gt <file>`);
    plans = new Map([...context.groundTruth].map(([id, task]) => [id, planFromGroundTruth(task)]));
    perturb = parseOptions(query, mode === 'noisy' ? noisyDefaults : undefined, `replay:${model}`);
  } else if (mode.startsWith('file=')) {
    const file = mode.slice('file='.length);
    plans = new Map([...indexById(loadPredictions(file)).byId].map(([id, prediction]) => [id, planFromPrediction(prediction)]));
  } else {
    throw new ConfigError(`unknown replay mode "${model}" (use replay:gt, replay:noisy or replay:file=<predictions.json>)`);
  }

  const planFor = (request: GenerateRequest): ReplayPlan => {
    const taskId = request.context?.taskId ?? '';
    const plan = plans.get(taskId);
    if (!plan) throw new ProviderError('invalid_request', `replay:${model} has no trajectory for task "${taskId}"`);
    if (!perturb) return plan;
    return perturbPlan(
      plan,
      taskId,
      forTrial(perturb, request.context?.trial),
      request.tools.map((tool) => tool.canonicalName),
    );
  };

  return {
    id: `replay:${model}`,
    provider: 'replay',
    model,
    acceptsImages: true,
    async generate(request, options): Promise<GenerateResponse> {
      if (options?.signal?.aborted) throw options.signal.reason;
      const plan = planFor(request);
      const state = retry ? retryState(request) : undefined;
      if (state && state.again.length > 0 && request.toolChoice !== 'none')
        return { text: '', toolCalls: state.again, stopReason: 'tool_calls', usage: emptyUsage(), latencyMs: 0, warnings: [] };
      const round = state ? state.step : roundIndex(request);
      const textReply = (text: string): GenerateResponse => ({ text, toolCalls: [], stopReason: 'end', usage: emptyUsage(), latencyMs: 0, warnings: [] });
      const purpose = request.context?.purpose;
      // Unmerged stages: name the next step's tools when asked to plan; say "yes" once the plan is spent.
      if (purpose === 'prepare') return textReply((plan.steps[round] ?? []).map((call) => `${call.name}: planned`).join('\n'));
      if (purpose === 'end') return textReply(round >= plan.steps.length ? 'yes' : 'no');
      if (request.toolChoice === 'none' || round >= plan.steps.length) return textReply(plan.finalReply);
      const byCanonical = new Map(request.tools.map((tool) => [tool.canonicalName, tool.name]));
      const toolCalls: ToolCall[] = (plan.steps[round] ?? []).map((call, index) => ({
        id: `replay_${round + 1}_${index + 1}`,
        // A tool missing from the catalog keeps its canonical name so the record shows what was asked.
        name: byCanonical.get(call.name) ?? call.name,
        arguments: call.arguments,
        argumentsText: call.argumentsText ?? JSON.stringify(call.arguments),
      }));
      return { text: '', toolCalls, stopReason: 'tool_calls', usage: emptyUsage(), latencyMs: 0, warnings: [] };
    },
    classifyError(error) {
      if (error instanceof ProviderError) return { errorClass: error.errorClass, message: error.message };
      return { errorClass: 'fatal', message: error instanceof Error ? error.message : String(error) };
    },
  };
}
