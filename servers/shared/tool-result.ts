// Helpers every local server uses to answer in one shape: JSON text (which the reference's
// result normalisation expects), optional image content, and `isError` for failures. Upstream
// failures (upstream-error.ts) carry their code in `_meta` so the host can tell them apart
// from errors the model caused.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_ERROR_META_KEY, TOOL_PATHS_META_KEY, type ToolErrorMeta } from '../../src/core/tool-result-contract.js';
import { collectPathMappings } from './task-paths.js';
import { UpstreamError } from './upstream-error.js';

export function jsonResult(payload: unknown, images: Array<{ data: Buffer; mimeType: string }> = []): CallToolResult {
  return {
    content: [
      { type: 'text', text: JSON.stringify(payload) },
      ...images.map((image) => ({ type: 'image' as const, data: image.data.toString('base64'), mimeType: image.mimeType })),
    ],
  };
}

/** Plain text, as servers that answer in prose or Markdown do. */
export function textResult(text: string, images: Array<{ data: Buffer; mimeType: string }> = []): CallToolResult {
  return {
    content: [{ type: 'text', text }, ...images.map((image) => ({ type: 'image' as const, data: image.data.toString('base64'), mimeType: image.mimeType }))],
  };
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * An infrastructure failure of the upstream: an error result with its code in `_meta`. `text`
 * replaces the message for servers whose reference wrapped errors in its own layout.
 */
export function upstreamErrorResult(error: UpstreamError, text: string = error.message): CallToolResult {
  const meta: ToolErrorMeta = {
    code: error.code,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.retryAfterSec !== undefined ? { retryAfterSec: error.retryAfterSec } : {}),
    ...(error.upstream !== undefined ? { upstream: error.upstream } : {}),
  };
  return { content: [{ type: 'text', text }], isError: true, _meta: { [TOOL_ERROR_META_KEY]: meta } };
}

async function settled(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UpstreamError) return upstreamErrorResult(error);
    return errorResult(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Runs a tool body and turns any thrown error into an `isError` result with its message; the
 * file arguments the call mapped into its task's workspace go in `_meta` (task-paths.ts).
 */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  const { value, mappings } = await collectPathMappings(() => settled(body));
  return mappings.length === 0 ? value : { ...value, _meta: { ...value._meta, [TOOL_PATHS_META_KEY]: mappings } };
}
