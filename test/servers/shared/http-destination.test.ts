// The shared HTTP client's limits on where it goes and how long it tries (issue 31 item 1,
// issue 30 defect 9): a host that cannot be reached for a reason no retry fixes fails at once;
// URLs an upstream named never reach a non-public address unless the configured upstream is one;
// the caller's headers (keys) stay on their own origin across redirects; redirects are capped;
// and an error answer keeps the vendor's own words, with the request's secrets removed.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../servers/shared/http-client.js';
import { isNonPublicAddress, refusedNamedDestination } from '../../../servers/shared/http-destination.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { UpstreamClientError, type UpstreamError } from '../../../servers/shared/upstream-error.js';
import { repoRoot } from '../../support/shared-assets.js';

let fake: HttpFake;
const sleeps: number[] = [];
const client = () => createHttpClient({ server: 'test', retries: 3, timeoutMs: 2000, env: {}, sleep: async (ms) => void sleeps.push(ms) });
const KEY = 'k3y-8d1f0c2b9e';

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/hop', reply: () => ({ status: 302, headers: { location: `${fake.url.replace('127.0.0.1', 'localhost')}/landing` } }) },
    { path: '/landing', reply: { body: { landed: true } } },
    { path: '/loop', reply: { status: 302, headers: { location: '/loop' } } },
    { path: '/same-origin-hop', reply: { status: 307, headers: { location: '/landing' } } },
  ]);
});
afterAll(() => fake.close());

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => new Error('no failure'),
    (error: unknown) => error as Error,
  );
}

const canUnshare = spawnSync('unshare', ['-rn', 'true']).status === 0;

describe('unreachable for good fails at once', () => {
  it.skipIf(!canUnshare)('a DNS failure (no network namespace) is final: no retry, no backoff', () => {
    const probe = spawnSync('unshare', ['-rn', process.execPath, '--import', 'tsx', 'test/support/offline-fetch-child.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, M3_NETWORK_GUARD: '' },
    });
    const result = JSON.parse(probe.stdout) as { code: string; final: boolean; sleeps: number[]; message: string };
    expect(result.code, probe.stderr).toBe('upstream_network');
    expect(result.message).toMatch(/export\.arxiv\.org unreachable: .*(ENOTFOUND|EAI_AGAIN)/);
    expect(result.final).toBe(true);
    expect(result.sleeps).toEqual([]);
  });

  it('the network guard is final; a refused loopback port (a fake still starting) is retried', async () => {
    sleeps.length = 0;
    const guarded = createHttpClient({ server: 'test', retries: 3, env: { M3_NETWORK_GUARD: 'loopback' }, sleep: async (ms) => void sleeps.push(ms) });
    const error = (await failure(guarded.getJson('https://api.nasa.gov/planetary/apod'))) as UpstreamError;
    expect([error.code, error.final, sleeps]).toEqual(['upstream_network', true, []]);
    const refused = (await failure(client().getJson('http://127.0.0.1:1/x'))) as UpstreamError;
    expect([refused.code, refused.final, sleeps]).toEqual(['upstream_network', false, [500, 1000, 2000]]);
  });
});

describe('upstream-named URLs', () => {
  it('classifies loopback, link-local, private, shared and mapped addresses as non-public', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '151.101.1.69', '2606:4700::1111']) expect(isNonPublicAddress(address), address).toBe(false);
  });

  it('refuses a named URL whose host is or resolves to a non-public address, unless the naming upstream is itself non-public', async () => {
    const resolve = async (host: string) => (host === 'rebind.example' ? ['10.0.0.5'] : ['93.184.216.34']);
    const api = 'https://api.unsplash.com';
    expect(await refusedNamedDestination(new URL('http://169.254.169.254/latest/meta-data'), api, resolve)).toMatch(/not a public address/);
    expect(await refusedNamedDestination(new URL('https://rebind.example/x.jpg'), api, resolve)).toMatch(/resolves to 10\.0\.0\.5/);
    expect(await refusedNamedDestination(new URL('http://localhost:8080/'), api, resolve)).toMatch(/not a public address/);
    expect(await refusedNamedDestination(new URL('file:///etc/passwd'), api, resolve)).toMatch(/file: URLs are not fetched/);
    expect(await refusedNamedDestination(new URL('https://images.unsplash.com/photo-1'), api, resolve)).toBeUndefined();
    expect(await refusedNamedDestination(new URL('http://127.0.0.1:9/x'), 'http://127.0.0.1:4000', resolve)).toBeUndefined();
  });

  it('the client refuses such a URL without sending anything, and without retries', async () => {
    sleeps.length = 0;
    const before = fake.requests.length;
    const error = (await failure(
      client().getBytes(`${fake.url}/landing`, { namedBy: 'https://api.unsplash.com', headers: { authorization: `Client-ID ${KEY}` } }),
    )) as UpstreamError;
    expect([error.code, error.final]).toEqual(['upstream_bad_response', true]);
    expect(error.message).toMatch(/refused a URL the upstream named: 127\.0\.0\.1 is not a public address/);
    expect(fake.requests.length).toBe(before);
    expect(sleeps).toEqual([]);
  });

  it('sends the caller headers of a named URL only when it is on the naming API origin', async () => {
    await client().getJson(`${fake.url.replace('127.0.0.1', 'localhost')}/landing`, { namedBy: fake.url, headers: { authorization: `Client-ID ${KEY}` } });
    expect(fake.requestsTo('/landing').at(-1)?.headers.authorization).toBeUndefined();
    await client().getJson(`${fake.url}/landing`, { namedBy: fake.url, headers: { authorization: `Client-ID ${KEY}` } });
    expect(fake.requestsTo('/landing').at(-1)?.headers.authorization).toBe(`Client-ID ${KEY}`);
  });
});

describe('redirects', () => {
  it('keeps keys on their origin: a redirect to another origin arrives without the Authorization header', async () => {
    const response = await client().getJson<{ landed: boolean }>(`${fake.url}/hop`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.body.landed).toBe(true);
    expect(fake.requestsTo('/hop').at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requestsTo('/landing').at(-1)?.headers.authorization).toBeUndefined();
    await client().getJson(`${fake.url}/same-origin-hop`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(fake.requestsTo('/landing').at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('stops after the shared redirect cap with a typed error', async () => {
    const error = (await failure(client().getJson(`${fake.url}/loop`))) as UpstreamError;
    expect(error.code).toBe('upstream_bad_response');
    expect(error.message).toMatch(/more than 5 redirects/);
    expect(fake.requestsTo('/loop').length).toBe(6);
  });
});

describe('vendor error text', () => {
  const cases = [
    {
      status: 401,
      body: { status_code: 7, status_message: `Invalid API key: ${KEY} is not valid.` },
      code: 'upstream_auth',
      said: 'Invalid API key: [redacted] is not valid.',
    },
    {
      status: 403,
      body: { error: { code: 403, message: 'API_KEY_SERVICE_BLOCKED: requests to this API are blocked.' } },
      code: 'upstream_auth',
      said: 'API_KEY_SERVICE_BLOCKED',
    },
    { status: 429, body: { code: '50011', msg: 'Too Many Requests' }, code: 'upstream_rate_limited', said: 'Too Many Requests' },
    { status: 429, body: '<html><body><h1>Rate Limit Exceeded</h1></body></html>', code: 'upstream_rate_limited', said: 'Rate Limit Exceeded' },
  ] as const;
  for (const entry of cases) {
    it(`HTTP ${entry.status} keeps "${entry.said}"`, async () => {
      fake.queueFault('/landing', { status: entry.status, body: entry.body, headers: { 'retry-after': '3600' } });
      const error = (await failure(client().getJson(`${fake.url}/landing`, { query: { api_key: KEY } }))) as UpstreamError;
      expect(error.code).toBe(entry.code);
      expect(error.message).toContain(`(HTTP ${entry.status}): ${entry.said}`);
      expect(`${error.message} ${error.body}`).not.toContain(KEY);
    });
  }

  it('HTTP 404 keeps the message, redacted, in the client error', async () => {
    fake.queueFault('/landing', { status: 404, body: { errors: [`No photo for key ${KEY}`] } });
    const error = (await failure(client().getJson(`${fake.url}/landing`, { headers: { authorization: `Client-ID ${KEY}` } }))) as UpstreamClientError;
    expect(error).toBeInstanceOf(UpstreamClientError);
    expect(error.message).toBe('127.0.0.1 answered HTTP 404: No photo for key [redacted]');
    expect(error.body).not.toContain(KEY);
  });
});
