// Price history as yfinance 0.2.66 `Ticker.history(start, end, interval)` returns it
// (yfinance/scrapers/history.py): the exchange time zone from a 1-day chart, the dates read as
// midnight there, /v8/finance/chart with period1/period2 (end exclusive), includePrePost=False
// and events=div,splits,capitalGains; daily bars dated at local midnight; prices adjusted by
// Adj Close / Close (auto_adjust); Dividends and Stock Splits columns (Capital Gains for funds);
// rows whose prices and volume are all missing or zero dropped.
import { isJsonNumber } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { DateCell, recordsJson, type FrameRow } from './frame-json.js';
import { YahooNotFound, yahooUrl, type YahooClient } from './yahoo-client.js';

type Json = unknown;
const asObject = (value: Json): Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};
const num = (value: Json): number | null => (isJsonNumber(value) ? Number(value.value) : typeof value === 'number' ? value : null);

/** Epoch seconds of local midnight of a YYYY-MM-DD date in an IANA time zone. */
export function zonedMidnight(date: string, timeZone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  if (!match) throw new Error(`invalid date "${date}" (expected YYYY-MM-DD)`);
  const utcGuess = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const offsetAt = (epochMs: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
        .formatToParts(new Date(epochMs))
        .map((part) => [part.type, part.value]),
    );
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - epochMs;
  };
  let epoch = utcGuess - offsetAt(utcGuess);
  epoch = utcGuess - offsetAt(epoch);
  return Math.floor(epoch / 1000);
}

/** Local midnight (epoch ms) of the calendar day an instant falls on in a time zone. */
function localDayStart(epochSeconds: number, timeZone: string): number {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(epochSeconds * 1000));
  return zonedMidnight(day, timeZone) * 1000;
}

export class HistoryClient {
  private readonly zones = new Map<string, string>();
  constructor(private readonly client: YahooClient) {}

  private async chart(symbol: string, query: Record<string, string>): Promise<Record<string, Json> | undefined> {
    const url = yahooUrl('query2', `/v8/finance/chart/${encodeURIComponent(symbol)}`);
    let body: Json;
    try {
      body = await this.client.json(url, query);
    } catch (error) {
      if (error instanceof YahooNotFound) return undefined;
      throw error;
    }
    const chart = asObject(asObject(body).chart);
    const result = Array.isArray(chart.result) ? chart.result[0] : undefined;
    if (!result) {
      if (chart.error) return undefined;
      throw new UpstreamError('upstream_bad_response', `${url.hostname}: the chart answer has neither result nor error`, { upstream: url.hostname });
    }
    return asObject(result);
  }

  /** The exchange time zone (yfinance's _fetch_ticker_tz), or undefined for an unknown symbol. */
  async timeZone(symbol: string): Promise<string | undefined> {
    const known = this.zones.get(symbol);
    if (known) return known;
    const result = await this.chart(symbol, { range: '1d', interval: '1d' });
    const zone = result ? asObject(result.meta).exchangeTimezoneName : undefined;
    if (typeof zone !== 'string') return undefined;
    this.zones.set(symbol, zone);
    return zone;
  }

  /** The history rows, or undefined for an unknown symbol. */
  async rows(symbol: string, query: Record<string, string>, interval: string): Promise<FrameRow[] | undefined> {
    const zone = await this.timeZone(symbol);
    if (!zone) return undefined;
    const result = await this.chart(symbol, { ...query, interval: interval.toLowerCase(), includePrePost: 'False', events: 'div,splits,capitalGains' });
    if (!result) return [];
    return toRows(result, interval.toLowerCase(), zone);
  }
}

function eventsByDay(events: Json, field: string, dayOf: (seconds: number) => number): Map<number, number> {
  const byDay = new Map<number, number>();
  for (const event of Object.values(asObject(events))) {
    const record = asObject(event);
    const date = num(record.date);
    const value = field === 'splits' ? (num(record.numerator) ?? 0) / (num(record.denominator) ?? 1) : num(record.amount);
    if (date !== null && value !== null) byDay.set(dayOf(date), value);
  }
  return byDay;
}

function toRows(result: Record<string, Json>, interval: string, zone: string): FrameRow[] {
  const timestamps = Array.isArray(result.timestamp) ? result.timestamp.map(num) : [];
  const indicators = asObject(result.indicators);
  const quote = asObject(Array.isArray(indicators.quote) ? indicators.quote[0] : undefined);
  const adjusted = asObject(Array.isArray(indicators.adjclose) ? indicators.adjclose[0] : undefined).adjclose;
  const series = (name: string) => (Array.isArray(quote[name]) ? (quote[name] as Json[]).map(num) : []);
  const [open, high, low, close, volume] = ['open', 'high', 'low', 'close', 'volume'].map(series) as [
    Array<number | null>,
    Array<number | null>,
    Array<number | null>,
    Array<number | null>,
    Array<number | null>,
  ];
  const adjClose = Array.isArray(adjusted) ? adjusted.map(num) : close;
  const daily = !/[mh]$/.test(interval);
  const dayOf = (seconds: number) => (daily ? localDayStart(seconds, zone) : seconds * 1000);
  const events = asObject(result.events);
  const dividends = eventsByDay(events.dividends, 'dividends', dayOf);
  const splits = eventsByDay(events.splits, 'splits', dayOf);
  const fund = ['ETF', 'MUTUALFUND'].includes(String(asObject(result.meta).instrumentType));
  const gains = fund ? eventsByDay(events.capitalGains, 'capitalGains', dayOf) : undefined;
  const rows: FrameRow[] = [];
  const seen = new Set<number>();
  timestamps.forEach((stamp, index) => {
    if (stamp === null) return;
    const at = dayOf(stamp);
    if (seen.has(at)) return;
    seen.add(at);
    const raw = close[index] ?? null;
    const ratio = raw === null || adjClose[index] === null || adjClose[index] === undefined ? null : (adjClose[index] as number) / raw;
    const scaled = (value: number | null | undefined) => (value === null || value === undefined || ratio === null ? null : value * ratio);
    const row: FrameRow = {
      Date: new DateCell(at),
      Open: scaled(open[index]),
      High: scaled(high[index]),
      Low: scaled(low[index]),
      Close: adjClose[index] ?? null,
      Volume: BigInt(Math.trunc(volume[index] ?? 0)),
    };
    row.Dividends = dividends.get(at) ?? 0;
    row['Stock Splits'] = splits.get(at) ?? 0;
    if (gains) row['Capital Gains'] = gains.get(at) ?? 0;
    const data = ['Open', 'High', 'Low', 'Close', 'Volume', 'Dividends', 'Stock Splits', 'Capital Gains']
      .map((key) => row[key])
      .filter((value) => value !== undefined);
    if (data.every((value) => value === null || value === 0 || value === 0n)) return;
    rows.push(row);
  });
  return rows;
}

/** `Ticker.actions`: the dividend / split (/ capital gain) columns of the full daily history, rows where any is non-zero. */
export async function actionsJson(history: HistoryClient, symbol: string): Promise<string | undefined> {
  const rows = await history.rows(symbol, { range: 'max' }, '1d');
  if (!rows) return undefined;
  const columns = ['Dividends', 'Stock Splits', ...(rows.some((row) => 'Capital Gains' in row) ? ['Capital Gains'] : [])];
  const actions = rows
    .filter((row) => columns.some((column) => typeof row[column] === 'number' && row[column] !== 0))
    .map((row) => Object.fromEntries([['Date', row.Date], ...columns.map((column) => [column, row[column]])]));
  return recordsJson(actions, ['Date', ...columns], { dtypes: Object.fromEntries(columns.map((column) => [column, 'float' as const])) });
}

/** The dtypes pandas gives the history columns. */
export const historyDtypes = {
  Open: 'float',
  High: 'float',
  Low: 'float',
  Close: 'float',
  Volume: 'int',
  Dividends: 'float',
  'Stock Splits': 'float',
  'Capital Gains': 'float',
} as const;
