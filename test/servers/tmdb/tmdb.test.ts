// The tmdb server as a real child process against a loopback fake of TMDB v3: GT calls send
// query/year/page with the bearer token, the answer is the upstream JSON indented by two, a v3
// key works when no token is set, and failures are typed or in the reference's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { callWebTool, groundTruthCalls, loadFixture, missingSharedData, startWebServer, type WebServerProcess } from '../../support/keyed-web-server.js';

const TOKEN = 'tmdb-read-token-eyJhbGciOi-test';
const V3_KEY = 'tmdb-v3-key-4a7c9e';
let fake: HttpFake;
let server: WebServerProcess;
let keyServer: WebServerProcess;

beforeAll(async () => {
  fake = await startHttpFake([{ path: '/3/search/movie', reply: { body: loadFixture('tmdb', 'search') } }]);
  server = await startWebServer('tmdb', { TMDB_ACCESS_TOKEN: TOKEN, M3_UPSTREAM_TMDB_URL: fake.url });
  keyServer = await startWebServer('tmdb', { TMDB_API_KEY: V3_KEY, M3_UPSTREAM_TMDB_URL: fake.url });
});

afterAll(async () => {
  await server?.close();
  await keyServer?.close();
  await fake?.close();
});

describe('tmdb/search_movies', () => {
  it('answers every GT call with the upstream JSON, sending query, year and page (default 1) with the bearer token', async (context) => {
    const calls = groundTruthCalls('tmdb/search_movies');
    if (!calls) return context.skip(missingSharedData);
    expect(calls.length).toBe(11);
    for (const { arguments: args } of calls) {
      const answer = await callWebTool(server, 'search_movies', args);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toBe(JSON.stringify(loadFixture('tmdb', 'search'), null, 2));
      const sent = fake.requestsTo('/3/search/movie').at(-1);
      expect(sent?.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(sent?.query).toEqual({ query: args.query, page: String(args.page ?? 1), ...(args.year ? { year: String(args.year) } : {}) });
    }
  });

  it('uses a v3 API key as api_key when no access token is set', async () => {
    const answer = await callWebTool(keyServer, 'search_movies', { query: 'Inception' });
    expect(answer.isError).toBe(false);
    const sent = fake.requestsTo('/3/search/movie').at(-1);
    expect(sent?.query).toEqual({ api_key: V3_KEY, query: 'Inception', page: '1' });
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it('a refused credential is auth, 429/500 typed, a 404 in the reference words; no credential is ever shown', async () => {
    fake.queueFault('/3/search/movie', { status: 401, body: { status_code: 7, status_message: `Invalid API key: ${V3_KEY}`, success: false } });
    const denied = await callWebTool(keyServer, 'search_movies', { query: 'x' });
    expect(denied.meta).toMatchObject({ code: 'upstream_auth', status: 401 });
    expect(denied.text).toBe('TMDB API error: Request failed with status code 401');
    fake.queueFault('/3/search/movie', {
      status: 429,
      headers: { 'retry-after': '2' },
      body: { status_code: 25, status_message: 'Your request count is over the allowed limit.' },
    });
    const limited = await callWebTool(server, 'search_movies', { query: 'x' });
    expect(limited.meta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 2 });
    expect(limited.text).toContain('(HTTP 429): Your request count is over the allowed limit.');
    fake.queueFault('/3/search/movie', { status: 500, body: {} });
    expect((await callWebTool(server, 'search_movies', { query: 'x' })).meta?.code).toBe('upstream_server_error');
    fake.queueFault('/3/search/movie', {
      status: 404,
      body: { status_code: 34, status_message: 'The resource you requested could not be found.', success: false },
    });
    const missing = await callWebTool(keyServer, 'search_movies', { query: 'x', page: 999 });
    expect([missing.isError, missing.meta, missing.text]).toEqual([true, undefined, 'TMDB API error: Request failed with status code 404']);
    for (const text of [denied.text, missing.text]) expect(text).not.toContain(V3_KEY);
    expect(server.stderr() + keyServer.stderr()).not.toMatch(new RegExp(`${TOKEN}|${V3_KEY}`));
  });
});
