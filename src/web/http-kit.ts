// Small HTTP helpers shared by the demo and the run viewer: bounded body reading, JSON replies with the security
// headers every response carries, and an error type that maps to a status code. Everything that
// reaches the page is serialised by `toPageJson`: secrets are redacted value by value before
// serialisation (never over the JSON text, which would break escaped quotes), and absolute
// machine paths become `./` (the repository, where servers run) or `~/` (the home folder).
import os from 'node:os';
import type http from 'node:http';
import type { z } from 'zod';
import { repoRoot } from '../config/paths.js';
import { toRedactedJson } from '../log/redact.js';

function escapeForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Longest prefix first, so the repository inside the home folder becomes `./`, not `~/…`. */
const machinePrefixes = [
  { prefix: repoRoot, replacement: '.' },
  { prefix: os.homedir(), replacement: '~' },
]
  .filter(({ prefix }) => prefix.length > 1)
  .sort((a, b) => b.prefix.length - a.prefix.length)
  .map(({ prefix, replacement }) => ({ pattern: new RegExp(`${escapeForRegExp(prefix)}(?![\\w.-])`, 'g'), replacement }));

function withoutMachinePaths(text: string): string {
  let out = text;
  for (const { pattern, replacement } of machinePrefixes) out = out.replace(pattern, replacement);
  return out;
}

/** The one serialisation of data for the page (JSON replies and server-sent events). */
export function toPageJson(value: unknown): string {
  return toRedactedJson(value, { rewrite: withoutMachinePaths });
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'bad_request',
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Headers for every response: no sniffing, no framing, no referrer, scripts and data only from us. */
export const securityHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
};

export function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  const text = toPageJson(body);
  response.writeHead(status, {
    ...securityHeaders,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function sendError(response: http.ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const status = error instanceof HttpError ? error.status : 500;
  const code = error instanceof HttpError ? error.code : 'internal_error';
  const message = error instanceof Error ? error.message : String(error);
  sendJson(response, status, { error: { code, message } });
}

/**
 * Reads a request body up to `limit` bytes. A declared Content-Length above the limit is
 * refused before any byte is read; a body that grows past it is cut off the same way (413).
 */
export async function readBody(request: http.IncomingMessage, limit: number, what: string): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(declared, limit, what);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      request.resume();
      throw tooLarge(size, limit, what);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(size: number, limit: number, what: string): HttpError {
  return new HttpError(413, `${what} is too large: ${formatBytes(size)}${size > limit ? '' : '+'} (the limit is ${formatBytes(limit)})`, 'too_large');
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** Parses a JSON request body against a zod schema; every problem names its field. */
export async function readJson<T extends z.ZodType>(request: http.IncomingMessage, schema: T, limit: number, what: string): Promise<z.output<T>> {
  const type = String(request.headers['content-type'] ?? '');
  // Requiring application/json also means a cross-site form can never post here without a CORS preflight.
  if (!/^application\/json\b/i.test(type))
    throw new HttpError(415, `${what}: send the body as application/json (got ${type || 'no content type'})`, 'unsupported_media_type');
  const body = await readBody(request, limit, what);
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new HttpError(400, `${what}: the body is not valid JSON (${(error as Error).message})`, 'invalid_json');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`);
    throw new HttpError(400, `${what}: ${problems.join('; ')}`, 'invalid_request');
  }
  return parsed.data;
}
