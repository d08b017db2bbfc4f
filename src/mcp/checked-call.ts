// The checked tool call: the one function every caller of a tool goes through (the agent's
// rounds, the demo's playground, `m3 tasks verify`, `m3 servers check --smoke`). It resolves
// the name (provider function name or canonical `server/tool`), normalises the arguments to an
// object, checks them against the tool's input schema, routes the call with the call context
// in its `_meta`, and returns every refusal as an ordinary error outcome with a code from
// src/core/tool-result-contract.ts. It never throws for a bad call.
//
// The interceptor is the single hook where a finished call is judged: it sees every call that
// was sent to a server (never a refusal, which is the model's doing) with its outcome, and
// returns the outcome to use, the same one or a replacement (the tool fallback layer serves a
// mock there for an infrastructure failure). Whatever it returns is what callers record.
import type { CallContext } from '../core/tool-result-contract.js';
import { toolErrorText, unknownToolText } from '../core/tool-result-contract.js';
import { checkerFor, toArgumentObject } from './argument-check.js';
import type { CatalogTool, ToolCallOutcome, ToolHost } from './types.js';

/** A call that reached (or tried to reach) its server, as the interceptor sees it. */
export interface FinishedToolCall {
  tool: CatalogTool;
  arguments: Record<string, unknown>;
  context: CallContext;
  outcome: ToolCallOutcome;
}

export interface ToolCallInterceptor {
  /**
   * Returns the outcome to record and show: `call.outcome` itself, or a replacement. It must
   * not throw (a throw ends the caller's episode as an internal error).
   */
  afterCall(call: FinishedToolCall, signal?: AbortSignal): Promise<ToolCallOutcome>;
}

export interface CheckedCallOptions {
  /** Which task the call belongs to and where its outputs go; sent to the server in `_meta`. */
  context: CallContext;
  /** Per-call timeout in ms (usually M3_TOOL_CALL_TIMEOUT); a server's own setting wins. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Set when the provider could not parse the model's argument JSON: refused, never sent. */
  argumentsError?: string;
  interceptor?: ToolCallInterceptor;
}

type RefusalReason = 'unknown_tool' | 'unparseable_arguments' | 'not_an_object' | 'schema_violation';

export interface CheckedCallOutcome extends ToolCallOutcome {
  /** The catalog entry the name resolved to; undefined for an unknown tool. */
  tool?: CatalogTool;
  /** Why the call was refused before it reached a server, with the bare reason (no prefix). */
  refusal?: { reason: RefusalReason; detail: string };
}

/** Finds a tool by the name a model or a file gave: function name first, then canonical. */
export function resolveTool(host: ToolHost, name: string): CatalogTool | undefined {
  return host.findByFunctionName(name) ?? host.findByCanonical(name);
}

function refused(canonicalName: string, reason: RefusalReason, detail: string, text: string, tool?: CatalogTool): CheckedCallOutcome {
  const errorCode = reason === 'unknown_tool' ? 'unknown_tool' : 'invalid_arguments';
  return {
    canonicalName,
    content: [{ type: 'text', text }],
    isError: true,
    errorCode,
    text,
    durationMs: 0,
    refusal: { reason, detail },
    ...(tool ? { tool } : {}),
  };
}

type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; outcome: CheckedCallOutcome };

/** Checks a call; returns the argument object to send, or the refusal. */
function checkCall(host: ToolHost, tool: CatalogTool, rawArguments: unknown, argumentsError: string | undefined): Checked {
  const name = tool.canonicalName;
  const invalid = (reason: RefusalReason, detail: string, shown = detail): Checked => ({
    ok: false,
    outcome: refused(name, reason, detail, toolErrorText(`Invalid arguments for ${name}: ${shown}`), tool),
  });
  if (argumentsError !== undefined) {
    return invalid('unparseable_arguments', argumentsError, `the arguments were not valid JSON (${argumentsError})`);
  }
  const normalized = toArgumentObject(rawArguments);
  if ('error' in normalized) return invalid('not_an_object', normalized.error);
  const problem = checkerFor(host).check(tool, normalized.args);
  if (problem !== undefined) return invalid('schema_violation', problem);
  return { ok: true, args: normalized.args };
}

export async function callCheckedTool(host: ToolHost, name: string, rawArguments: unknown, options: CheckedCallOptions): Promise<CheckedCallOutcome> {
  const tool = resolveTool(host, name);
  if (!tool) return refused(name, 'unknown_tool', name, unknownToolText(name));
  const checked = checkCall(host, tool, rawArguments, options.argumentsError);
  if (!checked.ok) return checked.outcome;
  const args = checked.args;
  const outcome = await host.callTool(tool.canonicalName, args, {
    context: options.context,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const judged = options.interceptor
    ? await options.interceptor.afterCall({ tool, arguments: args, context: options.context, outcome }, options.signal)
    : outcome;
  return { ...judged, tool };
}
