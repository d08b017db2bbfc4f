// How the reference's FastMCP (mcp 1.6) turned a tool's Python return value into MCP content:
// a list becomes one text part per item (each dict as `pydantic_core.to_json(indent=2)`), so an
// empty list is no content at all; a str is one text part as it is; a dict one JSON part. An
// exception became `Error executing tool <name>: <message>` with isError.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toPythonJson } from '../shared/python-format.js';
import { fastMcpToolErrorText } from '../shared/reference-errors.js';
import { errorResult, upstreamErrorResult } from '../shared/tool-result.js';
import { UpstreamError } from '../shared/upstream-error.js';

export function listResult(items: readonly Record<string, unknown>[]): CallToolResult {
  return { content: items.map((item) => ({ type: 'text' as const, text: toPythonJson(item) })) };
}

export function stringResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function dictResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: toPythonJson(value) }] };
}

/** A failure the reference returned as a plain string (no FastMCP wording): an error result with that text. */
export class ReferenceRefusal extends Error {}

/**
 * Runs a tool body; a thrown error is answered as FastMCP worded it. Upstream outages keep their
 * typed code in `_meta` (the reference printed them or returned [] instead).
 */
export async function runFastMcpTool(tool: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ReferenceRefusal) return errorResult(error.message);
    const text = fastMcpToolErrorText(tool, error instanceof Error ? error.message : String(error));
    return error instanceof UpstreamError ? upstreamErrorResult(error, text) : errorResult(text);
  }
}
