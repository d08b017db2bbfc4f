// The one HTTP client every web-API server uses (Node's fetch underneath). It adds what each
// server would otherwise write again: a timeout per attempt, bounded retries with backoff that
// honour `retry-after` on 429 and 5xx (and timeouts) under the one policy of
// src/core/retry-policy.ts, a concurrency cap per upstream host, a
// descriptive User-Agent, an optional in-memory GET cache, and typed failures (upstream-error.ts)
// that keep the vendor's own error text, redacted. Caps on body size, redirects and time come
// from src/core/http-limits.ts, shared with the asset and dataset downloads.
//
// What fails at once, without retries (so the fallback layer serves the call at once): a DNS
// failure, no route, a refused connection to a non-loopback host, the network guard, and an
// upstream-named URL (`namedBy`) that points at a non-public address (http-destination.ts).
// Redirects are followed by hand, each hop checked; the caller's headers (keys, cookies) go only
// to the origin of the URL they were given for.
//
// Environment (read from the server's own process env):
//   M3_HTTP_TIMEOUT_MS      per-attempt timeout, default 20000
//   M3_HTTP_RETRIES         retries after the first attempt, default 2
//   M3_HTTP_MAX_WAIT_MS     longest single backoff / retry-after wait honoured, default 10000
//   M3_NETWORK_GUARD        "loopback": refuse every host that is not 127.0.0.0/8, ::1 or
//                           localhost (the test suite sets it so no server can reach the internet)
import type { z } from 'zod';
import { HTTP_LIMITS, capOf } from '../../src/core/http-limits.js';
import { retryAfterFromHeaders } from '../../src/core/retry-after.js';
import { type RetryLimits, withRetries } from '../../src/core/retry-policy.js';
import { sleep } from '../../src/core/sleep.js';
import { parseJsonText } from './http-body.js';
import { isLoopbackHostName, isUnreachableForGood, refusedNamedDestination, type Resolver } from './http-destination.js';
import { redactSecrets, requestSecrets, vendorMessage } from './vendor-message.js';
import { parseUpstream, UpstreamClientError, UpstreamError } from './upstream-error.js';

export type ResponseKind = 'json' | 'text' | 'bytes';

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Appended to the URL; undefined values are skipped, arrays repeat the key. */
  query?: Record<string, string | number | boolean | undefined | ReadonlyArray<string | number>>;
  headers?: Record<string, string>;
  /** JSON-encoded request body (sets content-type). */
  json?: unknown;
  /** Raw body (form-encoded strings etc.); give the content-type in headers. */
  body?: string;
  /** Cap on the response body; larger bodies fail as upstream_bad_response. Default 20 MiB. */
  maxBytes?: number;
  /** Cache a successful GET for this long (ms) in this process. */
  cacheTtlMs?: number;
  /** Status codes that are returned to the caller instead of thrown (e.g. 404 when "not found" is an answer). */
  acceptStatus?: readonly number[];
  /**
   * The URL came from an answer of the upstream configured at this base URL (a photo URL, a
   * download link): non-public destinations are refused on every hop unless that base is itself
   * non-public, and the caller's headers are sent only when the URL has the base's origin.
   */
  namedBy?: string;
}

/** A JSON request whose body must match `schema` (else `upstream_bad_response`, naming `what`). */
export interface JsonRequestOptions<S extends z.ZodType> extends RequestOptions {
  schema: S;
  /** What was asked, for the error message ("search", "object"); default the URL's path. */
  what?: string;
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
  url: string;
}

export interface HttpClientOptions {
  /** Names the server in the User-Agent and in error messages. */
  server: string;
  timeoutMs?: number;
  retries?: number;
  maxWaitMs?: number;
  /** Parallel requests per upstream host. Default 4. */
  maxConcurrentPerHost?: number;
  /** First backoff wait in ms (doubling per retry, capped by maxWaitMs). Default 500. */
  backoffBaseMs?: number;
  userAgent?: string;
  env?: NodeJS.ProcessEnv;
  /** For tests: replaces the sleep between retries. */
  sleep?: (ms: number) => Promise<void>;
  /** For tests: resolves host names for the upstream-named destination check. */
  resolve?: Resolver;
}

class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await work();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Seconds the upstream asked to wait (retry-after, through the one parser in src/core). */
export function secondsToRetry(headers: Headers, now = Date.now()): number | undefined {
  const ms = retryAfterFromHeaders(headers, now);
  return ms === undefined ? undefined : ms / 1000;
}

function buildUrl(url: string, query: RequestOptions['query']): URL {
  const target = new URL(url);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) target.searchParams.append(key, String(item));
    else target.searchParams.set(key, String(value));
  }
  return target;
}

async function readCapped(response: Response, maxBytes: number, upstream: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new UpstreamError('upstream_bad_response', `${upstream}: response of ${declared} bytes is over the ${maxBytes}-byte cap`, { upstream });
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.length;
    if (total > maxBytes) throw new UpstreamError('upstream_bad_response', `${upstream}: response is over the ${maxBytes}-byte cap`, { upstream });
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: string }).code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** One request as sent: its URL, the headers for its own origin, and what its secrets are. */
interface Prepared {
  target: URL;
  method: string;
  kind: ResponseKind;
  options: RequestOptions;
  headers: Record<string, string>;
  body: string | undefined;
  secrets: string[];
}

/** The failures worth another attempt; a final one (DNS failure, network guard, refused host) never is. */
const retriedCodes: ReadonlySet<string> = new Set(['upstream_network', 'upstream_timeout', 'upstream_rate_limited', 'upstream_server_error']);

export class HttpClient {
  private readonly timeoutMs: number;
  private readonly retry: RetryLimits;
  private readonly perHost: number;
  private readonly userAgent: string;
  private readonly guardLoopback: boolean;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly resolve: Resolver | undefined;
  private readonly semaphores = new Map<string, Semaphore>();
  private readonly cache = new Map<string, { expires: number; response: HttpResponse<unknown> }>();

  constructor(private readonly options: HttpClientOptions) {
    const env = options.env ?? process.env;
    this.timeoutMs = options.timeoutMs ?? envNumber(env, 'M3_HTTP_TIMEOUT_MS', HTTP_LIMITS.apiTimeoutMs);
    this.retry = {
      maxRetries: options.retries ?? envNumber(env, 'M3_HTTP_RETRIES', 2),
      baseDelayMs: options.backoffBaseMs ?? 500,
      maxDelayMs: options.maxWaitMs ?? envNumber(env, 'M3_HTTP_MAX_WAIT_MS', 10_000),
      // A retry-after longer than we are willing to wait fails now: the fallback layer or the
      // next task is better served by a prompt typed error than by a stalled call.
      longRetryAfter: 'give-up',
    };
    this.perHost = options.maxConcurrentPerHost ?? 4;
    this.userAgent = options.userAgent ?? `m3bench-${options.server}/0.1 (MCP benchmark server; https://github.com/EtaYang10th/Open-M3-Bench)`;
    this.guardLoopback = env.M3_NETWORK_GUARD === 'loopback';
    this.sleep = options.sleep ?? ((ms) => sleep(ms));
    this.resolve = options.resolve;
  }

  /** JSON, checked against `options.schema` when one is given (the body is then the parsed value). */
  getJson<S extends z.ZodType>(url: string, options: JsonRequestOptions<S>): Promise<HttpResponse<z.output<S>>>;
  getJson<T = unknown>(url: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  async getJson(url: string, options: RequestOptions | JsonRequestOptions<z.ZodType> = {}): Promise<HttpResponse<unknown>> {
    const response = await this.request<unknown>(url, 'json', options);
    if (!('schema' in options)) return response;
    const upstream = new URL(response.url).hostname;
    return { ...response, body: parseUpstream(options.schema, response.body, upstream, options.what ?? new URL(response.url).pathname) };
  }

  getText(url: string, options: RequestOptions = {}): Promise<HttpResponse<string>> {
    return this.request<string>(url, 'text', options);
  }

  getBytes(url: string, options: RequestOptions = {}): Promise<HttpResponse<Buffer>> {
    return this.request<Buffer>(url, 'bytes', options);
  }

  async request<T>(url: string, kind: ResponseKind, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const prepared = this.prepare(buildUrl(url, options.query), kind, options);
    const { target, method } = prepared;
    await this.checkDestination(target, options);
    const cacheKey = method === 'GET' && options.cacheTtlMs ? `${kind} ${target.href} ${JSON.stringify(options.headers ?? {})}` : undefined;
    const cached = cacheKey ? this.cache.get(cacheKey) : undefined;
    if (cached && cached.expires > Date.now()) return cached.response as HttpResponse<T>;
    let semaphore = this.semaphores.get(target.hostname);
    if (!semaphore) {
      semaphore = new Semaphore(this.perHost);
      this.semaphores.set(target.hostname, semaphore);
    }
    const response = await semaphore.run(() => this.withRetries<T>(prepared));
    if (cacheKey) this.cache.set(cacheKey, { expires: Date.now() + (options.cacheTtlMs ?? 0), response });
    return response;
  }

  private prepare(target: URL, kind: ResponseKind, options: RequestOptions): Prepared {
    const method = options.method ?? (options.json !== undefined || options.body !== undefined ? 'POST' : 'GET');
    // An upstream-named URL on another origin than its API's gets none of the caller's headers.
    const ownHeaders = options.namedBy === undefined || new URL(options.namedBy).origin === target.origin ? (options.headers ?? {}) : {};
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: kind === 'json' ? 'application/json' : '*/*', ...ownHeaders };
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    return { target, method, kind, options, headers, body, secrets: requestSecrets(options.headers, Object.fromEntries(target.searchParams)) };
  }

  /** The network guard and, for upstream-named URLs, the public-destination rule; both final. */
  private async checkDestination(url: URL, options: RequestOptions): Promise<void> {
    const host = url.hostname;
    if (this.guardLoopback && !isLoopbackHostName(host)) {
      throw new UpstreamError('upstream_network', `${this.options.server}: network guard: ${host} is not loopback (M3_NETWORK_GUARD=loopback)`, {
        upstream: host,
        final: true,
      });
    }
    if (options.namedBy === undefined) return;
    const refused = await refusedNamedDestination(url, options.namedBy, this.resolve);
    if (refused) {
      throw new UpstreamError('upstream_bad_response', `${this.options.server}: refused a URL the upstream named: ${refused}`, { upstream: host, final: true });
    }
  }

  private withRetries<T>(prepared: Prepared): Promise<HttpResponse<T>> {
    return withRetries(this.retry, () => this.once<T>(prepared), {
      classify: (error) =>
        error instanceof UpstreamError && !error.final && retriedCodes.has(error.code)
          ? { retryable: true, retryAfterMs: error.retryAfterSec !== undefined ? error.retryAfterSec * 1000 : undefined }
          : { retryable: false },
      sleep: this.sleep,
    });
  }

  /** fetch with redirects followed by hand: each hop checked, headers kept to their origin. */
  private async send(prepared: Prepared, signal: AbortSignal): Promise<Response> {
    let url = prepared.target;
    let { method, body } = prepared;
    for (let hop = 0; ; hop += 1) {
      if (hop > 0) await this.checkDestination(url, prepared.options);
      const sameOrigin = url.origin === prepared.target.origin;
      const headers = sameOrigin ? prepared.headers : { 'user-agent': this.userAgent, accept: prepared.headers.accept ?? '*/*' };
      let response: Response;
      try {
        response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), redirect: 'manual', signal });
      } catch (error) {
        if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
          throw new UpstreamError('upstream_timeout', `${url.hostname} did not answer within ${this.timeoutMs} ms`, { upstream: url.hostname, cause: error });
        }
        const final = isUnreachableForGood(error, url.hostname);
        throw new UpstreamError('upstream_network', `${url.hostname} unreachable: ${describeNetworkError(error)}`, {
          upstream: url.hostname,
          cause: error,
          final,
        });
      }
      const location = response.headers.get('location');
      if (!redirectStatuses.has(response.status) || !location) return response;
      await response.body?.cancel();
      if (hop >= HTTP_LIMITS.maxRedirects) {
        throw new UpstreamError('upstream_bad_response', `${prepared.target.hostname}: more than ${HTTP_LIMITS.maxRedirects} redirects`, {
          upstream: prepared.target.hostname,
          final: true,
        });
      }
      url = new URL(location, url);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  private async once<T>(prepared: Prepared): Promise<HttpResponse<T>> {
    const { target, kind, options } = prepared;
    const upstream = target.hostname;
    const response = await this.send(prepared, AbortSignal.timeout(this.timeoutMs));
    const status = response.status;
    const accepted = options.acceptStatus?.includes(status) ?? false;
    if (!response.ok && !accepted) await this.throwForStatus(response, upstream, prepared.secrets);
    let bytes: Buffer;
    try {
      bytes = await readCapped(response, capOf(options.maxBytes ?? HTTP_LIMITS.apiDefaultBodyBytes, HTTP_LIMITS.apiBodyBytes), upstream);
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw new UpstreamError('upstream_timeout', `${upstream}: the response body did not arrive: ${describeNetworkError(error)}`, { upstream, cause: error });
    }
    let parsed: unknown = bytes;
    if (kind === 'text') parsed = bytes.toString('utf8');
    if (kind === 'json') {
      const text = bytes.toString('utf8');
      parsed = text.trim() === '' ? null : parseJsonText({ text, upstream, status, secrets: prepared.secrets });
    }
    return { status, headers: response.headers, body: parsed as T, url: response.url || target.href };
  }

  /** A typed failure for an error status, carrying the vendor's own message with the request's secrets removed. */
  private async throwForStatus(response: Response, upstream: string, secrets: readonly string[]): Promise<never> {
    const status = response.status;
    const text = redactSecrets((await response.text().catch(() => '')).slice(0, 4000), secrets);
    const said = vendorMessage(text);
    const saying = said ? `: ${said}` : '';
    const retryAfterSec = secondsToRetry(response.headers);
    const extra = { status, upstream, body: text, ...(retryAfterSec !== undefined ? { retryAfterSec } : {}) };
    if (status === 429) throw new UpstreamError('upstream_rate_limited', `${upstream} rate-limited the request (HTTP 429)${saying}`, extra);
    if (status === 401 || status === 403) throw new UpstreamError('upstream_auth', `${upstream} refused the credentials (HTTP ${status})${saying}`, extra);
    if (status >= 500) throw new UpstreamError('upstream_server_error', `${upstream} failed with HTTP ${status}${saying}`, extra);
    throw new UpstreamClientError(status, text, upstream, said);
  }
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  return new HttpClient(options);
}

/** A base URL from the server's env (for tests and mirrors), else the upstream's own. Trailing slashes dropped. */
export function upstreamBaseUrl(envName: string, fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[envName]?.trim();
  return (configured || fallback).replace(/\/+$/, '');
}
