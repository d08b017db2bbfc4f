// Options as yfinance 0.2.66 reads them (yfinance/ticker.py): /v7/finance/options/{symbol} lists
// the expiration dates (epoch seconds → UTC "YYYY-MM-DD"); ?date=<epoch> gives that expiry's calls
// and puts, shown with yfinance's fourteen columns (lastTradeDate as a UTC datetime).
import { isJsonNumber, pythonJsonDumps } from '../shared/python-format.js';
import { DateCell, recordsJson, type FrameRow } from './frame-json.js';
import { yahooUrl, type YahooClient } from './yahoo-client.js';

type Json = unknown;
const asObject = (value: Json): Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};

const chainColumns = [
  'contractSymbol',
  'lastTradeDate',
  'strike',
  'lastPrice',
  'bid',
  'ask',
  'change',
  'percentChange',
  'volume',
  'openInterest',
  'impliedVolatility',
  'inTheMoney',
  'contractSize',
  'currency',
];

async function optionResult(client: YahooClient, symbol: string, date?: number): Promise<Record<string, Json> | undefined> {
  const body = await client.json(yahooUrl('query2', `/v7/finance/options/${encodeURIComponent(symbol)}`), date === undefined ? {} : { date: String(date) });
  const result = asObject(asObject(body).optionChain).result;
  return Array.isArray(result) && result.length > 0 ? asObject(result[0]) : undefined;
}

/** Expiration dates as "YYYY-MM-DD" → their epoch seconds, in Yahoo's order. */
export async function expirations(client: YahooClient, symbol: string): Promise<Map<string, number>> {
  const result = await optionResult(client, symbol);
  const dates = new Map<string, number>();
  for (const value of Array.isArray(result?.expirationDates) ? result.expirationDates : []) {
    const seconds = isJsonNumber(value) ? Number(value.value) : Number(value);
    dates.set(new Date(seconds * 1000).toISOString().slice(0, 10), seconds);
  }
  return dates;
}

export async function expirationDatesJson(client: YahooClient, symbol: string): Promise<string> {
  return pythonJsonDumps([...(await expirations(client, symbol)).keys()]);
}

/** The calls or puts of one expiry as records, or undefined when Yahoo returns no chain. */
export async function optionChainJson(client: YahooClient, symbol: string, epochSeconds: number, side: 'calls' | 'puts'): Promise<string | undefined> {
  const result = await optionResult(client, symbol, epochSeconds);
  const options = Array.isArray(result?.options) ? asObject(result.options[0]) : undefined;
  if (!options || Object.keys(options).length === 0) return undefined;
  const contracts = Array.isArray(options[side]) ? (options[side] as Json[]) : [];
  const rows: FrameRow[] = contracts.map((contract) => {
    const record = asObject(contract);
    const when = record.lastTradeDate;
    const seconds = isJsonNumber(when) ? Number(when.value) : undefined;
    return Object.fromEntries(
      chainColumns.map((column) => [
        column,
        column === 'lastTradeDate' ? (seconds === undefined ? null : new DateCell(seconds * 1000)) : (record[column] ?? null),
      ]),
    );
  });
  return recordsJson(rows, chainColumns);
}
