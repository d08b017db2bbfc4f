// The shared HTTP client of the web-API servers against a loopback fake: typed failures the
// fallback layer reads, retries that honour retry-after, the loopback guard, caps and caching.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, secondsToRetry } from '../../../servers/shared/http-client.js';
import { UpstreamClientError, UpstreamError, requireCredential } from '../../../servers/shared/upstream-error.js';
import { guarded } from '../../../servers/shared/tool-result.js';
import { readToolErrorMeta, isInfrastructureErrorCode } from '../../../src/core/tool-result-contract.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';

let fake: HttpFake;
const waits: number[] = [];
const client = () => createHttpClient({ server: 'test', retries: 2, timeoutMs: 300, maxWaitMs: 2000, env: {}, sleep: async (ms) => void waits.push(ms) });

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/ok', reply: (request) => ({ body: { echo: request.query } }) },
    { path: '/text', reply: { body: 'plain', headers: { 'content-type': 'text/plain' } } },
    { path: '/missing', reply: { status: 404, body: { message: 'no such page' } } },
    { path: '/slow', reply: { delayMs: 1000, body: {} } },
    { path: '/big', reply: { body: Buffer.alloc(5000) } },
  ]);
});
afterAll(() => fake.close());

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('shared HTTP client', () => {
  it('sends the query and a descriptive user agent and parses JSON', async () => {
    const response = await client().getJson<{ echo: Record<string, string> }>(`${fake.url}/ok`, { query: { q: 'tokyo', n: 3, skip: undefined } });
    expect(response.body.echo).toEqual({ q: 'tokyo', n: '3' });
    expect(fake.requestsTo('/ok').at(-1)?.headers['user-agent']).toMatch(/^m3bench-test\//);
  });

  it('retries a 429 after its retry-after and then succeeds', async () => {
    waits.length = 0;
    fake.queueFault('/ok', { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' });
    const response = await client().getJson(`${fake.url}/ok`);
    expect(response.status).toBe(200);
    expect(waits).toEqual([1000]);
  });

  it('backs off from backoffBaseMs, doubling, capped by maxWaitMs, when no retry-after is given', async () => {
    const slept: number[] = [];
    const backingOff = createHttpClient({
      server: 'test',
      retries: 3,
      timeoutMs: 300,
      maxWaitMs: 10_000,
      backoffBaseMs: 3000,
      env: {},
      sleep: async (ms) => void slept.push(ms),
    });
    fake.queueFault('/ok', { status: 503 }, 3);
    expect((await backingOff.getJson(`${fake.url}/ok`)).status).toBe(200);
    expect(slept).toEqual([3000, 6000, 10_000]);
  });

  it('gives up on a retry-after longer than it may wait, as a typed rate-limit error', async () => {
    fake.queueFault('/ok', { status: 429, headers: { 'retry-after': '3600' } });
    const error = await failure(client().getJson(`${fake.url}/ok`));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).code).toBe('upstream_rate_limited');
    expect((error as UpstreamError).retryAfterSec).toBe(3600);
  });

  it('classifies 401/403 as auth, 5xx as server errors after the retries, 404 as a client error', async () => {
    fake.queueFault('/ok', { status: 403 });
    expect(((await failure(client().getJson(`${fake.url}/ok`))) as UpstreamError).code).toBe('upstream_auth');
    waits.length = 0;
    fake.queueFault('/ok', { status: 503 }, 3);
    expect(((await failure(client().getJson(`${fake.url}/ok`))) as UpstreamError).code).toBe('upstream_server_error');
    expect(waits).toEqual([500, 1000]);
    const missing = await failure(client().getJson(`${fake.url}/missing`));
    expect(missing).toBeInstanceOf(UpstreamClientError);
    expect((missing as UpstreamClientError).status).toBe(404);
    const accepted = await client().getJson(`${fake.url}/missing`, { acceptStatus: [404] });
    expect(accepted.status).toBe(404);
  });

  it('types malformed JSON, timeouts, dropped sockets, refused connections and oversize bodies', async () => {
    expect(((await failure(client().getJson(`${fake.url}/text`))) as UpstreamError).code).toBe('upstream_bad_response');
    expect((await client().getText(`${fake.url}/text`)).body).toBe('plain');
    expect(((await failure(client().getJson(`${fake.url}/slow`))) as UpstreamError).code).toBe('upstream_timeout');
    fake.queueFault('/ok', { drop: true }, 3);
    expect(((await failure(client().getJson(`${fake.url}/ok`))) as UpstreamError).code).toBe('upstream_network');
    expect(((await failure(client().getJson('http://127.0.0.1:1/x'))) as UpstreamError).code).toBe('upstream_network');
    expect(((await failure(client().getBytes(`${fake.url}/big`, { maxBytes: 1000 }))) as UpstreamError).code).toBe('upstream_bad_response');
  });

  it('refuses non-loopback hosts under M3_NETWORK_GUARD=loopback without sending anything', async () => {
    const guarded = createHttpClient({ server: 'test', env: { M3_NETWORK_GUARD: 'loopback' } });
    const error = (await failure(guarded.getJson('https://en.wikipedia.org/w/api.php'))) as UpstreamError;
    expect(error.code).toBe('upstream_network');
    expect(error.message).toMatch(/network guard/);
    expect((await guarded.getJson(`${fake.url}/ok`)).status).toBe(200);
  });

  it('caches a GET for its TTL', async () => {
    const shared = client();
    const before = fake.requestsTo('/ok').length;
    await shared.getJson(`${fake.url}/ok`, { query: { c: 1 }, cacheTtlMs: 60_000 });
    await shared.getJson(`${fake.url}/ok`, { query: { c: 1 }, cacheTtlMs: 60_000 });
    expect(fake.requestsTo('/ok').length).toBe(before + 1);
  });

  it('parses retry-after as seconds or an HTTP date', () => {
    expect(secondsToRetry(new Headers({ 'retry-after': '7' }))).toBe(7);
    expect(secondsToRetry(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 0)).toBe(10);
    expect(secondsToRetry(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('upstream failures as tool results', () => {
  it('guarded() puts the code in _meta so the host reads it as infrastructure', async () => {
    const result = await guarded(async () => {
      throw new UpstreamError('upstream_rate_limited', 'api.example.org rate-limited the request (HTTP 429)', {
        status: 429,
        retryAfterSec: 5,
        upstream: 'api.example.org',
      });
    });
    expect(result.isError).toBe(true);
    const meta = readToolErrorMeta(result._meta);
    expect(meta).toEqual({ code: 'upstream_rate_limited', status: 429, retryAfterSec: 5, upstream: 'api.example.org' });
    expect(isInfrastructureErrorCode(meta?.code)).toBe(true);
  });

  it('a plain error carries no infrastructure code', async () => {
    const result = await guarded(async () => {
      throw new Error('no such park code');
    });
    expect(result.isError).toBe(true);
    expect(readToolErrorMeta(result._meta)).toBeUndefined();
  });

  it('requireCredential names the variable and the server entry', () => {
    expect(requireCredential(['A_KEY', 'B_KEY'], 'srv', { B_KEY: ' k ' })).toBe('k');
    let error: unknown;
    try {
      requireCredential('TMDB_API_KEY', 'tmdb', {});
    } catch (caught) {
      error = caught;
    }
    expect((error as UpstreamError).code).toBe('missing_credentials');
    expect((error as UpstreamError).message).toMatch(/TMDB_API_KEY.*"tmdb" entry of mcp_servers.json/);
  });
});
