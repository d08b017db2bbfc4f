// Helpers every local server uses to answer in one shape: JSON text (which the reference's
// result normalisation expects), optional image content, and `isError` for failures.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function jsonResult(payload: unknown, images: Array<{ data: Buffer; mimeType: string }> = []): CallToolResult {
  return {
    content: [
      { type: 'text', text: JSON.stringify(payload) },
      ...images.map((image) => ({ type: 'image' as const, data: image.data.toString('base64'), mimeType: image.mimeType })),
    ],
  };
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs a tool body and turns any thrown error into an `isError` result with its message. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(error instanceof Error ? error.message : String(error));
  }
}
