// One stored episode as an inspect_ai EvalSample (log format 2, the schema in
// test/fixtures/inspect-ai/log-schema.json): the question as the user message, each model
// request's reply as an assistant message carrying the tool calls of its round, each tool
// call's result as a tool message, the final reply as the output, the scores m3bench computed
// (task success by the one success rule, step metrics) and the facts inspect has no field for
// (status, end, mocked tier of each call) as metadata. inspect writes every field, null when
// unset, and its schema requires them all: so do we.
import type { EpisodeRecord, ModelCallRow, ToolCallRow } from './run-records.js';
import { toolCallIdOf } from './run-records.js';

/** What m3bench's evaluation says about one episode (absent: not evaluated). */
export interface SampleScores {
  /** Task success by the one success rule (src/stats/task-success.ts). */
  passed?: boolean;
  /** The step metrics of `m3 eval step` (recall, precision, ...). */
  step?: Record<string, number>;
}

const message = { id: null, source: null, metadata: null };

function usageOf(input: number, output: number, cached: number | null, cost: number | null) {
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_cache_write: null,
    input_tokens_cache_read: cached,
    reasoning_tokens: null,
    total_cost: cost,
  };
}

const textOf = (response: unknown): string =>
  typeof response === 'object' && response !== null && typeof (response as { text?: unknown }).text === 'string' ? (response as { text: string }).text : '';

const argumentsOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };

function toolCallOf(call: ToolCallRow) {
  return { id: toolCallIdOf(call), function: call.canonicalName, arguments: argumentsOf(call.arguments), parse_error: null, view: null, type: 'function' };
}

function assistant(text: string, model: string, calls: ToolCallRow[]) {
  return { ...message, source: 'generate', content: text, role: 'assistant', tool_calls: calls.length ? calls.map(toolCallOf) : null, model };
}

function toolMessage(call: ToolCallRow) {
  return {
    ...message,
    content: call.resultText,
    role: 'tool',
    tool_call_id: toolCallIdOf(call),
    function: call.canonicalName,
    error: call.isError ? { type: 'unknown', message: call.errorCode ? `${call.errorCode}: ${call.resultText}` : call.resultText } : null,
    ...(call.fallback ? { metadata: { m3bench_fallback_tier: call.fallback.tier, m3bench_real_error: call.fallback.originalErrorCode } } : {}),
  };
}

/** The request of each round that gets the round's tool calls: its last work request, else its last. */
function requesterOf(calls: ModelCallRow[], round: number): ModelCallRow | undefined {
  const ofRound = calls.filter((call) => call.round === round);
  return ofRound.filter((call) => call.purpose === 'work').at(-1) ?? ofRound.at(-1);
}

function conversation(record: EpisodeRecord, question: string, model: string) {
  const messages: unknown[] = [{ ...message, source: 'input', content: question, role: 'user', tool_call_id: null }];
  const rounds = [...new Set([...record.modelCalls.map((call) => call.round), ...record.toolCalls.map((call) => call.round)])].sort((a, b) => a - b);
  for (const round of rounds) {
    const requester = requesterOf(record.modelCalls, round);
    const tools = record.toolCalls.filter((call) => call.round === round);
    for (const call of record.modelCalls.filter((entry) => entry.round === round)) {
      if (call.errorClass) continue;
      messages.push(assistant(textOf(call.response), model, call === requester ? tools : []));
    }
    if (!requester && tools.length) messages.push(assistant('', model, tools));
    messages.push(...tools.map(toolMessage));
  }
  return messages;
}

function scoresOf(scores: SampleScores) {
  const score = (value: number, explanation: string | null) => ({ value, answer: null, explanation, metadata: null, history: [] });
  const entries: Array<[string, ReturnType<typeof score>]> = [];
  if (scores.passed !== undefined) entries.push(['success', score(scores.passed ? 1 : 0, 'task success by the one success rule (m3 eval task)')]);
  for (const [name, value] of Object.entries(scores.step ?? {})) entries.push([name, score(value, 'step metric of m3 eval step')]);
  return entries.length ? Object.fromEntries(entries) : null;
}

/** The EvalSample of one episode; `question` and `finalReply` come from its prediction record. */
export function toInspectSample(record: EpisodeRecord, model: string, scores: SampleScores) {
  const { episode } = record;
  const question = episode.prediction?.question ?? '';
  const finalReply = episode.prediction?.final_reply ?? '';
  const ended = episode.finishedAt ?? episode.startedAt;
  const seconds = (Date.parse(ended) - Date.parse(episode.startedAt)) / 1000;
  const usage = usageOf(episode.usage.inputTokens, episode.usage.outputTokens, episode.usage.cachedTokens, episode.costUsd);
  const failed = episode.status !== 'ok' && episode.status !== 'running';
  // inspect leaves an errored sample out of its scores: only an infrastructure failure is that.
  const infra = episode.failureKind === 'infra';
  return {
    id: episode.taskId,
    epoch: episode.trial,
    input: question,
    choices: null,
    target: '',
    sandbox: null,
    files: null,
    setup: null,
    messages: conversation(record, question, model),
    output: {
      model,
      choices: finalReply ? [{ message: assistant(finalReply, model, []), stop_reason: 'stop', logprobs: null }] : [],
      completion: finalReply,
      usage,
      time: seconds,
      metadata: null,
      error: failed ? (episode.errorMessage ?? episode.status) : null,
    },
    scores: scoresOf(scores),
    metadata: {
      m3bench_episode_id: episode.id,
      m3bench_status: episode.status,
      m3bench_attempt: episode.attempt,
      m3bench_rounds: episode.rounds,
      m3bench_end_status: episode.endStatus,
      m3bench_error_code: episode.errorCode,
      m3bench_mocked_calls: record.toolCalls
        .filter((call) => call.fallback)
        .map((call) => ({ tool: call.canonicalName, round: call.round, tier: call.fallback?.tier, real_error: call.fallback?.originalErrorCode })),
    },
    store: {},
    events: [],
    timelines: null,
    model_usage: { [model]: usage },
    role_usage: {},
    started_at: episode.startedAt,
    completed_at: episode.finishedAt,
    total_time: seconds,
    working_time: seconds,
    uuid: `m3bench-${episode.runId}-${episode.id}`,
    invalidation: null,
    error: infra
      ? { message: `${episode.status}${episode.errorCode ? ` (${episode.errorCode})` : ''}: ${episode.errorMessage ?? ''}`, traceback: '', traceback_ansi: '' }
      : null,
    error_retries: null,
    attachments: {},
    events_data: null,
    limit: null,
  };
}
