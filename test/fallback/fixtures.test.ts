// Curated fixture files (zod-checked, problems by file and entry index, bad entries left out),
// the stable argument normalisation they are matched by, `m3 fixtures verify`'s replay through
// the layer, the committed fixtures, and the allow-list's never-mocked rules.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadToolCatalog } from '../../src/eval/call/catalog.js';
import { AllowList, neverMockedReason } from '../../src/fallback/allow-list.js';
import { argumentsKey } from '../../src/fallback/argument-key.js';
import { defaultFixture, exactFixture, formatFixtureProblem, loadFixtures } from '../../src/fallback/fixtures.js';
import { verifyFixtures } from '../../src/fallback/verify-fixtures.js';
import { fallbackRuntime, writeFixture } from '../support/fallback-kit.js';
import { repoRoot } from '../support/shared-assets.js';

const runtime = fallbackRuntime();
const fixturesDir = path.join(runtime.dir, 'fixtures');
afterAll(() => rmSync(runtime.dir, { recursive: true, force: true }));

const good = writeFixture(runtime.dir, 'geo/lookup', [
  { arguments: { lat: 51.3, lng: -2.5, opts: { b: 1, a: [2, 1] } }, result: 'Bath, UK', source: 'test' },
  { arguments: '*', result: { results: [], status: 'ZERO_RESULTS' }, source: 'test' },
  { arguments: { lng: -2.5, opts: { a: [2, 1], b: 1 }, lat: 51.3 }, result: 'a duplicate', source: 'test' },
  { arguments: '*', result: 'a second default', source: 'test' },
  { arguments: ['not', 'an', 'object'], result: 'x', source: 'test' },
  { arguments: { q: 1 }, result: '', source: 'test' },
  { arguments: { q: 2 }, result: 'fine', source: '', note: 'unknown key' },
]);
const broken = writeFixture(runtime.dir, 'geo/broken', '[{"arguments": "*", "result": "x", ');
const empty = writeFixture(runtime.dir, 'geo/empty', []);

describe('fixture files', () => {
  it('reports every problem by file and entry index and keeps the good entries', () => {
    const set = loadFixtures(fixturesDir);
    const problems = set.problems.map(formatFixtureProblem);
    expect(problems).toEqual([
      `${broken}: not valid JSON: ${problems[0]?.split('not valid JSON: ')[1]}`,
      `${empty}: expected a non-empty JSON array of {arguments, result, source}`,
      expect.stringMatching(new RegExp(`^${good.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\[2\\]: the same arguments as an earlier entry`)),
      `${good} [3]: a second "*" default entry (only the first is used)`,
      expect.stringMatching(/ \[4\]: arguments: /),
      `${good} [5]: result: expected a non-empty string or a JSON value`,
      expect.stringMatching(/ \[6\]: (source: say where the result comes from|Unrecognized key)/),
      expect.stringMatching(/ \[6\]: (source: say where the result comes from|Unrecognized key)/),
    ]);
    expect([...set.tools.keys()]).toEqual(['geo/lookup']);
    expect(set.entries).toBe(4);
  });

  it('matches arguments by a stable normalisation: key order does not matter, numbers compare as numbers', () => {
    const set = loadFixtures(fixturesDir);
    const parsed = JSON.parse('{"opts": {"a": [2.0, 1e0], "b": 1.00}, "lng": -2.50, "lat": 51.30}') as unknown;
    expect(exactFixture(set, 'geo/lookup', parsed)?.text).toBe('Bath, UK');
    expect(exactFixture(set, 'geo/lookup', { lat: 51.3, lng: -2.5, opts: { a: [1, 2], b: 1 } })).toBeUndefined();
    expect(exactFixture(set, 'geo/lookup', { lat: '51.3', lng: -2.5, opts: { a: [2, 1], b: 1 } })).toBeUndefined();
    expect(defaultFixture(set, 'geo/lookup')?.text).toBe('{"results":[],"status":"ZERO_RESULTS"}');
    expect(argumentsKey({ b: undefined, a: 1 })).toBe('{"a":1}');
  });

  it('m3 fixtures verify replays each valid entry through the layer and checks arguments against a catalog', async () => {
    const report = await verifyFixtures(fixturesDir);
    expect(report.replayed).toBe(2);
    expect(report.checkedArguments).toBe(false);
    const catalogFile = path.join(runtime.dir, 'catalog.json');
    writeFileSync(
      catalogFile,
      JSON.stringify({
        servers: {
          geo: {
            tools: {
              lookup: {
                description: 'd',
                input_schema: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } }, additionalProperties: false },
              },
            },
          },
        },
      }),
    );
    const catalog = loadToolCatalog(catalogFile);
    const checked = await verifyFixtures(fixturesDir, catalog);
    expect(checked.problems.map(formatFixtureProblem)).toContain(
      `${good} [0]: arguments fail the input schema of geo/lookup: arguments must NOT have additional properties`,
    );
    expect(checked.problems.length).toBe(loadFixtures(fixturesDir).problems.length + 1);
  });

  const sharedCatalog = '/work/shared/data/m3bench/tools_catalog.json';
  it.skipIf(!existsSync(sharedCatalog))('the committed fixtures are valid, name catalogued tools with valid arguments, and replay as written', async () => {
    const report = await verifyFixtures(path.join(repoRoot, 'tools', 'mock_runtime', 'fixtures'), loadToolCatalog(sharedCatalog));
    expect(report.problems.map(formatFixtureProblem)).toEqual([]);
    expect(report.replayed).toBe(report.set.entries);
  });
});

describe('the allow-list', () => {
  const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });
  const tool = (name: string, properties: Record<string, unknown> = {}) => {
    const [server = '', toolName = ''] = name.split('/');
    return { canonicalName: name, server, tool: toolName, inputSchema: schema(properties) };
  };

  it('never mocks vision, OCR, barcode, image-editing, ppt and excel servers, nor tools that see or make files or images', () => {
    for (const name of [
      'mcp-yolo/detect',
      'dinox-mcp/detect',
      'ocr/perform_ocr',
      'pyzbar-mcp/scan_barcode',
      'imagesorcery-mcp/crop',
      'ppt/add_slide',
      'excel/read_data_from_excel',
    ]) {
      expect(neverMockedReason(tool(name)), name).toMatch(/^server /);
    }
    expect(neverMockedReason(tool('google-maps/static_map'))).toBe('it returns an image');
    expect(neverMockedReason(tool('paper_search/download_arxiv'))).toContain('"download"');
    expect(neverMockedReason(tool('paper_search/read_arxiv_paper', { paper_id: { type: 'string' }, save_path: { type: 'string' } }))).toContain('"save_path"');
    expect(neverMockedReason(tool('metmuseum-mcp/get-museum-object', { objectId: { type: 'number' }, returnImage: { type: 'boolean' } }))).toContain(
      '"returnImage"',
    );
    expect(neverMockedReason(tool('any/describe', { imageFileUri: { type: 'string' } }))).toContain('"imageFileUri"');
    for (const [name, properties] of [
      ['metmuseum-mcp/search-museum-objects', { q: { type: 'string' }, hasImages: { type: 'boolean' } }],
      ['google-maps/elevation_along_path', { path: { type: 'array' }, samples: { type: 'number' } }],
      ['vllm-mcp/validate', { image_count: { type: 'integer' } }],
    ] as const) {
      expect(neverMockedReason(tool(name, properties)), name).toBeUndefined();
    }
  });

  it('mocks only tools with a fixture or on the list (defaults, M3_MOCK_ALLOW entries, server/*), never-mocked ones never', () => {
    const list = new AllowList(['tmdb/search_movies', 'okx/*', 'ocr/*'], loadFixtures(fixturesDir));
    expect(list.decide(tool('geo/lookup'))).toEqual({ mockable: true, via: 'fixture' });
    expect(list.decide(tool('amazon/get_product'))).toEqual({ mockable: true, via: 'allow-list' });
    expect(list.decide(tool('tmdb/search_movies'))).toEqual({ mockable: true, via: 'allow-list' });
    expect(list.decide(tool('okx/get_price'))).toEqual({ mockable: true, via: 'allow-list' });
    expect(list.decide(tool('math/add'))).toMatchObject({ mockable: false, reason: expect.stringContaining('not on the allow-list') });
    expect(list.decide(tool('ocr/perform_ocr'))).toMatchObject({ mockable: false, reason: expect.stringContaining('never mocked') });
  });

  it('serves a tool that works on images or files only from its committed fixture, and * allows every other tool', () => {
    const curated = fallbackRuntime();
    writeFixture(curated.dir, 'museum/get-object', [
      { arguments: { objectId: 1 }, result: 'Title: Whistling vessel', source: 'test: the record without its picture' },
    ]);
    const fixtures = loadFixtures(path.join(curated.dir, 'fixtures'));
    rmSync(curated.dir, { recursive: true, force: true });
    const everything = new AllowList(['*', 'museum/*', 'paper/*'], fixtures);
    const withImage = { objectId: { type: 'number' }, returnImage: { type: 'boolean' } };
    expect(everything.decide(tool('museum/get-object', withImage))).toEqual({
      mockable: true,
      via: 'fixture',
      restricted: 'its parameter "returnImage" names a file or an image',
    });
    expect(everything.decide(tool('museum/get-image', { objectId: { type: 'number' } }))).toEqual({
      mockable: false,
      reason: 'never mocked without a fixture: its name says it returns images or files ("image")',
    });
    expect(everything.decide(tool('paper/read', { paper_id: { type: 'string' }, save_path: { type: 'string' } }))).toMatchObject({ mockable: false });
    expect(everything.decide(tool('math/add'))).toEqual({ mockable: true, via: 'allow-list' });
    expect(everything.decide(tool('ocr/perform_ocr'))).toMatchObject({ mockable: false, reason: expect.stringContaining('never mocked') });
    expect(new AllowList([], fixtures).decide(tool('math/add'))).toMatchObject({ mockable: false });
  });
});
