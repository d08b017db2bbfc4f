// The `wiki` server as a real child process over MCP stdio against a loopback fake of English
// Wikipedia (action API search, core REST search, REST page summary): the reference's tool
// surface, its plain-text layouts for every ground-truth call, the requests it sends, and typed
// failures for the upstream's outages.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { pythonQuote } from '../../../servers/wiki/wikipedia.js';
import { smoke } from '../../../servers/wiki/smoke.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, startWebServer, type WebServer } from '../../support/web-server.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const cassidy = loadFixtureBody<Record<string, string>>(fixtures, 'summary-christopher-cassidy');
const cassidyText = `**Christopher Cassidy**\nAmerican astronaut and U.S. Navy SEAL\n\n${cassidy.extract}`;
const mandelaText =
  'Top results:\n- Nelson Mandela\n- Death of Nelson Mandela\n- Nelson Mandela Bay Metropolitan Municipality\n- Winnie Madikizela-Mandela\n- Mandela: Long Walk to Freedom';
const calls = gtCalls('wiki');

let fake: HttpFake;
let server: WebServer;

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/w/api.php', reply: { body: loadFixtureBody(fixtures, 'search-action') } },
    { path: '/core/v1/wikipedia/en/search/page', reply: { body: loadFixtureBody(fixtures, 'search-core') } },
    { path: '/api/rest_v1/page/summary/No%20such%20page', reply: { status: 404, body: loadFixtureBody(fixtures, 'summary-not-found') } },
    { path: /^\/api\/rest_v1\/page\/summary\//, reply: { body: cassidy } },
  ]);
  server = await startWebServer('servers/wiki/index.ts', {
    M3_UPSTREAM_WIKIPEDIA_URL: fake.url,
    M3_UPSTREAM_WIKIMEDIA_API_URL: fake.url,
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('wiki tool surface', () => {
  it('lists search and summary with the reference schemas (summary.title optional, see servers/wiki/server.ts)', (context) => {
    expect(server.tools.map((tool) => tool.name).sort()).toEqual(['search', 'summary']);
    const catalog = catalogTools('wiki');
    if (!catalog) return context.skip('tools_catalog.json not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog, { summary: [] })).toEqual([]);
  });

  it('accepts every ground-truth call in the argument check, the title-less summary call included', (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found under ../shared/data/m3bench');
    expect(calls.length).toBe(179);
    expect(argumentCheckProblems('wiki', server.tools, calls)).toEqual([]);
  });
});

describe('wiki/search', () => {
  it('answers every GT query with the top titles and sends the action-API parameters', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    for (const args of distinctArguments(calls, 'search')) {
      const before = fake.requestsTo('/w/api.php').length;
      const result = await server.call('search', args);
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toBe(mandelaText);
      const requests = fake.requestsTo('/w/api.php').slice(before);
      expect(requests).toHaveLength(1);
      expect(requests[0]?.method).toBe('GET');
      expect(requests[0]?.query).toEqual({
        action: 'query',
        format: 'json',
        list: 'search',
        utf8: '1',
        srlimit: String(args.n),
        srsearch: args.query,
        maxlag: '5',
      });
      expect(requests[0]?.headers['user-agent']).toMatch(/^m3bench-wiki\/.*github\.com/);
    }
  });

  it('clamps n to 1..10 and defaults it to 3', async () => {
    await server.call('search', { query: 'x', n: 50 });
    expect(fake.requestsTo('/w/api.php').at(-1)?.query.srlimit).toBe('10');
    await server.call('search', { query: 'x', n: 0 });
    expect(fake.requestsTo('/w/api.php').at(-1)?.query.srlimit).toBe('1');
    await server.call('search', { query: 'x' });
    expect(fake.requestsTo('/w/api.php').at(-1)?.query.srlimit).toBe('3');
  });

  it('says "No results." when nothing matches', async () => {
    fake.queueFault('/w/api.php', { body: loadFixtureBody(fixtures, 'search-action-empty') });
    const result = await server.call('search', { query: 'qwxzzy', n: 5 });
    expect(result).toMatchObject({ isError: false, text: 'No results.' });
  });

  it('falls back to the core REST search when the action API answers 403', async () => {
    fake.queueFault('/w/api.php', { status: 403, body: 'forbidden' });
    const result = await server.call('search', { query: 'earth', n: 2 });
    expect(result).toMatchObject({ isError: false, text: 'Top results:\n- Earth\n- Earth science' });
    const core = fake.requestsTo('/core/v1/wikipedia/en/search/page').at(-1);
    expect(core?.query).toEqual({ q: 'earth', limit: '2' });
    expect(core?.headers['api-user-agent']).toMatch(/^m3bench-wiki\//);
  });

  it('reports a maxlag refusal (HTTP 200 with an error body) as rate limiting, not as "No results."', async () => {
    fake.queueFault('/w/api.php', { body: loadFixtureBody(fixtures, 'search-maxlag'), headers: { 'retry-after': '5', 'content-type': 'application/json' } });
    const result = await server.call('search', { query: 'London', n: 5 });
    expect(result.isError).toBe(true);
    expect(result.errorMeta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 5 });
    expect(result.text).toContain('seconds lagged');
  });
});

describe('wiki/summary', () => {
  it('answers every GT title in the reference layout, with the title quoted as Python quote() does', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    const titled = distinctArguments(calls, 'summary').filter((args) => typeof args.title === 'string');
    expect(titled.length).toBeGreaterThan(90);
    for (const args of titled) {
      const result = await server.call('summary', args);
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toBe(cassidyText);
      const request = fake.requests.at(-1);
      expect(request?.path).toBe(`/api/rest_v1/page/summary/${pythonQuote(String(args.title))}`);
      expect(request?.query).toEqual({ redirect: 'true' });
    }
    expect(pythonQuote('Orange (fruit)')).toBe('Orange%20%28fruit%29');
    expect(pythonQuote('AC/DC')).toBe('AC/DC');
  });

  it('takes the title from "query" in the one GT call that sends {query, n} (task 00250000)', async () => {
    const result = await server.call('summary', { query: 'Híbrido', n: 10 });
    expect(result).toMatchObject({ isError: false, text: cassidyText });
    expect(fake.requests.at(-1)?.path).toBe('/api/rest_v1/page/summary/H%C3%ADbrido');
  });

  it('refuses a call with neither title nor query as a missing field', async () => {
    const result = await server.call('summary', { n: 3 });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('title\n  Field required');
    expect(result.errorMeta).toBeUndefined();
  });

  it('reports a missing page in the reference words, as an ordinary tool error', async () => {
    const result = await server.call('summary', { title: 'No such page' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `Error executing tool summary: 404 Client Error: Not Found for url: ${fake.url}/api/rest_v1/page/summary/No%20such%20page?redirect=true`,
    );
    expect(result.errorMeta).toBeUndefined();
  });

  it('retries once with an Api-User-Agent header after a 403', async () => {
    fake.queueFault(/^\/api\/rest_v1\/page\/summary\//, { status: 403, body: 'forbidden' });
    const result = await server.call('summary', { title: 'Christopher Cassidy' });
    expect(result).toMatchObject({ isError: false, text: cassidyText });
    const [first, second] = fake.requestsTo('/api/rest_v1/page/summary/Christopher%20Cassidy').slice(-2);
    expect(first?.headers['api-user-agent']).toBeUndefined();
    expect(second?.headers['api-user-agent']).toMatch(/^m3bench-wiki\//);
  });
});

describe('wiki upstream failures are typed', () => {
  const summary = /^\/api\/rest_v1\/page\/summary\//;

  it('429 with retry-after → upstream_rate_limited', async () => {
    fake.queueFault(summary, { status: 429, headers: { 'retry-after': '30' }, body: 'slow down' });
    const result = await server.call('summary', { title: 'Apple' });
    expect(result.isError).toBe(true);
    expect(result.errorMeta).toEqual({ code: 'upstream_rate_limited', status: 429, retryAfterSec: 30, upstream: '127.0.0.1' });
  });

  it('500 → upstream_server_error', async () => {
    fake.queueFault('/w/api.php', { status: 500, body: 'boom' });
    const result = await server.call('search', { query: 'Tokyo', n: 5 });
    expect(result.errorMeta).toMatchObject({ code: 'upstream_server_error', status: 500 });
  });

  it('malformed JSON → upstream_bad_response', async () => {
    fake.queueFault(summary, { body: '{"title": "Apple", ', headers: { 'content-type': 'application/json' } });
    const result = await server.call('summary', { title: 'Apple' });
    expect(result.errorMeta?.code).toBe('upstream_bad_response');
  });

  it('a search body with neither query nor error → upstream_bad_response', async () => {
    fake.queueFault('/w/api.php', { body: { batchcomplete: '' } });
    const result = await server.call('search', { query: 'Tokyo', n: 5 });
    expect(result.errorMeta?.code).toBe('upstream_bad_response');
  });

  it('a slow answer → upstream_timeout', async () => {
    fake.queueFault(summary, slowReply(cassidy));
    const result = await server.callWithShortTimeout('summary', { title: 'Apple' });
    expect(result.errorMeta?.code).toBe('upstream_timeout');
    expect(result.text).toContain(shortTimeoutMessage);
  });
});

describeFixturesAndSmoke('wiki', 'servers/wiki/index.ts', smoke, () => server);
