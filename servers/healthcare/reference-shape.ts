// The answer layout of the reference healthcare-mcp server (healthcare-mcp-public, Node): every
// tool returns `JSON.stringify(result, null, 2)` of `{status: "success", ...}` or
// `{status: "error", error_message}`, and each tool catches its own failures as
// `"<what failed>: <message>"`. We keep that text exactly, and add what the reference did not:
// failures are `isError` results, and upstream outages carry their typed code in `_meta`.
import { STATUS_CODES } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, textResult, upstreamErrorResult } from '../shared/tool-result.js';
import { UpstreamClientError, UpstreamError } from '../shared/upstream-error.js';

export type Payload = Record<string, unknown>;

/** The reference's success object: `status` first, then the tool's fields in their order. */
export function success(fields: Payload): Payload {
  return { status: 'success', ...fields };
}

export function failure(message: string): Payload {
  return { status: 'error', error_message: message };
}

function toReferenceText(payload: Payload): string {
  return JSON.stringify(payload, null, 2);
}

/** A payload as the tool result; `status: "error"` payloads are error results. */
export function toResult(payload: Payload): CallToolResult {
  const text = toReferenceText(payload);
  return payload.status === 'error' ? errorResult(text) : textResult(text);
}

/**
 * The failure message after the prefix. A 4xx answer is worded as the reference's fetch helper
 * threw it (`HTTP 404: Not Found`, node-fetch's status text); everything else keeps its message.
 */
function failureMessage(error: unknown): string {
  if (error instanceof UpstreamClientError) return `HTTP ${error.status}: ${STATUS_CODES[error.status] ?? 'Error'}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a tool body and words its failures as the reference did (`"<prefix>: <message>"`).
 * Upstream outages (UpstreamError) stay typed in `_meta`; a 4xx such as openFDA's 404 "No matches
 * found" means what the model asked for does not exist, so it is an ordinary error result.
 */
export async function runReferenceTool(prefix: string, body: () => Promise<Payload> | Payload): Promise<CallToolResult> {
  try {
    return toResult(await body());
  } catch (error) {
    const text = toReferenceText(failure(`${prefix}: ${failureMessage(error)}`));
    return error instanceof UpstreamError ? upstreamErrorResult(error, text) : errorResult(text);
  }
}

/**
 * The reference's `sanitizeText`: drops empty entries, replaces huge HTML tables by a marker,
 * strips tags, collapses whitespace and cuts each entry to 1000 characters.
 */
export function sanitizeText(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const cleaned: string[] = [];
  for (const entry of value) {
    if (!entry) continue;
    const text = String(entry);
    const lower = text.toLowerCase();
    if (text.length > 5000 && (lower.includes('<table') || lower.includes('<td'))) {
      cleaned.push('[Table content removed due to size]');
      continue;
    }
    let clean = text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (clean.length > 1000) clean = `${clean.substring(0, 997)}...`;
    cleaned.push(clean);
  }
  return cleaned;
}

/** The reference's clamp of `max_results`: parseInt, below 1 → fallback, above max → max. */
export function clampCount(value: number | undefined, fallback: number, max: number): number {
  const parsed = value === undefined ? fallback : Math.trunc(value);
  if (Number.isNaN(parsed) || parsed < 1) return fallback;
  return Math.min(parsed, max);
}
