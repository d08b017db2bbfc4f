// The reference's Python servers are FastMCP servers; a tool there that returns a dict is sent as
// one text part holding the dict as JSON indented by two spaces (pydantic_core.to_json(indent=2),
// non-ASCII kept as is). Our re-implementations of such tools answer in the same layout.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textResult } from './tool-result.js';

export function fastMcpJsonResult(payload: unknown, images: Array<{ data: Buffer; mimeType: string }> = []): CallToolResult {
  return textResult(JSON.stringify(payload, null, 2), images);
}
