// The `car-price` server as a real child process over MCP stdio against a loopback fake of the
// FIPE v1 API: the reference's brand list and model-price layouts, its brand/model matching, the
// requests it sends (with the optional bearer token), the six-hour cache, and typed outages.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/car-price/smoke.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, startWebServer, type WebServer } from '../../support/web-server.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const calls = gtCalls('car-price');
const brands = loadFixtureBody<Array<{ nome: string; codigo: string }>>(fixtures, 'brands');
const base = '/fipe/api/v1/carros/marcas';

let fake: HttpFake;
let server: WebServer;

beforeAll(async () => {
  fake = await startHttpFake([
    { path: base, reply: { body: brands } },
    { path: /^\/fipe\/api\/v1\/carros\/marcas\/\d+\/modelos$/, reply: { body: loadFixtureBody(fixtures, 'models-vw') } },
    { path: /\/modelos\/\d+\/anos$/, reply: { body: loadFixtureBody(fixtures, 'years') } },
    { path: /\/modelos\/\d+\/anos\/[\w-]+$/, reply: { body: loadFixtureBody(fixtures, 'price') } },
  ]);
  server = await startWebServer('servers/car-price/index.ts', {
    M3_UPSTREAM_FIPE_URL: `${fake.url}/fipe/api/v1`,
    FIPE_API_TOKEN: 'test-fipe-token',
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const amarokBlock = (index: number, name: string) =>
  `${index}. ${name}\n   Year: 2014\n   Fuel: Diesel\n   Price: R$ 125.318,00\n   FIPE Code: 005340-6\n   Reference: janeiro de 2023 \n\n`;

describe('car-price tool surface', () => {
  it('lists get_car_brands and search_brand_model_price with the reference schemas and accepts every GT call', (context) => {
    expect(server.tools.map((tool) => tool.name).sort()).toEqual(['get_car_brands', 'search_brand_model_price']);
    const catalog = catalogTools('car-price');
    if (!catalog || !calls) return context.skip('shared M3-Bench data not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls.length).toBeGreaterThanOrEqual(12);
    expect(argumentCheckProblems('car-price', server.tools, calls)).toEqual([]);
  });
});

describe('car-price/get_car_brands', () => {
  it('lists the first 20 brands and the total, sending the bearer token when one is configured', async () => {
    const result = await server.call('get_car_brands', {});
    const expected = `Car Brands Available\n\n${brands
      .slice(0, 20)
      .map((brand) => `- ${brand.nome} (Code: ${brand.codigo})\n`)
      .join('')}\nTotal brands: ${brands.length}`;
    expect(result).toMatchObject({ isError: false, text: expected });
    expect(result.text.split('\n')[2]).toBe('- Acura (Code: 1)');
    expect(fake.requestsTo(base).at(-1)?.headers.authorization).toBe('Bearer test-fipe-token');
  });
});

describe('car-price/search_brand_model_price', () => {
  it('answers every GT call, looking the brand up by name and its models by code', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    const documented = loadFixtureBody<{ modelos: Array<{ nome: string }> }>(fixtures, 'models-vw').modelos.map((model) => model.nome);
    for (const args of distinctArguments(calls, 'search_brand_model_price')) {
      const brand = brands.find((candidate) => candidate.nome.toLowerCase().includes(String(args.brand_name).toLowerCase()));
      expect(brand, String(args.brand_name)).toBeDefined();
      const before = fake.requests.length;
      const result = await server.call('search_brand_model_price', args);
      expect(result.isError, result.text).toBe(false);
      const paths = fake.requests.slice(before).map((request) => request.path);
      expect(paths).toContain(`${base}/${brand?.codigo}/modelos`);
      // The fake serves the documented VW AMAROK models for every brand; "X4" matches "… 4x4 …".
      const matching = documented.filter((name) => name.toLowerCase().includes(String(args.model_keyword).toLowerCase()));
      const expected =
        matching.length === 0
          ? `No models matching '${args.model_keyword}' under brand '${brand?.nome}'.\nExamples: ['AMAROK CD2.0 16V/S CD2.0 16V TDI 4x2 Die', 'AMAROK CD2.0 16V/S CD2.0 16V TDI 4x4 Die', 'AMAROK Comfor. 3.0 V6 TDI 4x4 Dies. Aut.']`
          : `Matched Models for ${brand?.nome} — '${args.model_keyword}'\n\n${matching.map((name, index) => amarokBlock(index + 1, name)).join('')}`;
      expect(result.text).toBe(expected);
    }
  });

  it('prices every matching model at its newest year, in the reference layout', async () => {
    const before = fake.requests.length;
    const result = await server.call('search_brand_model_price', { brand_name: ' vw ', model_keyword: 'amarok cd2.0' });
    expect(result.text).toBe(
      `Matched Models for VW - VolksWagen — 'amarok cd2.0'\n\n${amarokBlock(1, 'AMAROK CD2.0 16V/S CD2.0 16V TDI 4x2 Die')}${amarokBlock(2, 'AMAROK CD2.0 16V/S CD2.0 16V TDI 4x4 Die')}`,
    );
    const paths = fake.requests.slice(before).map((request) => request.path);
    expect(paths).toContain(`${base}/59/modelos/5585/anos/2022-3`);
    expect(paths).toContain(`${base}/59/modelos/5586/anos/2022-3`);
    expect(paths).not.toContain(`${base}/59/modelos/9895/anos`);
  });

  it('serves the brand and model lists from its cache on a repeated call', async () => {
    await server.call('search_brand_model_price', { brand_name: 'BMW', model_keyword: 'X4' });
    const before = fake.requests.length;
    await server.call('search_brand_model_price', { brand_name: 'BMW', model_keyword: 'X4' });
    expect(fake.requests.length).toBe(before);
  });

  it('words misses as the reference did', async () => {
    expect((await server.call('search_brand_model_price', { brand_name: 'Trabant', model_keyword: '601' })).text).toBe("Brand 'Trabant' not found.");
    expect(await server.call('search_brand_model_price', { brand_name: ' ', model_keyword: 'X4' })).toMatchObject({
      isError: true,
      text: 'Please provide brand_name.',
    });
    expect(await server.call('search_brand_model_price', { brand_name: 'BMW', model_keyword: '' })).toMatchObject({
      isError: true,
      text: 'Please provide model_keyword.',
    });
    fake.queueFault(/\/modelos\/\d+\/anos$/, { body: [] });
    fake.queueFault(/\/modelos\/\d+\/anos\/[\w-]+$/, { status: 404, body: { error: 'not found' } });
    const partial = await server.call('search_brand_model_price', { brand_name: 'Honda', model_keyword: 'amarok cd2.0' });
    expect(partial.text).toContain('No year data.');
    expect(partial.text).toContain('Price unavailable.');
  });
});

describe('car-price refusals and upstream failures (a server with a cold cache, without a token)', () => {
  it('words a refused brand list as the reference did; types 429, 500, a refused token, malformed JSON, a wrong shape and a slow answer', async () => {
    const fresh = await startWebServer('servers/car-price/index.ts', { M3_UPSTREAM_FIPE_URL: `${fake.url}/fipe/api/v1` });
    try {
      fake.queueFault(base, { status: 404, body: { error: 'gone' } });
      expect(await fresh.call('get_car_brands', {})).toMatchObject({
        isError: true,
        text: 'Error: Could not fetch car brands (Status: 404)',
        errorMeta: undefined,
      });
      fake.queueFault(base, { status: 404, body: { error: 'gone' } });
      expect(await fresh.call('search_brand_model_price', { brand_name: 'BMW', model_keyword: 'X4' })).toMatchObject({
        isError: true,
        text: 'Error: could not fetch brands (status 404)',
      });
      fake.queueFault(base, { status: 429, headers: { 'retry-after': '60' }, body: 'Too many requests' });
      expect((await fresh.call('get_car_brands', {})).errorMeta).toEqual({
        code: 'upstream_rate_limited',
        status: 429,
        retryAfterSec: 60,
        upstream: '127.0.0.1',
      });
      fake.queueFault(base, { status: 500 });
      expect((await fresh.call('get_car_brands', {})).errorMeta).toMatchObject({ code: 'upstream_server_error', status: 500 });
      fake.queueFault(base, { status: 401, body: { message: 'invalid token' } });
      expect((await fresh.call('get_car_brands', {})).errorMeta).toMatchObject({ code: 'upstream_auth', status: 401 });
      expect(fake.requestsTo(base).at(-1)?.headers.authorization).toBeUndefined();
      fake.queueFault(base, { body: '[{"nome": "Acura", ', headers: { 'content-type': 'application/json' } });
      expect((await fresh.call('get_car_brands', {})).errorMeta?.code).toBe('upstream_bad_response');
      fake.queueFault(base, { body: { marcas: [] } });
      expect((await fresh.call('get_car_brands', {})).errorMeta?.code).toBe('upstream_bad_response');
      fake.queueFault(base, slowReply(brands));
      const slow = await fresh.callWithShortTimeout('get_car_brands', {});
      expect(slow.errorMeta?.code).toBe('upstream_timeout');
      expect(slow.text).toContain(shortTimeoutMessage);
    } finally {
      await fresh.close();
    }
  });
});

describeFixturesAndSmoke('car-price', 'servers/car-price/index.ts', smoke, () => server);
