// One file over HTTP, streamed into a temp file while hashing, renamed onto the target only when
// its content matches what was expected. With `resume`, the temp file is `<target>.part`: it
// survives an interrupted or killed download and the next attempt continues it with an HTTP
// Range request (RFC 9110 §14), hashing the bytes already there first, so the check after the
// last byte still covers the whole file. Redirects are followed by hand so that the headers of
// each hop are chosen for that hop's host (a token for one host never follows a redirect to
// another). Failures are typed (`DownloadError.kind`) so each caller words its own message.
// Caps come from src/core/http-limits.ts (shared with the web-API servers' client): redirects,
// the time of one attempt, and the body size: a `Content-Length` over the cap, or different from
// an expected size, is refused before a byte is written, and a body is cut off one byte past the
// expected size (or the cap), so a lying or endless server cannot fill the disk. Before the
// rename the temp file is hashed again from disk, so the bytes placed are the bytes checked even
// if something else wrote to the temp file meanwhile.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Transform } from 'node:stream';
import { HTTP_LIMITS, capOf } from '../core/http-limits.js';
import { M3Error } from '../errors/index.js';
import { ContentHasher, contentMismatch, type ContentDigest, type ExpectedContent } from './content-hash.js';

export type DownloadFailure = 'unreachable' | 'http' | 'interrupted' | 'mismatch' | 'redirects' | 'too-large';

export class DownloadError extends M3Error {
  readonly kind: DownloadFailure;
  /** The URL of the hop that failed (a CDN after a redirect, say). */
  readonly url: string;
  /** HTTP status and reason phrase for `http` failures, e.g. `404 Not Found`. */
  readonly status: string | undefined;
  readonly actual: ContentDigest | undefined;
  constructor(kind: DownloadFailure, url: string, message: string, options: { cause?: unknown; status?: string; actual?: ContentDigest } = {}) {
    super('download', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.url = url;
    this.status = options.status;
    this.actual = options.actual;
  }
}

export interface HttpDownloadRequest {
  url: string;
  target: string;
  expected: ExpectedContent;
  /** Fills what `expected` leaves open from the first response's headers (e.g. a hub's linked etag). */
  expectedFromResponse?: (headers: Headers) => ExpectedContent;
  /** Keep the temp file (`partFile`, default `<target>.part`) on failure and continue it next time. */
  resume: boolean;
  /** The resumable temp file; a caller whose targets are named by others picks a name they cannot take. */
  partFile?: string;
  /** Headers for one hop, chosen by its URL; called again after every redirect. */
  headersFor?: (url: URL) => Record<string, string>;
  fetch?: typeof fetch;
  /** Time of one attempt; at most HTTP_LIMITS.downloadTimeoutMs unless given. */
  timeoutMs?: number;
  /** Largest body written; never above HTTP_LIMITS.downloadBodyBytes. */
  maxBytes?: number;
  onBytes?: (bytes: number) => void;
}

export interface HttpDownloadResult extends ContentDigest {
  /** Bytes that were already in `<target>.part` and were not fetched again. */
  resumedFrom: number;
  /** Headers of the first response (before any redirect). */
  firstHeaders: Headers;
}

const maxRedirects = HTTP_LIMITS.maxRedirects;

function partFileOf(target: string): string {
  return `${target}.part`;
}

/** Why fetch itself threw (refused, DNS, TLS...): the innermost cause is the useful one. */
export function networkReason(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof Error) {
    const code = (current as NodeJS.ErrnoException).code;
    return code && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
  }
  return String(error);
}

async function followRedirects(
  request: HttpDownloadRequest,
  offset: number,
  signal: AbortSignal,
): Promise<{ response: Response; url: string; firstHeaders: Headers }> {
  const fetchImpl = request.fetch ?? fetch;
  let url = new URL(request.url);
  let firstHeaders: Headers | undefined;
  for (let hop = 0; hop <= maxRedirects; hop += 1) {
    const headers: Record<string, string> = { 'accept-encoding': 'identity', ...(request.headersFor?.(url) ?? {}) };
    if (offset > 0) headers.range = `bytes=${offset}-`;
    let response: Response;
    try {
      response = await fetchImpl(url, { headers, redirect: 'manual', signal });
    } catch (error) {
      throw new DownloadError('unreachable', url.href, `cannot reach ${url.host} (${networkReason(error)})`, { cause: error });
    }
    firstHeaders ??= response.headers;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    return { response, url: url.href, firstHeaders };
  }
  throw new DownloadError('redirects', request.url, `more than ${maxRedirects} redirects from ${request.url}`);
}

/** Start of a `Content-Range: bytes <start>-<end>/<total>` answer. */
function rangeStart(response: Response): number | undefined {
  const match = /^bytes\s+(\d+)-\d+\/(?:\d+|\*)$/i.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
}

async function hashExisting(file: string, hasher: ContentHasher): Promise<void> {
  await pipeline(createReadStream(file), hasher.sink());
}

async function existingPartSize(part: string, expected: ExpectedContent): Promise<number> {
  if (!existsSync(part)) return 0;
  const size = (await stat(part)).size;
  // A part longer than the whole file cannot be continued.
  if (expected.bytes !== undefined && size > expected.bytes) {
    await rm(part, { force: true });
    return 0;
  }
  return size;
}

/** The bytes now in the temp file, hashed again (with the git blob id, the size now being known). */
async function onDiskDigest(part: string, streamed: ContentDigest, url: string): Promise<ContentDigest> {
  const again = new ContentHasher(streamed.bytes);
  await hashExisting(part, again);
  const digest = again.digest();
  if (digest.sha256 !== streamed.sha256 || digest.bytes !== streamed.bytes) {
    await rm(part, { force: true });
    throw new DownloadError(
      'mismatch',
      url,
      `the temp file ${part} changed on disk while downloading (another process writing to it?); the file was not placed`,
    );
  }
  return digest;
}

async function finish(part: string, target: string, hasher: ContentHasher, expected: ExpectedContent, url: string): Promise<ContentDigest> {
  const actual = await onDiskDigest(part, hasher.digest(), url);
  const problem = contentMismatch(expected, actual);
  if (problem) {
    await rm(part, { force: true });
    throw new DownloadError('mismatch', url, `${problem} (${actual.bytes} bytes received); the file was not placed`, { actual });
  }
  await rename(part, target);
  return actual;
}

/** The most bytes this response may carry: the expected size (plus what a resumed part holds is already counted), else the cap. */
function bodyLimit(request: HttpDownloadRequest, expected: ExpectedContent): number {
  const cap = capOf(request.maxBytes, HTTP_LIMITS.downloadBodyBytes);
  return expected.bytes === undefined ? cap : Math.min(expected.bytes, cap);
}

/** Refuses a declared length the download cannot accept, before anything is written. */
function checkDeclaredLength(response: Response, url: string, limit: number, expected: ExpectedContent, offset: number): void {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!Number.isFinite(declared)) return;
  const whole = offset + declared;
  if (whole > limit || (expected.bytes !== undefined && whole !== expected.bytes)) {
    const wanted = expected.bytes !== undefined ? `the expected ${expected.bytes} bytes` : `the ${limit}-byte cap`;
    throw new DownloadError('too-large', url, `${url} announced ${whole} bytes where ${wanted} were allowed; nothing was written`);
  }
}

/** Passes bytes through until `limit` (counting `already`), then fails the pipeline. */
function byteLimit(limit: number, already: number, url: string): Transform {
  let seen = already;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new DownloadError('too-large', url, `${url} sent more than ${limit} bytes; the download was cut off`));
      else callback(null, chunk);
    },
  });
}

async function attempt(request: HttpDownloadRequest, part: string, offset: number): Promise<HttpDownloadResult> {
  const signal = AbortSignal.timeout(request.timeoutMs ?? HTTP_LIMITS.downloadTimeoutMs);
  const { response, url, firstHeaders } = await followRedirects(request, offset, signal);
  const expected = { ...request.expectedFromResponse?.(firstHeaders), ...request.expected };
  const hasher = new ContentHasher(expected.bytes);
  if (response.status === 416 && offset > 0) {
    await response.body?.cancel();
    // The part already holds every byte (or is wrong): the final check decides.
    await hashExisting(part, hasher);
    return { ...(await finish(part, request.target, hasher, expected, url)), resumedFrom: offset, firstHeaders };
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    const status = `${response.status} ${response.statusText}`.trim();
    throw new DownloadError('http', url, `${url} answered HTTP ${status}`, { status });
  }
  const continues = offset > 0 && response.status === 206 && rangeStart(response) === offset;
  if (offset > 0 && response.status === 206 && !continues) {
    await response.body.cancel();
    await rm(part, { force: true });
    return attempt(request, part, 0);
  }
  const resumedFrom = continues ? offset : 0;
  const limit = bodyLimit(request, expected);
  try {
    checkDeclaredLength(response, url, limit, expected, resumedFrom);
  } catch (error) {
    await response.body.cancel();
    throw error;
  }
  if (continues) await hashExisting(part, hasher);
  try {
    const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    await pipeline(body, byteLimit(limit, resumedFrom, url), hasher.tap(request.onBytes), createWriteStream(part, { flags: continues ? 'a' : 'w' }));
  } catch (error) {
    if (error instanceof DownloadError) {
      await rm(part, { force: true });
      throw error;
    }
    if (!request.resume) await rm(part, { force: true });
    const kept = request.resume ? `; ${hasher.bytes} bytes kept in ${part} for the next attempt` : '';
    throw new DownloadError('interrupted', url, `download from ${url} broke off after ${hasher.bytes - resumedFrom} bytes (${networkReason(error)})${kept}`, {
      cause: error,
    });
  }
  return { ...(await finish(part, request.target, hasher, expected, url)), resumedFrom, firstHeaders };
}

/** Downloads `request.url` to `request.target`; see the file header for the guarantees. */
export async function downloadVerified(request: HttpDownloadRequest): Promise<HttpDownloadResult> {
  await mkdir(path.dirname(request.target), { recursive: true });
  if (!request.resume) {
    const temp = `${request.target}.part-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      return await attempt(request, temp, 0);
    } finally {
      await rm(temp, { force: true });
    }
  }
  const part = request.partFile ?? partFileOf(request.target);
  await mkdir(path.dirname(part), { recursive: true });
  const offset = await existingPartSize(part, request.expected);
  try {
    return await attempt(request, part, offset);
  } catch (error) {
    // A continued part that fails the check may hold bytes of an older version: start over once.
    if (offset > 0 && error instanceof DownloadError && error.kind === 'mismatch') return attempt(request, part, 0);
    throw error;
  }
}
