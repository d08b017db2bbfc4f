// One stored episode as OpenTelemetry span descriptions, with the GenAI semantic-convention
// attributes (gen_ai.* from @opentelemetry/semantic-conventions/incubating): a root
// `invoke_agent` span for the episode, a `chat` span per model request and an `execute_tool`
// span per tool call under it. Times come from the store, never from the clock of the export.
// Message content, tool arguments and results are not attributes (the conventions make them
// opt-in); the inspect export carries them.
import type { Attributes } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { RunRow } from '../store/index.js';
import {
  episodeModelSpec,
  modelCallTimes,
  splitModelSpec,
  toolCallIdOf,
  toolCallTimes,
  type EpisodeRecord,
  type ModelCallRow,
  type ToolCallRow,
} from './run-records.js';

export interface SpanDescription {
  name: string;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  attributes: Attributes;
  error: { type: string; message: string } | null;
}

export interface EpisodeSpans {
  root: SpanDescription;
  children: SpanDescription[];
}

// Our provider prefixes as the conventions' gen_ai.provider.name values; others pass through.
const providerNames: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gcp.gemini', google: 'gcp.gemini' };

function modelAttributes(run: RunRow, record: EpisodeRecord): Attributes {
  const { provider, model } = splitModelSpec(episodeModelSpec(run, record.episode));
  const name = provider ? (providerNames[provider] ?? provider) : 'unknown';
  return { [ATTR_GEN_AI_PROVIDER_NAME]: name, [ATTR_GEN_AI_SYSTEM]: name, [ATTR_GEN_AI_REQUEST_MODEL]: model };
}

function chatSpan(base: Attributes, call: ModelCallRow): SpanDescription {
  const { start, end } = modelCallTimes(call);
  return {
    name: `${GEN_AI_OPERATION_NAME_VALUE_CHAT} ${String(base[ATTR_GEN_AI_REQUEST_MODEL])}`,
    start,
    end,
    attributes: {
      ...base,
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: call.usage.inputTokens,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: call.usage.outputTokens,
      'm3bench.usage.cached_tokens': call.usage.cachedTokens,
      'm3bench.round': call.round,
      'm3bench.purpose': call.purpose,
      'm3bench.attempts': call.attempts.length,
      'm3bench.image.count': call.imagePayload.count,
      'm3bench.image.bytes': call.imagePayload.bytes,
      ...(call.agent ? { [ATTR_GEN_AI_AGENT_NAME]: call.agent } : {}),
      ...(call.errorClass ? { [ATTR_ERROR_TYPE]: call.errorClass } : {}),
    },
    error: call.errorClass ? { type: call.errorClass, message: call.errorMessage ?? call.errorClass } : null,
  };
}

function toolSpan(conversation: Attributes, call: ToolCallRow): SpanDescription {
  const { start, end } = toolCallTimes(call);
  const errorType = call.isError ? (call.errorCode ?? 'tool_error') : null;
  return {
    name: `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${call.canonicalName}`,
    start,
    end,
    attributes: {
      ...conversation,
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: call.canonicalName,
      [ATTR_GEN_AI_TOOL_CALL_ID]: toolCallIdOf(call),
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      'm3bench.round': call.round,
      'm3bench.call_index': call.callIndex,
      'm3bench.tool.image_count': call.images.length,
      ...(call.fallback ? { 'm3bench.fallback.tier': call.fallback.tier, 'm3bench.fallback.original_error': call.fallback.originalErrorCode } : {}),
      ...(call.agent ? { [ATTR_GEN_AI_AGENT_NAME]: call.agent } : {}),
      ...(errorType ? { [ATTR_ERROR_TYPE]: errorType } : {}),
    },
    error: errorType ? { type: errorType, message: call.errorCode ? `tool error ${call.errorCode}` : 'the tool returned an error' } : null,
  };
}

/** The root span and its children of one episode. */
export function toEpisodeSpans(run: RunRow, record: EpisodeRecord): EpisodeSpans {
  const { episode } = record;
  const conversation: Attributes = { [ATTR_GEN_AI_CONVERSATION_ID]: `${run.runId}/${episode.id}` };
  const model = { ...conversation, ...modelAttributes(run, record) };
  const children = [...record.modelCalls.map((call) => chatSpan(model, call)), ...record.toolCalls.map((call) => toolSpan(conversation, call))].sort(
    (a, b) => a.start - b.start,
  );
  const start = Math.min(Date.parse(episode.startedAt), ...children.map((span) => span.start));
  const end = Math.max(episode.finishedAt ? Date.parse(episode.finishedAt) : start, ...children.map((span) => span.end));
  const failed = episode.status !== 'ok' && episode.status !== 'running';
  const errorType = failed ? (episode.errorCode ?? episode.status) : null;
  return {
    root: {
      name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${episode.taskId}`,
      start,
      end,
      attributes: {
        ...model,
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
        [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: episode.usage.inputTokens,
        [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: episode.usage.outputTokens,
        'm3bench.run.id': run.runId,
        'm3bench.condition': run.condition,
        'm3bench.task.id': episode.taskId,
        'm3bench.trial': episode.trial,
        'm3bench.attempt': episode.attempt,
        'm3bench.episode.status': episode.status,
        'm3bench.rounds': episode.rounds,
        'm3bench.tool_calls': episode.toolCallCount,
        ...(episode.costUsd !== null ? { 'm3bench.cost_usd': episode.costUsd } : {}),
        ...(episode.endStatus ? { 'm3bench.end_status': episode.endStatus } : {}),
        ...(errorType ? { [ATTR_ERROR_TYPE]: errorType } : {}),
      },
      error: errorType ? { type: errorType, message: episode.errorMessage ?? `episode ended ${episode.status}` } : null,
    },
    children,
  };
}
