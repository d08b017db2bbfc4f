// The one HTTP client every web-API server uses (Node's fetch underneath). It adds what each
// server would otherwise write again: a timeout per attempt, bounded retries with backoff that
// honour `retry-after` on 429 and 5xx, a concurrency cap per upstream host, a descriptive
// User-Agent, an optional in-memory GET cache, and typed failures (upstream-error.ts).
//
// Environment (read from the server's own process env):
//   M3_HTTP_TIMEOUT_MS      per-attempt timeout, default 20000
//   M3_HTTP_RETRIES         retries after the first attempt, default 2
//   M3_HTTP_MAX_WAIT_MS     longest single backoff / retry-after wait honoured, default 10000
//   M3_NETWORK_GUARD        "loopback": refuse every host that is not 127.0.0.0/8, ::1 or
//                           localhost (the test suite sets it so no server can reach the internet)
import { UpstreamClientError, UpstreamError } from './upstream-error.js';

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
}

const loopbackHost = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)$/i;

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

/** Seconds from a retry-after header (delta seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
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

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: string }).code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

export class HttpClient {
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly maxWaitMs: number;
  private readonly perHost: number;
  private readonly backoffBaseMs: number;
  private readonly userAgent: string;
  private readonly guardLoopback: boolean;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly semaphores = new Map<string, Semaphore>();
  private readonly cache = new Map<string, { expires: number; response: HttpResponse<unknown> }>();

  constructor(private readonly options: HttpClientOptions) {
    const env = options.env ?? process.env;
    this.timeoutMs = options.timeoutMs ?? envNumber(env, 'M3_HTTP_TIMEOUT_MS', 20_000);
    this.retries = options.retries ?? envNumber(env, 'M3_HTTP_RETRIES', 2);
    this.maxWaitMs = options.maxWaitMs ?? envNumber(env, 'M3_HTTP_MAX_WAIT_MS', 10_000);
    this.perHost = options.maxConcurrentPerHost ?? 4;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.userAgent = options.userAgent ?? `m3bench-${options.server}/0.1 (MCP benchmark server; https://github.com/EtaYang10th/Open-M3-Bench)`;
    this.guardLoopback = env.M3_NETWORK_GUARD === 'loopback';
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  getJson<T = unknown>(url: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return this.request<T>(url, 'json', options);
  }

  getText(url: string, options: RequestOptions = {}): Promise<HttpResponse<string>> {
    return this.request<string>(url, 'text', options);
  }

  getBytes(url: string, options: RequestOptions = {}): Promise<HttpResponse<Buffer>> {
    return this.request<Buffer>(url, 'bytes', options);
  }

  async request<T>(url: string, kind: ResponseKind, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const target = buildUrl(url, options.query);
    const upstream = target.hostname;
    if (this.guardLoopback && !loopbackHost.test(upstream)) {
      throw new UpstreamError('upstream_network', `${this.options.server}: network guard: ${upstream} is not loopback (M3_NETWORK_GUARD=loopback)`, {
        upstream,
      });
    }
    const method = options.method ?? (options.json !== undefined || options.body !== undefined ? 'POST' : 'GET');
    const cacheKey = method === 'GET' && options.cacheTtlMs ? `${kind} ${target.href} ${JSON.stringify(options.headers ?? {})}` : undefined;
    const cached = cacheKey ? this.cache.get(cacheKey) : undefined;
    if (cached && cached.expires > Date.now()) return cached.response as HttpResponse<T>;
    let semaphore = this.semaphores.get(upstream);
    if (!semaphore) {
      semaphore = new Semaphore(this.perHost);
      this.semaphores.set(upstream, semaphore);
    }
    const response = await semaphore.run(() => this.withRetries<T>(target, method, kind, options));
    if (cacheKey) this.cache.set(cacheKey, { expires: Date.now() + (options.cacheTtlMs ?? 0), response });
    return response;
  }

  private async withRetries<T>(target: URL, method: string, kind: ResponseKind, options: RequestOptions): Promise<HttpResponse<T>> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.once<T>(target, method, kind, options);
      } catch (error) {
        const retryable =
          error instanceof UpstreamError && ['upstream_network', 'upstream_timeout', 'upstream_rate_limited', 'upstream_server_error'].includes(error.code);
        if (!retryable || attempt >= this.retries) throw error;
        // A retry-after longer than we are willing to wait fails now: the fallback layer or the
        // next task is better served by a prompt typed error than by a stalled call.
        const wait = error.retryAfterSec !== undefined ? error.retryAfterSec * 1000 : Math.min(this.maxWaitMs, this.backoffBaseMs * 2 ** attempt);
        if (wait > this.maxWaitMs) throw error;
        await this.sleep(wait);
      }
    }
  }

  private async once<T>(target: URL, method: string, kind: ResponseKind, options: RequestOptions): Promise<HttpResponse<T>> {
    const upstream = target.hostname;
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: kind === 'json' ? 'application/json' : '*/*', ...(options.headers ?? {}) };
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(target, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        redirect: 'follow',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new UpstreamError('upstream_timeout', `${upstream} did not answer within ${this.timeoutMs} ms`, { upstream, cause: error });
      }
      throw new UpstreamError('upstream_network', `${upstream} unreachable: ${describeNetworkError(error)}`, { upstream, cause: error });
    }
    const status = response.status;
    const accepted = options.acceptStatus?.includes(status) ?? false;
    if (!response.ok && !accepted) await this.throwForStatus(response, upstream);
    let bytes: Buffer;
    try {
      bytes = await readCapped(response, options.maxBytes ?? 20 * 1024 * 1024, upstream);
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw new UpstreamError('upstream_timeout', `${upstream}: the response body did not arrive: ${describeNetworkError(error)}`, { upstream, cause: error });
    }
    let parsed: unknown = bytes;
    if (kind === 'text') parsed = bytes.toString('utf8');
    if (kind === 'json') {
      const text = bytes.toString('utf8');
      try {
        parsed = text.trim() === '' ? null : JSON.parse(text);
      } catch {
        throw new UpstreamError('upstream_bad_response', `${upstream} answered HTTP ${status} with a body that is not JSON: ${text.slice(0, 120)}`, {
          upstream,
          status,
        });
      }
    }
    return { status, headers: response.headers, body: parsed as T, url: response.url || target.href };
  }

  private async throwForStatus(response: Response, upstream: string): Promise<never> {
    const status = response.status;
    const text = (await response.text().catch(() => '')).slice(0, 2000);
    const retryAfterSec = parseRetryAfter(response.headers.get('retry-after'));
    const extra = { status, upstream, ...(retryAfterSec !== undefined ? { retryAfterSec } : {}) };
    if (status === 429) throw new UpstreamError('upstream_rate_limited', `${upstream} rate-limited the request (HTTP 429)`, extra);
    if (status === 401 || status === 403) throw new UpstreamError('upstream_auth', `${upstream} refused the credentials (HTTP ${status})`, extra);
    if (status >= 500) throw new UpstreamError('upstream_server_error', `${upstream} failed with HTTP ${status}`, extra);
    throw new UpstreamClientError(status, text, upstream);
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
