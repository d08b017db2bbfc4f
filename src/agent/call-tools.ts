// Executes one round of tool calls, all in parallel (up to maxConcurrent), and returns the
// results in call order. Unknown tools, unparseable or schema-violating arguments and extra
// calls beyond the limit become error results: recorded, shown to the model, never thrown.
import type { ImagePart } from '../core/content.js';
import type { ToolCall } from '../core/messages.js';
import type { ToolHost } from '../mcp/types.js';
import { ArgumentChecker, toArgumentObject } from './argument-check.js';
import { safeEmit, type AgentEventListener } from './events.js';
import type { AgentOptions } from './options.js';
import { imagesFromOutcome } from './tool-images.js';

export interface ExecutedCall {
  call: ToolCall;
  canonicalName: string;
  /** What the model sent (parsed), as recorded in predictions. */
  arguments: unknown;
  resultText: string;
  isError: boolean;
  errorCode?: string;
  durationMs: number;
  images: ImagePart[];
  /** False for calls beyond maxConcurrent: answered with an error, not recorded as a step call. */
  executed: boolean;
}

export interface RoundContext {
  taskId: string;
  round: number;
  host: ToolHost;
  options: AgentOptions;
  checker: ArgumentChecker;
  cwd: string;
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
}

function failed(call: ToolCall, canonicalName: string, code: string, message: string, executed = true): ExecutedCall {
  return { call, canonicalName, arguments: call.arguments, resultText: `[Tool error] ${message}`, isError: true, errorCode: code, durationMs: 0, images: [], executed };
}

async function executeOne(call: ToolCall, index: number, context: RoundContext): Promise<ExecutedCall> {
  const { host, options } = context;
  const tool = host.findByFunctionName(call.name) ?? host.findByCanonical(call.name);
  const canonicalName = tool?.canonicalName ?? call.name;
  safeEmit(context.onEvent, { type: 'tool_call_start', taskId: context.taskId, round: context.round, index, callId: call.id, name: canonicalName, arguments: call.arguments });
  let result: ExecutedCall;
  if (!tool) {
    result = failed(call, canonicalName, 'unknown_tool', `Unknown tool: ${canonicalName}`);
  } else if (call.argumentsError) {
    result = failed(call, canonicalName, 'invalid_arguments', `Invalid arguments for ${canonicalName}: the arguments were not valid JSON (${call.argumentsError})`);
  } else {
    const normalized = toArgumentObject(call.arguments);
    const problem = 'error' in normalized ? normalized.error : context.checker.check(tool, normalized.args);
    if (problem || 'error' in normalized) {
      result = failed(call, canonicalName, 'invalid_arguments', `Invalid arguments for ${canonicalName}: ${problem}`);
    } else {
      const outcome = await host.callTool(canonicalName, normalized.args, { timeoutMs: options.toolCallTimeoutMs, ...(context.signal ? { signal: context.signal } : {}) });
      const extracted = await imagesFromOutcome(outcome, options.imagePolicy, options.imageRoots, context.cwd);
      const notes = extracted.notes.length > 0 ? `\n[image note] ${extracted.notes.join('; ')}` : '';
      result = {
        call,
        canonicalName,
        arguments: call.arguments,
        resultText: outcome.text + notes,
        isError: outcome.isError,
        ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
        durationMs: outcome.durationMs,
        images: extracted.images,
        executed: true,
      };
    }
  }
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
    durationMs: result.durationMs,
    images: result.images.map((image) => ({ mediaType: image.mediaType, data: image.data, ...(image.facts ?? { source: '', originalBytes: 0, sentBytes: 0, width: 0, height: 0, originalMediaType: image.mediaType }) })),
  });
  return result;
}

export async function executeRound(calls: readonly ToolCall[], context: RoundContext): Promise<ExecutedCall[]> {
  const limit = context.options.maxConcurrent;
  const accepted = calls.slice(0, limit);
  const extra = calls.slice(limit).map((call) => {
    const canonicalName = context.host.findByFunctionName(call.name)?.canonicalName ?? call.name;
    return failed(call, canonicalName, 'over_limit', `Not executed: at most ${limit} calls run per round; call it again in a later round if it is still needed.`, false);
  });
  const executed = await Promise.all(accepted.map((call, index) => executeOne(call, index, context)));
  return [...executed, ...extra];
}
