// News as yfinance 0.2.66 `Ticker.news` fetches it (yfinance/base.py): POST finance.yahoo.com
// /xhr/ncp?queryRef=latestNews&serviceKey=ncp_fin with {"serviceConfig": {"snippetCount": 10,
// "s": [symbol]}}, the items of data.tickerStream.stream that are not ads. The reference printed
// each item's top-level "title" and "link"; Yahoo's current items keep those under "content",
// so its lines were "- " and "  " — reproduced as they were.
import { UpstreamError } from '../shared/upstream-error.js';
import { yahooUrl, type YahooClient } from './yahoo-client.js';

type Json = unknown;
const asObject = (value: Json): Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};

export async function newsText(client: YahooClient, symbol: string): Promise<string> {
  const url = yahooUrl('root', '/xhr/ncp');
  const text = await client.text(url, { queryRef: 'latestNews', serviceKey: 'ncp_fin' }, { serviceConfig: { snippetCount: 10, s: [symbol] } });
  if (text.includes('Will be right back'))
    throw new UpstreamError('upstream_server_error', `${url.hostname}: Yahoo Finance is down ("Will be right back")`, { upstream: url.hostname });
  let body: Json = {};
  try {
    body = JSON.parse(text);
  } catch {
    // yfinance logs the faulty response and treats it as no news.
  }
  const stream = asObject(asObject(asObject(body).data).tickerStream).stream;
  const items = (Array.isArray(stream) ? stream : []).map(asObject).filter((item) => !(Array.isArray(item.ad) ? item.ad.length > 0 : Boolean(item.ad)));
  if (items.length === 0) return `No news found for company ${symbol}.`;
  return items.map((item) => `- ${typeof item.title === 'string' ? item.title : ''}\n  ${typeof item.link === 'string' ? item.link : ''}`).join('\n\n');
}
