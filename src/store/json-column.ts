// How values cross into and out of SQLite columns. Every JSON or free-text value is redacted on
// the way in, so no API key or authorization header reaches the file; reads are validated.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { redactText, toRedactedJson } from '../log/redact.js';

/**
 * JSON text for a column, after secret redaction; `undefined` becomes SQL NULL. With
 * `elideBase64`, long inline base64 payloads are replaced by a note first (see elideBase64Text).
 */
export function toJsonColumn(value: unknown, options: { elideBase64?: boolean } = {}): string | null {
  if (value === undefined) return null;
  return toRedactedJson(value, options.elideBase64 ? { before: elideBase64Text } : {}) ?? null;
}

/** Inline payloads shorter than this are kept verbatim. */
const elideBase64Over = 1024;

const base64Only = /^[A-Za-z0-9+/_-]+={0,2}$/;
const dataUrl = /^data:([^;,]+);base64,/;

/** The first 16 hex digits of the sha256 of some bytes: how elided payloads are named. */
function shortSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

function elisionNote(payload: string): string {
  const bytes = Buffer.from(payload, 'base64');
  return `[base64 elided: ${bytes.length} bytes, sha256 ${shortSha256(bytes)}]`;
}

/**
 * Replaces a long inline base64 payload (image data, a data URL) with a note of its size and
 * hash. Histories resend every image on every round, so keeping them would grow the store by
 * megabytes per model call; the image facts live in tool_calls.images.
 */
export function elideBase64Text(value: string): string {
  if (value.length < elideBase64Over) return value;
  const url = dataUrl.exec(value);
  if (url) return `data:${url[1] ?? ''};base64,${elisionNote(value.slice(url[0].length))}`;
  return base64Only.test(value) ? elisionNote(value) : value;
}

/** Free text for a column (error messages, tool results), after secret redaction. */
export function toTextColumn(value: string | undefined | null): string | null {
  return value === undefined || value === null ? null : redactText(value);
}

/** Timestamps are stored as ISO 8601 UTC text, which sorts in time order. */
export function toTimeColumn(value: Date | undefined): string {
  return (value ?? new Date()).toISOString();
}

export function toOptional<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

/** Reads a TEXT column holding JSON and validates the parsed value with `inner`. */
export function jsonColumn<T extends z.ZodType>(inner: T) {
  return z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        context.addIssue({ code: 'custom', message: `stored JSON does not parse: ${(error as Error).message}` });
        return z.NEVER;
      }
    })
    .pipe(inner);
}

/** A nullable JSON column: SQL NULL reads as `null`. */
export function nullableJsonColumn<T extends z.ZodType>(inner: T) {
  return z.union([z.null(), jsonColumn(inner)]);
}

/** SQLite has no boolean type; 0/1 integers read back as booleans. */
export const booleanColumn = z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1);
