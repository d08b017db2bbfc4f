// Our re-implementations of the reference's Python (FastMCP) servers answer in the layouts Python
// produced there: a tool that returns a dict is sent as one text part holding the dict as JSON
// indented by two spaces (pydantic_core.to_json(indent=2), non-ASCII kept as is), and values put
// into f-strings print as Python's str() prints them (None, True, False).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textResult } from './tool-result.js';

export function fastMcpJsonResult(payload: unknown, images: Array<{ data: Buffer; mimeType: string }> = []): CallToolResult {
  return textResult(JSON.stringify(payload, null, 2), images);
}

/** Python's str() of a JSON value, as the reference's f-strings printed it. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Python's json.dumps(value, ensure_ascii=False): compact JSON with ", " and ": " separators. */
export function pyJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pyJsonDumps(item)}`)
      .join(', ')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}
