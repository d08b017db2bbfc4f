// The `hugeicons-mcp` server as a real child process over MCP stdio against a loopback fake of the
// Hugeicons index, search and glyph APIs: the reference's tool surface and two-space JSON
// answers, its error words, the requests it sends (and none to a telemetry host), typed outages.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/hugeicons/smoke.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, startWebServer, type WebServer } from '../../support/web-server.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const calls = gtCalls('hugeicons-mcp');

let fake: HttpFake;
let server: WebServer;

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/site/api/icons', reply: { body: loadFixtureBody(fixtures, 'icons') } },
    { path: '/search-api/search', reply: { body: loadFixtureBody(fixtures, 'search-tree') } },
    { path: '/api/v1/icon/home-01/glyphs', reply: { body: loadFixtureBody(fixtures, 'glyphs-home') } },
    { path: '/api/v1/icon/home-01/glyph', reply: { body: loadFixtureBody(fixtures, 'glyph-home-stroke') } },
    { path: /^\/api\/v1\/icon\/[^/]+\/glyphs?$/, reply: { status: 404, body: { success: false, message: 'Icon not found' } } },
  ]);
  server = await startWebServer('servers/hugeicons/index.ts', {
    M3_UPSTREAM_HUGEICONS_URL: `${fake.url}/site`,
    M3_UPSTREAM_HUGEICONS_SEARCH_URL: `${fake.url}/search-api`,
    M3_UPSTREAM_HUGEICONS_API_URL: `${fake.url}/api/v1`,
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('hugeicons-mcp tool surface', () => {
  it('lists the five reference tools with their schemas and accepts every GT call', (context) => {
    expect(server.tools.map((tool) => tool.name).sort()).toEqual([
      'get_icon_glyph_by_style',
      'get_icon_glyphs',
      'get_platform_usage',
      'list_icons',
      'search_icons',
    ]);
    const catalog = catalogTools('hugeicons-mcp');
    if (!catalog || !calls) return context.skip('shared M3-Bench data not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls.length).toBeGreaterThanOrEqual(23);
    expect(argumentCheckProblems('hugeicons-mcp', server.tools, calls)).toEqual([]);
  });
});

describe('hugeicons-mcp answers', () => {
  it('lists the whole index as two-space JSON, fetched once', async () => {
    const first = await server.call('list_icons', {});
    expect(first.text).toBe(JSON.stringify(loadFixtureBody<{ icons: unknown[] }>(fixtures, 'icons').icons, null, 2));
    await server.call('list_icons', {});
    expect(fake.requestsTo('/site/api/icons')).toHaveLength(1);
  });

  it('answers every GT search with the results reduced to the index fields, query trimmed', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    const expected = JSON.stringify(
      [
        { id: 'tree-06', name: 'tree-06', tags: ['tree', 'nature', 'plant'], category: 'nature', featured: true, version: '1.0.0' },
        { id: 'pine-tree', name: 'pine-tree', tags: ['tree', 'forest'], category: 'nature', featured: false, version: '1.0.1' },
      ],
      null,
      2,
    );
    for (const args of distinctArguments(calls, 'search_icons')) {
      const result = await server.call('search_icons', { query: `  ${String(args.query)} ` });
      expect(result).toMatchObject({ isError: false, text: expected });
      expect(fake.requestsTo('/search-api/search').at(-1)?.query).toEqual({ q: args.query });
    }
    expect(await server.call('search_icons', { query: '  ' })).toMatchObject({ isError: true, text: 'Search query must be a non-empty string' });
  });

  it('returns glyphs, a glyph by style, and the reference words for an unknown icon', async () => {
    expect(JSON.parse((await server.call('get_icon_glyphs', { icon_name: 'home-01' })).text)).toHaveLength(2);
    const byStyle = await server.call('get_icon_glyph_by_style', { icon_name: 'home-01', style: 'stroke-rounded' });
    expect(JSON.parse(byStyle.text)).toMatchObject({ primary: { unicode: 'e9a1' }, secondary: null });
    expect(fake.requestsTo('/api/v1/icon/home-01/glyph').at(-1)?.query).toEqual({ style: 'stroke-rounded' });
    expect(await server.call('get_icon_glyphs', { icon_name: 'nope-99' })).toMatchObject({
      isError: true,
      text: "Failed to get icon glyphs: Icon 'nope-99' not found",
    });
    expect(await server.call('get_icon_glyph_by_style', { icon_name: 'nope-99', style: 'solid-sharp' })).toMatchObject({
      isError: true,
      text: "Failed to get icon glyph by style: Icon 'nope-99' with style 'solid-sharp' not found",
    });
    fake.queueFault('/api/v1/icon/home-01/glyphs', { body: { success: false, message: 'quota exceeded', data: null } });
    expect((await server.call('get_icon_glyphs', { icon_name: 'home-01' })).text).toBe('Failed to get icon glyphs: Failed to fetch glyphs: quota exceeded');
  });

  it('answers platform usage locally, without a request', async () => {
    const before = fake.requests.length;
    const usage = JSON.parse((await server.call('get_platform_usage', { platform: 'react' })).text);
    expect(usage).toMatchObject({ platform: 'react', installation: { core: 'npm install @hugeicons/react' } });
    expect(usage.installation.packages).toContain('@hugeicons/core-free-icons');
    expect(fake.requests.length).toBe(before);
  });

  it('sends nothing but the three Hugeicons APIs (no telemetry)', () => {
    expect(fake.requests.every((request) => /^\/(site|search-api|api\/v1)\//.test(request.path))).toBe(true);
  });
});

describe('hugeicons-mcp upstream failures are typed (the reference answered a failed search as "[]")', () => {
  it('429, 500, malformed JSON, a wrong shape and a slow answer', async () => {
    fake.queueFault('/search-api/search', { status: 429, headers: { 'retry-after': '4' } });
    expect((await server.call('search_icons', { query: 'tree' })).errorMeta).toEqual({
      code: 'upstream_rate_limited',
      status: 429,
      retryAfterSec: 4,
      upstream: '127.0.0.1',
    });
    fake.queueFault('/search-api/search', { status: 503 });
    expect((await server.call('search_icons', { query: 'tree' })).errorMeta).toMatchObject({ code: 'upstream_server_error', status: 503 });
    fake.queueFault('/search-api/search', { body: '{"results": [', headers: { 'content-type': 'application/json' } });
    expect((await server.call('search_icons', { query: 'tree' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/api/v1/icon/home-01/glyphs', { body: { success: true, data: {} } });
    expect((await server.call('get_icon_glyphs', { icon_name: 'home-01' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/search-api/search', slowReply({}));
    const slow = await server.callWithShortTimeout('search_icons', { query: 'tree' });
    expect(slow.errorMeta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });
});

describeFixturesAndSmoke('hugeicons-mcp', 'servers/hugeicons/index.ts', smoke, () => server);
