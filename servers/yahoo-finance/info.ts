// `Ticker.info` as yfinance 0.2.66 assembles it (yfinance/scrapers/quote.py): quoteSummary with
// the financialData, quoteType, defaultKeyStatistics, assetProfile and summaryDetail modules,
// updated with the v7 quote of the symbol (its flat "quoteType": "EQUITY" replaces the
// quoteType module there), flattened module by module in that order (later keys override in
// place, None values dropped, maxAge 1 becomes 86400), {raw, fmt} pairs reduced to raw (fmt for
// regularMarketTime/postMarketTime), non-breaking spaces replaced, and trailingPegRatio from the
// fundamentals timeseries appended last.
import { isJsonNumber } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { YahooNotFound, yahooUrl, type YahooClient } from './yahoo-client.js';

const infoModules = ['financialData', 'quoteType', 'defaultKeyStatistics', 'assetProfile', 'summaryDetail'];

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isJsonNumber(value);
}

function formatValue(key: string | undefined, value: Json): Json {
  if (isPlainObject(value) && 'raw' in value && 'fmt' in value) return key === 'regularMarketTime' || key === 'postMarketTime' ? value.fmt : value.raw;
  if (Array.isArray(value)) return value.map((item) => formatValue(undefined, item));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([innerKey, item]) => [innerKey, formatValue(innerKey, item)]));
  if (typeof value === 'string') return value.replaceAll('\u00a0', ' ');
  return value;
}

const isOne = (value: Json) => isJsonNumber(value) && Number(value.value) === 1;

/** The first result of `container.result` whose symbol is the ticker (yfinance sets result[0].symbol first). */
function resultFor(body: Json, container: string, symbol: string): Record<string, Json> | undefined {
  const results = isPlainObject(body) && isPlainObject(body[container]) ? body[container].result : undefined;
  if (!Array.isArray(results) || results.length === 0 || !isPlainObject(results[0])) return undefined;
  results[0].symbol = symbol;
  return results.find((item): item is Record<string, Json> => isPlainObject(item) && item.symbol === symbol);
}

function assembleInfo(symbol: string, summary: Json, quote: Json): Record<string, Json> {
  const merged: Record<string, Json> = {};
  for (const [container, body] of [
    ['quoteSummary', summary],
    ['quoteResponse', quote],
  ] as const) {
    const found = resultFor(body, container, symbol);
    if (found) Object.assign(merged, found);
  }
  const flat: Record<string, Json> = {};
  for (const [key, value] of Object.entries(merged)) {
    if (isPlainObject(value)) {
      for (const [innerKey, innerValue] of Object.entries(value))
        if (innerValue !== null) flat[innerKey] = innerKey === 'maxAge' && isOne(innerValue) ? 86400 : innerValue;
    } else if (value !== null) {
      flat[key] = value;
    }
  }
  return Object.fromEntries(Object.entries(flat).map(([key, value]) => [key, formatValue(key, value)]));
}

async function orNotFound(request: Promise<Json>): Promise<Json | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof YahooNotFound) return undefined;
    throw error;
  }
}

/** The last reported trailing PEG ratio of the past half year, or null (yfinance's _fetch_complementary). */
async function trailingPegRatio(client: YahooClient, symbol: string): Promise<Json> {
  const day = 86_400;
  const today = Math.floor(Date.now() / 1000 / day) * day;
  const url = yahooUrl('query1', `/ws/fundamentals-timeseries/v1/finance/timeseries/${encodeURIComponent(symbol)}`);
  const body = await client.json(url, { symbol, type: 'trailingPegRatio', period1: String(today - Math.floor(365 / 2) * day), period2: String(today + day) });
  const series = isPlainObject(body) ? (body.timeseries ?? body.finance) : undefined;
  if (!isPlainObject(series) || !Array.isArray(series.result))
    throw new UpstreamError('upstream_bad_response', `${url.hostname}: the timeseries answer has no result`, { upstream: url.hostname });
  const first = series.result[0];
  const points = isPlainObject(first) ? first.trailingPegRatio : undefined;
  if (!Array.isArray(points) || points.length === 0) return null;
  const last = points.at(-1);
  return isPlainObject(last) && isPlainObject(last.reportedValue) ? (last.reportedValue.raw ?? null) : null;
}

/** The info dict, or undefined when Yahoo knows neither a summary nor a quote for the symbol. */
export async function fetchInfo(client: YahooClient, symbol: string): Promise<Record<string, Json> | undefined> {
  const summary = await orNotFound(
    client.json(yahooUrl('query2', `/v10/finance/quoteSummary/${encodeURIComponent(symbol)}`), {
      modules: infoModules.join(','),
      corsDomain: 'finance.yahoo.com',
      formatted: 'false',
      symbol,
    }),
  );
  const quote = await orNotFound(client.json(yahooUrl('query1', '/v7/finance/quote'), { symbols: symbol, formatted: 'false' }));
  const info = assembleInfo(symbol, summary, quote);
  if (Object.keys(info).length === 0) return undefined;
  info.trailingPegRatio = await trailingPegRatio(client, symbol);
  return info;
}
