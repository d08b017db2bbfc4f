// The `metmuseum-mcp` server as a real child process over MCP stdio against a loopback fake of the
// Met Collection API and its image host: the reference's text layouts, its search parameters,
// the object image returned as image content (typed by its bytes) and saved in the task
// workspace, the reference's error wording, and typed outages.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/metmuseum/smoke.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { assertAssetsInCi, missingAssetsMessage, sharedAssetsDir } from '../../support/shared-assets.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, startWebServer, type WebServer } from '../../support/web-server.js';

assertAssetsInCi();
const assets = sharedAssetsDir();
const fixtures = path.join(import.meta.dirname, 'fixtures');
const calls = gtCalls('metmuseum-mcp');
const workspaceRoot = mkdtempSync(path.join(tmpdir(), 'm3-metmuseum-test-'));
const quail = loadFixtureBody<Record<string, unknown>>(fixtures, 'object-45734');

let fake: HttpFake;
let server: WebServer;
let jpeg: Buffer;
let png: Buffer;

const quailText = [
  'Title: Quail and Millet',
  'Artist: Kiyohara Yukinobu',
  'Artist Bio: Japanese, 1643–1682',
  'Department: Asian Art',
  'Credit Line: The Howard Mansfield Collection, Purchase, Rogers Fund, 1936',
  'Medium: Hanging scroll; ink and color on silk',
  'Dimensions: 46 5/8 x 18 3/4 in. (118.4 x 47.6 cm)',
  'Primary Image URL: https://images.metmuseum.org/CRDImages/as/original/DP251139.jpg',
  'Tags: Birds',
  '',
].join('\n');

beforeAll(async () => {
  jpeg = assets ? readFileSync(path.join(assets, 'images/detection/eagle.jpg')) : Buffer.alloc(0);
  png = assets ? readFileSync(path.join(assets, 'images/detection/coffee_cup.png')) : Buffer.alloc(0);
  fake = await startHttpFake([
    { path: '/met/departments', reply: { body: loadFixtureBody(fixtures, 'departments') } },
    { path: '/met/search', reply: { body: loadFixtureBody(fixtures, 'search-sunflowers') } },
    { path: '/met/objects/404', reply: { status: 404, body: loadFixtureBody(fixtures, 'object-not-found') } },
    { path: /^\/met\/objects\/\d+$/, reply: { body: quail } },
    { path: '/images/CRDImages/as/web-large/DP251139.jpg', reply: { body: jpeg, headers: { 'content-type': 'image/jpeg' } } },
  ]);
  server = await startWebServer('servers/metmuseum/index.ts', {
    M3_UPSTREAM_MET_COLLECTION_URL: `${fake.url}/met`,
    M3_UPSTREAM_MET_IMAGES_URL: `${fake.url}/images`,
    M3_ALLOWED_ROOTS: workspaceRoot,
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(workspaceRoot, { recursive: true, force: true });
});

describe('metmuseum-mcp tool surface', () => {
  it('lists the three reference tools with their schemas and accepts every GT call', (context) => {
    expect(server.tools.map((tool) => tool.name).sort()).toEqual(['get-museum-object', 'list-departments', 'search-museum-objects']);
    const catalog = catalogTools('metmuseum-mcp');
    if (!catalog || !calls) return context.skip('shared M3-Bench data not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls).toHaveLength(24);
    expect(argumentCheckProblems('metmuseum-mcp', server.tools, calls)).toEqual([]);
  });
});

describe('metmuseum-mcp/list-departments and search-museum-objects', () => {
  it('lists departments one per line', async () => {
    const result = await server.call('list-departments', {});
    expect(result.isError).toBe(false);
    const lines = result.text.split('\n');
    expect(lines).toHaveLength(19);
    expect(lines[0]).toBe('Department ID: 1, Display Name: American Decorative Arts');
    expect(lines).toContain('Department ID: 10, Display Name: Egyptian Art');
  });

  it('answers every GT search with the total and the IDs, sending the reference parameters', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    for (const args of distinctArguments(calls, 'search-museum-objects')) {
      const result = await server.call('search-museum-objects', args);
      expect(result.text).toBe('Total objects found: 85\nObject IDs: 436524, 484935, 437112, 210191, 431264, 397949, 485308, 11922, 437980, 333893');
      expect(fake.requestsTo('/met/search').at(-1)?.query).toEqual({ q: args.q, hasImages: 'true', departmentId: String(args.departmentId) });
    }
  });

  it('sends title=true only without hasImages, and no departmentId for 0', async () => {
    await server.call('search-museum-objects', { q: 'Sarcophagus', title: true, departmentId: 0 });
    expect(fake.requestsTo('/met/search').at(-1)?.query).toEqual({ q: 'Sarcophagus', title: 'true' });
    await server.call('search-museum-objects', { q: 'Sarcophagus', title: true, hasImages: true });
    expect(fake.requestsTo('/met/search').at(-1)?.query).toEqual({ q: 'Sarcophagus', hasImages: 'true' });
  });

  it('says "No objects found" for total 0 / objectIDs null', async () => {
    fake.queueFault('/met/search', { body: loadFixtureBody(fixtures, 'search-none') });
    expect(await server.call('search-museum-objects', { q: 'zzqx' })).toMatchObject({ isError: false, text: 'No objects found' });
  });
});

describe('metmuseum-mcp/get-museum-object', () => {
  it.skipIf(!assets)('answers every GT object id with the reference text and the image, saved in the task workspace', async () => {
    const workspace = path.join(workspaceRoot, 'task-00200000');
    for (const args of distinctArguments(calls ?? [{ taskId: 'x', tool: 'get-museum-object', arguments: { objectId: 549236 } }], 'get-museum-object')) {
      const result = await server.call('get-museum-object', args, { taskId: '00200000', workspace });
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toBe(quailText);
      expect(fake.requestsTo(`/met/objects/${args.objectId}`)).not.toHaveLength(0);
      expect(result.images).toHaveLength(1);
      expect(result.images[0]?.mimeType).toBe('image/jpeg');
      expect(result.images[0]?.data.equals(jpeg)).toBe(true);
      expect(readFileSync(path.join(workspace, `met-object-${args.objectId}.jpg`)).equals(jpeg)).toBe(true);
    }
  });

  it.skipIf(!assets)('types the image by its bytes (a PNG is image/png) and skips it for returnImage false', async () => {
    const workspace = path.join(workspaceRoot, 'task-png');
    fake.queueFault('/images/CRDImages/as/web-large/DP251139.jpg', { body: png, headers: { 'content-type': 'image/jpeg' } });
    const result = await server.call('get-museum-object', { objectId: 45734 }, { taskId: 'png', workspace });
    expect(result.images[0]?.mimeType).toBe('image/png');
    expect(readdirSync(workspace)).toEqual(['met-object-45734.png']);
    const textOnly = await server.call('get-museum-object', { objectId: 45734, returnImage: false });
    expect(textOnly).toMatchObject({ isError: false, text: quailText, images: [] });
  });

  it('omits empty fields and prints an empty tag list as the reference did', async () => {
    fake.queueFault(/^\/met\/objects\/\d+$/, {
      body: { objectID: 1, title: 'Fragment', department: 'Egyptian Art', medium: '', tags: [], primaryImageSmall: '' },
    });
    const result = await server.call('get-museum-object', { objectId: 1 });
    expect(result).toMatchObject({ isError: false, text: 'Title: Fragment\nDepartment: Egyptian Art\nTags: \n', images: [] });
  });

  it('reports an unknown object in the reference words, as an ordinary tool error', async () => {
    const result = await server.call('get-museum-object', { objectId: 404 });
    expect(result).toMatchObject({ isError: true, text: 'Error getting museum object id 404: Error: HTTP error! status: 404', errorMeta: undefined });
  });

  if (!assets) it.skip(missingAssetsMessage, () => {});
});

describe('metmuseum-mcp upstream failures are typed', () => {
  it('429, 500, malformed JSON, a wrong shape, an image that is not one, and a slow answer', async () => {
    fake.queueFault('/met/departments', { status: 429, headers: { 'retry-after': '3' } });
    expect((await server.call('list-departments', {})).errorMeta).toEqual({
      code: 'upstream_rate_limited',
      status: 429,
      retryAfterSec: 3,
      upstream: '127.0.0.1',
    });
    fake.queueFault('/met/search', { status: 500 });
    expect((await server.call('search-museum-objects', { q: 'x' })).errorMeta).toMatchObject({ code: 'upstream_server_error', status: 500 });
    fake.queueFault('/met/departments', { body: '<html>maintenance</html>' });
    expect((await server.call('list-departments', {})).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/met/search', { body: { total: 'many' } });
    expect((await server.call('search-museum-objects', { q: 'x' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/images/CRDImages/as/web-large/DP251139.jpg', { body: '<html>not found</html>', headers: { 'content-type': 'text/html' } });
    expect((await server.call('get-museum-object', { objectId: 45734 })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault(/^\/met\/objects\/\d+$/, slowReply(quail));
    const slow = await server.callWithShortTimeout('get-museum-object', { objectId: 45734 });
    expect(slow.errorMeta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });
});

describeFixturesAndSmoke('metmuseum-mcp', 'servers/metmuseum/index.ts', smoke, () => server);
