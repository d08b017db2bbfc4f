// One round of tool calls, all in parallel (up to maxConcurrent), results in call order. Each
// call goes through the checked tool call (src/mcp/checked-call.ts: name resolution, argument
// checks, routing, refusals); this file adds only the round's policy: the concurrency limit,
// the start/end events, and the images a result shows the model.
import type { ImagePart } from '../core/content.js';
import type { ImageDelivery } from '../core/image-delivery.js';
import type { ToolCall } from '../core/messages.js';
import { toolErrorText, type CallContext, type ConditionMark, type FallbackServed, type ToolErrorCode } from '../core/tool-result-contract.js';
import { callCheckedTool, resolveTool, type ToolCallInterceptor } from '../mcp/checked-call.js';
import type { ToolHost } from '../mcp/types.js';
import { safeEmit, type AgentEventListener } from './events.js';
import type { AgentOptions } from './options.js';
import { withToolImages } from './tool-images.js';
import { markToolImage } from '../media/request-images.js';

export interface ExecutedCall {
  call: ToolCall;
  canonicalName: string;
  /** What the model sent (parsed), as recorded in predictions. */
  arguments: unknown;
  resultText: string;
  isError: boolean;
  errorCode?: ToolErrorCode;
  /** Set when the tool fallback layer served the result (the real call failed for an infrastructure reason). */
  fallback?: FallbackServed;
  /** Set when a robustness condition changed or answered the call (src/robustness/). */
  condition?: ConditionMark;
  durationMs: number;
  images: ImagePart[];
  /** Images the result named or returned that the model is not shown, with the reason (src/agent/tool-images.ts). */
  undeliveredImages: ImageDelivery[];
  /** False for calls beyond maxConcurrent: answered with an error, not recorded as a step call. */
  executed: boolean;
}

export interface RoundContext {
  taskId: string;
  round: number;
  host: ToolHost;
  options: AgentOptions;
  /** Sent with every call of the round (src/core/tool-result-contract.ts). */
  callContext: CallContext;
  interceptor?: ToolCallInterceptor;
  cwd: string;
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
}

function notExecuted(call: ToolCall, canonicalName: string, message: string): ExecutedCall {
  return {
    call,
    canonicalName,
    arguments: call.arguments,
    resultText: toolErrorText(message),
    isError: true,
    errorCode: 'over_limit',
    durationMs: 0,
    images: [],
    undeliveredImages: [],
    executed: false,
  };
}

async function executeOne(call: ToolCall, index: number, context: RoundContext): Promise<ExecutedCall> {
  const { host, options } = context;
  const canonicalName = resolveTool(host, call.name)?.canonicalName ?? call.name;
  safeEmit(context.onEvent, {
    type: 'tool_call_start',
    taskId: context.taskId,
    round: context.round,
    index,
    callId: call.id,
    name: canonicalName,
    arguments: call.arguments,
  });
  const outcome = await callCheckedTool(host, call.name, call.arguments, {
    context: context.callContext,
    timeoutMs: options.toolCallTimeoutMs,
    ...(call.argumentsError !== undefined ? { argumentsError: call.argumentsError } : {}),
    ...(context.interceptor ? { interceptor: context.interceptor } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  });
  const shown = await withToolImages(outcome, options.imagePolicy, options.imageRoots, context.cwd);
  for (const image of shown.images) markToolImage(image, call.id, call.name);
  const result: ExecutedCall = {
    call,
    canonicalName,
    arguments: call.arguments,
    resultText: shown.text,
    isError: outcome.isError,
    ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
    ...(outcome.fallback ? { fallback: outcome.fallback } : {}),
    ...(outcome.condition ? { condition: outcome.condition } : {}),
    durationMs: outcome.durationMs,
    images: shown.images,
    undeliveredImages: shown.dropped.map((drop) => ({
      origin: 'tool' as const,
      callId: call.id,
      tool: call.name,
      ...drop,
      width: 0,
      height: 0,
      bytes: 0,
      status: 'dropped' as const,
    })),
    executed: true,
  };
  emitCallEnd(result, index, context);
  return result;
}

/** The end event of a recorded call (the runner turns it into a store row). */
export function emitCallEnd(result: ExecutedCall, index: number, context: Pick<RoundContext, 'taskId' | 'round' | 'onEvent'>): void {
  const { call } = result;
  const canonicalName = result.canonicalName;
  safeEmit(context.onEvent, {
    type: 'tool_call_end',
    taskId: context.taskId,
    round: context.round,
    index,
    callId: call.id,
    name: canonicalName,
    functionName: call.name,
    arguments: call.arguments,
    result: result.resultText,
    isError: result.isError,
    ...(result.errorCode ? { errorCode: result.errorCode } : {}),
    ...(result.fallback ? { fallback: result.fallback } : {}),
    ...(result.condition ? { condition: result.condition } : {}),
    durationMs: result.durationMs,
    images: result.images.map((image) => ({
      mediaType: image.mediaType,
      data: image.data,
      ...(image.facts ?? { source: '', originalBytes: 0, sentBytes: 0, width: 0, height: 0, originalMediaType: image.mediaType }),
    })),
  });
}

export async function executeRound(calls: readonly ToolCall[], context: RoundContext): Promise<ExecutedCall[]> {
  const limit = context.options.maxConcurrent;
  const accepted = calls.slice(0, limit);
  const extra = calls.slice(limit).map((call) => {
    const canonicalName = resolveTool(context.host, call.name)?.canonicalName ?? call.name;
    return notExecuted(call, canonicalName, `Not executed: at most ${limit} calls run per round; call it again in a later round if it is still needed.`);
  });
  const executed = await Promise.all(accepted.map((call, index) => executeOne(call, index, context)));
  return [...executed, ...extra];
}
