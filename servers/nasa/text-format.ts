// The reference nasa-mcp server's text conventions, shared by its text tools.
//
// Its multi-line answers are joined with the letter "n", not a newline (`"n".join(lines)`, the
// backslash is missing in the vendored source and in the upstream it was copied from), and some
// lines start with a literal "n" that was meant as a blank line. A model saw exactly that text,
// so we build the same: `joinReferenceLines` and the "n" prefixes in the tools are deliberate.
//
// Values are printed as Python's f-strings print them (`None`, `True`, `643.0`). Where the
// reference would crash on a JSON null (`None.get(...)`, `None[:5]`), the null reads as missing.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { pythonGet, pythonStr, pythonTruthy } from '../shared/python-format.js';
import { errorResult, textResult } from '../shared/tool-result.js';
import type { NasaAnswer, NasaApi } from './nasa-api.js';

export const SEPARATOR = '-'.repeat(40);

export interface NasaTool {
  name: string;
  description: string;
  shape: Record<string, z.ZodType>;
  run: (api: NasaApi, args: Record<string, unknown>) => Promise<CallToolResult>;
}

/** `"n".join(lines)`, as the reference joined its lines. */
export function joinReferenceLines(lines: readonly string[]): string {
  return lines.join('n');
}

/** `record.get(key, fallback)` printed by an f-string (a present null prints "None"). */
export function field(record: unknown, key: string, fallback = 'Unknown'): string {
  return pythonStr(pythonGet(record, key, fallback));
}

/** `record.get(a, {}).get(b, {})...get(last, fallback)`; a null on the way reads as `{}`. */
export function nestedField(record: unknown, path: readonly string[], fallback = 'Unknown'): string {
  let current: unknown = record;
  for (const key of path.slice(0, -1)) current = pythonGet(current, key, {}) ?? {};
  return pythonStr(pythonGet(current, path.at(-1) ?? '', fallback));
}

/** A list field, with a null or missing list read as empty. */
export function listField(record: unknown, key: string): unknown[] {
  const value = pythonGet(record, key, []);
  return Array.isArray(value) ? value : [];
}

/**
 * The checks every reference text tool ran on an answer before formatting it: an HTTP error
 * becomes "API Error: ..." (an ordinary tool error), a falsy body (an empty list included) the
 * tool's "connection error" sentence, which the reference printed even though nothing failed.
 */
export function textOutcome(answer: NasaAnswer, emptyMessage: string): { data: unknown } | { result: CallToolResult } {
  if (answer.kind === 'http_error') return { result: errorResult(`API Error: ${answer.error} - Details: ${pythonStr(answer.details)}`) };
  if (!pythonTruthy(answer.data)) return { result: textResult(emptyMessage) };
  return { data: answer.data };
}
