// OKX public market data, as the reference okx-mcp server (servers/okx-mcp/src/index.ts) asks
// for it: GET /api/v5/market/ticker?instId= and /api/v5/market/candles?instId=&bar=&limit=.
// OKX answers {code, msg, data}; code "0" is success. Codes that say OKX itself is busy or
// throttling are outages (typed); any other code is the model's request (an ordinary error).
// Base URL: M3_UPSTREAM_OKX_URL (default https://www.okx.com).
import { z } from 'zod';
import { upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { parseUpstream, UpstreamClientError, UpstreamError } from '../shared/upstream-error.js';

const envelopeSchema = z.object({ code: z.string(), msg: z.string().default(''), data: z.unknown() }).loose();

const tickerSchema = z
  .object({
    instId: z.string(),
    last: z.string(),
    bidPx: z.string(),
    askPx: z.string(),
    high24h: z.string(),
    low24h: z.string(),
    vol24h: z.string(),
    ts: z.string(),
  })
  .loose();
const candleSchema = z.array(z.string()).min(7);

/** A refusal worded as the reference's McpError text ("Failed to fetch data: ..."). */
class OkxRequestError extends Error {
  constructor(message: string) {
    super(`Failed to fetch data: ${message}`);
  }
}

// https://www.okx.com/docs-v5/en/#error-code: 50001 service unavailable, 50004 endpoint timeout,
// 50013 system busy, 50026 system error, 50011/50061 rate limit.
const busyCodes = new Set(['50001', '50004', '50013', '50026']);
const throttleCodes = new Set(['50011', '50061']);

function isoTime(milliseconds: string, upstream: string): string {
  const date = new Date(Number.parseInt(milliseconds, 10));
  if (Number.isNaN(date.getTime()))
    throw new UpstreamError('upstream_bad_response', `${upstream}: timestamp "${milliseconds}" is not epoch milliseconds`, { upstream });
  return date.toISOString();
}

async function getData(http: HttpClient, path: string, query: Record<string, string>): Promise<{ data: unknown[]; upstream: string }> {
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_OKX_URL', 'https://www.okx.com')}${path}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const upstream = url.hostname;
  let envelope: z.output<typeof envelopeSchema>;
  try {
    envelope = (await http.getJson(url.href, { schema: envelopeSchema, what: 'market data envelope' })).body;
  } catch (error) {
    // axios's wording, as the reference passed it on.
    if (error instanceof UpstreamClientError) throw new OkxRequestError(`Request failed with status code ${error.status}`);
    throw error;
  }
  const { code, msg, data } = envelope;
  if (throttleCodes.has(code)) throw new UpstreamError('upstream_rate_limited', `${upstream}: OKX API error ${code}: ${msg}`, { upstream });
  if (busyCodes.has(code)) throw new UpstreamError('upstream_server_error', `${upstream}: OKX API error ${code}: ${msg}`, { upstream });
  if (code !== '0') throw new OkxRequestError(`OKX API error: ${msg}`);
  if (!Array.isArray(data) || data.length === 0) throw new OkxRequestError('No data returned from OKX API');
  return { data, upstream };
}

export async function fetchTicker(http: HttpClient, instrument: string): Promise<Record<string, string>> {
  const { data, upstream } = await getData(http, '/api/v5/market/ticker', { instId: instrument });
  const ticker = parseUpstream(tickerSchema, data[0], upstream, 'ticker');
  return {
    instrument: ticker.instId,
    lastPrice: ticker.last,
    bid: ticker.bidPx,
    ask: ticker.askPx,
    high24h: ticker.high24h,
    low24h: ticker.low24h,
    volume24h: ticker.vol24h,
    timestamp: isoTime(ticker.ts, upstream),
  };
}

export async function fetchCandles(http: HttpClient, instrument: string, bar: string, limit: number): Promise<Array<Record<string, string>>> {
  const { data, upstream } = await getData(http, '/api/v5/market/candles', { instId: instrument, bar, limit: String(limit) });
  return data.map((row) => {
    const candle = parseUpstream(candleSchema, row, upstream, 'candle');
    const [time, open, high, low, close, volume, volumeCurrency] = candle as [string, string, string, string, string, string, string];
    return { timestamp: isoTime(time, upstream), open, high, low, close, volume, volumeCurrency };
  });
}
