// The `okx` server as a real child process over MCP stdio against a loopback fake of the OKX v5
// public market API: the reference's JSON layouts (ticker fields renamed, candles as objects with
// ISO timestamps), its defaults, the requests it sends, OKX error codes and typed outages.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/okx/smoke.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, startWebServer, type WebServer } from '../../support/web-server.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const calls = gtCalls('okx');

let fake: HttpFake;
let server: WebServer;

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/api/v5/market/ticker', reply: { body: loadFixtureBody(fixtures, 'ticker') } },
    { path: '/api/v5/market/candles', reply: { body: loadFixtureBody(fixtures, 'candles') } },
  ]);
  server = await startWebServer('servers/okx/index.ts', { M3_UPSTREAM_OKX_URL: fake.url });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const tickerText = [
  '{',
  '  "instrument": "LTC-USD-SWAP",',
  '  "lastPrice": "9999.99",',
  '  "bid": "8888.88",',
  '  "ask": "9999.99",',
  '  "high24h": "10000",',
  '  "low24h": "8888.88",',
  '  "volume24h": "2222",',
  '  "timestamp": "2020-08-10T02:26:23.085Z"',
  '}',
].join('\n');

describe('okx tool surface', () => {
  it('lists get_price and get_candlesticks with the reference schemas and accepts every GT call', (context) => {
    expect(server.tools.map((tool) => tool.name).sort()).toEqual(['get_candlesticks', 'get_price']);
    const catalog = catalogTools('okx');
    if (!catalog || !calls) return context.skip('shared M3-Bench data not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls.length).toBeGreaterThanOrEqual(55);
    expect(argumentCheckProblems('okx', server.tools, calls)).toEqual([]);
  });
});

describe('okx/get_price', () => {
  it('answers every GT instrument with the reference ticker layout and asks for instId', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    for (const args of distinctArguments(calls, 'get_price')) {
      const result = await server.call('get_price', args);
      expect(result).toMatchObject({ isError: false, text: tickerText });
      const request = fake.requestsTo('/api/v5/market/ticker').at(-1);
      expect(request?.method).toBe('GET');
      expect(request?.query).toEqual({ instId: args.instrument });
    }
  });

  it('reports an OKX error code in the reference words, as an ordinary tool error', async () => {
    fake.queueFault('/api/v5/market/ticker', { body: loadFixtureBody(fixtures, 'instrument-missing') });
    const result = await server.call('get_price', { instrument: 'NOPE-USDT' });
    expect(result).toMatchObject({ isError: true, text: 'Failed to fetch data: OKX API error: Instrument ID does not exist', errorMeta: undefined });
  });

  it('refuses an empty instrument and reports empty data as the reference did', async () => {
    expect(await server.call('get_price', { instrument: '' })).toMatchObject({ isError: true, text: 'Missing required parameter: instrument' });
    fake.queueFault('/api/v5/market/ticker', { body: { code: '0', msg: '', data: [] } });
    expect(await server.call('get_price', { instrument: 'BTC-USDT' })).toMatchObject({
      isError: true,
      text: 'Failed to fetch data: No data returned from OKX API',
    });
  });
});

describe('okx/get_candlesticks', () => {
  it('answers every GT call with candles as objects and sends instId, bar and limit', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    for (const args of distinctArguments(calls, 'get_candlesticks')) {
      const result = await server.call('get_candlesticks', args);
      expect(result.isError, result.text).toBe(false);
      expect(JSON.parse(result.text)).toEqual([
        {
          timestamp: '2020-08-10T02:26:23.085Z',
          open: '3.721',
          high: '3.743',
          low: '3.677',
          close: '3.708',
          volume: '8422410',
          volumeCurrency: '22698348.04828491',
        },
        {
          timestamp: '2020-08-10T02:26:23.085Z',
          open: '3.731',
          high: '3.799',
          low: '3.494',
          close: '3.72',
          volume: '24912403',
          volumeCurrency: '67632347.24399722',
        },
      ]);
      expect(result.text.startsWith('[\n  {\n    "timestamp": "2020-08-10T02:26:23.085Z",\n    "open": "3.721",')).toBe(true);
      expect(fake.requestsTo('/api/v5/market/candles').at(-1)?.query).toEqual({ instId: args.instrument, bar: args.bar, limit: String(args.limit) });
    }
  });

  it('defaults bar to 1m and limit to 100, also for an empty bar or a zero limit', async () => {
    await server.call('get_candlesticks', { instrument: 'BTC-USDT' });
    expect(fake.requestsTo('/api/v5/market/candles').at(-1)?.query).toEqual({ instId: 'BTC-USDT', bar: '1m', limit: '100' });
    await server.call('get_candlesticks', { instrument: 'BTC-USDT', bar: '', limit: 0 });
    expect(fake.requestsTo('/api/v5/market/candles').at(-1)?.query).toEqual({ instId: 'BTC-USDT', bar: '1m', limit: '100' });
  });

  it('passes an HTTP 400 on as axios worded it', async () => {
    fake.queueFault('/api/v5/market/candles', { status: 400, body: { code: '51000', msg: 'Parameter bar error', data: [] } });
    const result = await server.call('get_candlesticks', { instrument: 'BTC-USDT', bar: '7X' });
    expect(result).toMatchObject({ isError: true, text: 'Failed to fetch data: Request failed with status code 400', errorMeta: undefined });
  });
});

describe('okx upstream failures are typed', () => {
  it('429 with OKX 50011, a 50011 code in a 200, 500, malformed JSON, a bad timestamp and a slow answer', async () => {
    fake.queueFault('/api/v5/market/ticker', { status: 429, headers: { 'retry-after': '2' }, body: loadFixtureBody(fixtures, 'rate-limited') });
    expect((await server.call('get_price', { instrument: 'BTC-USDT' })).errorMeta).toEqual({
      code: 'upstream_rate_limited',
      status: 429,
      retryAfterSec: 2,
      upstream: '127.0.0.1',
    });
    fake.queueFault('/api/v5/market/ticker', { body: loadFixtureBody(fixtures, 'rate-limited') });
    expect((await server.call('get_price', { instrument: 'BTC-USDT' })).errorMeta?.code).toBe('upstream_rate_limited');
    fake.queueFault('/api/v5/market/candles', { body: { code: '50001', msg: 'Service temporarily unavailable. Please try again later', data: [] } });
    expect((await server.call('get_candlesticks', { instrument: 'BTC-USDT' })).errorMeta?.code).toBe('upstream_server_error');
    fake.queueFault('/api/v5/market/candles', { status: 500 });
    expect((await server.call('get_candlesticks', { instrument: 'BTC-USDT' })).errorMeta).toMatchObject({ code: 'upstream_server_error', status: 500 });
    fake.queueFault('/api/v5/market/ticker', { body: '{"code":"0","data":[', headers: { 'content-type': 'application/json' } });
    expect((await server.call('get_price', { instrument: 'BTC-USDT' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/api/v5/market/candles', { body: { code: '0', msg: '', data: [['soon', '1', '1', '1', '1', '1', '1']] } });
    expect((await server.call('get_candlesticks', { instrument: 'BTC-USDT' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/api/v5/market/ticker', slowReply(loadFixtureBody(fixtures, 'ticker')));
    const slow = await server.callWithShortTimeout('get_price', { instrument: 'BTC-USDT' });
    expect(slow.errorMeta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });
});

describeFixturesAndSmoke('okx', 'servers/okx/index.ts', smoke, () => server);
