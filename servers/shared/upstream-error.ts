// The typed failures of an upstream web API. A web server of ours throws these (the shared HTTP
// client does, and so does `requireCredential`); `guarded` in tool-result.ts turns them into an
// `isError` result that carries the code in `_meta`, so the host and the fallback layer can tell
// "the API was down" from "the model asked for something that does not exist".
import type { z } from 'zod';
import type { UpstreamErrorCode } from '../../src/core/tool-result-contract.js';

export class UpstreamError extends Error {
  readonly code: UpstreamErrorCode;
  readonly status: number | undefined;
  readonly retryAfterSec: number | undefined;
  /** Host name of the upstream; never a URL (query strings can hold keys). */
  readonly upstream: string | undefined;
  /** The error answer's body, the request's secrets removed ('' when there was no answer). */
  readonly body: string;
  /** No retry can help (DNS failure, no route, the network guard, a refused destination). */
  readonly final: boolean;
  constructor(
    code: UpstreamErrorCode,
    message: string,
    options: { status?: number; retryAfterSec?: number; upstream?: string; cause?: unknown; body?: string; final?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UpstreamError';
    this.code = code;
    this.status = options.status;
    this.retryAfterSec = options.retryAfterSec;
    this.upstream = options.upstream;
    this.body = options.body ?? '';
    this.final = options.final ?? false;
  }
}

/**
 * An upstream answered 4xx other than 401/403/429: usually what the model asked for does not
 * exist or is malformed (404 for an unknown id, 400 for a bad date). Not infrastructure: the
 * server reports it as an ordinary tool error, in its own words.
 */
export class UpstreamClientError extends Error {
  readonly status: number;
  /** The answer's body, the request's secrets removed. */
  readonly body: string;
  readonly upstream: string;
  /** `said`: the vendor's own message from the body (vendor-message.ts), when the caller extracted it. */
  constructor(status: number, body: string, upstream: string, said: string = body.slice(0, 300)) {
    super(`${upstream} answered HTTP ${status}${said ? `: ${said}` : ''}`);
    this.name = 'UpstreamClientError';
    this.status = status;
    this.body = body;
    this.upstream = upstream;
  }
}

/**
 * Reads a credential from the server's own environment (set through its entry's `env` in
 * mcp_servers.json). Missing or blank: a typed `missing_credentials` failure naming the variable,
 * thrown at call time so the server still starts and lists its tools without the key.
 */
export function requireCredential(names: string | readonly string[], server: string, env: NodeJS.ProcessEnv = process.env): string {
  const list = typeof names === 'string' ? [names] : names;
  for (const name of list) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  const wanted = list.join(' or ');
  throw new UpstreamError(
    'missing_credentials',
    `${server}: no API key: set ${wanted} in the "env" of the "${server}" entry of mcp_servers.json (e.g. "${list[0]}": "\${${list[0]}}")`,
  );
}

/**
 * An upstream's answer checked against the shape the server reads: the parsed value, or
 * `upstream_bad_response` naming the upstream, what was asked and the first mismatch. The one
 * place servers turn a zod failure on an upstream body into that error.
 */
export function parseUpstream<S extends z.ZodType>(schema: S, body: unknown, upstream: string, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new UpstreamError(
    'upstream_bad_response',
    `${upstream}: the ${what} response has an unexpected shape (${parsed.error.issues[0]?.message ?? 'invalid'})`,
    {
      upstream,
    },
  );
}
