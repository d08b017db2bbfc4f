// Financial statements as the reference built them (the reference project's servers/yahoo.py over yfinance 0.2.66
// yfinance/scrapers/fundamentals.py): the fundamentals timeseries for every field yfinance asks
// for ("annual" or "quarterly" + field), one object per period, newest first, {"date": "YYYY-MM-DD",
// <field>: value or None, ...} in yfinance's field order, dumped by Python's json.
import { isJsonNumber, PythonFloat, pythonJsonDumps } from '../shared/python-format.js';
import statementKeys from './statement-keys.json' with { type: 'json' };
import { yahooUrl, type YahooClient } from './yahoo-client.js';

type Json = unknown;
const asObject = (value: Json): Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};

export const financialTypes = ['income_stmt', 'quarterly_income_stmt', 'balance_sheet', 'quarterly_balance_sheet', 'cashflow', 'quarterly_cashflow'] as const;
export type FinancialType = (typeof financialTypes)[number];

const tableOf: Record<FinancialType, ['income' | 'balance' | 'cashflow', 'annual' | 'quarterly']> = {
  income_stmt: ['income', 'annual'],
  quarterly_income_stmt: ['income', 'quarterly'],
  balance_sheet: ['balance', 'annual'],
  quarterly_balance_sheet: ['balance', 'quarterly'],
  cashflow: ['cashflow', 'annual'],
  quarterly_cashflow: ['cashflow', 'quarterly'],
};

/** Python floats (np.float64) in the dump; NaN becomes None as the reference did. */
const floatOf = (value: Json): number | null => {
  const number = isJsonNumber(value) ? Number(value.value) : typeof value === 'number' ? value : Number.NaN;
  return Number.isFinite(number) ? number : null;
};

const pyFloat = (value: number | null) => (value === null ? null : new PythonFloat(value));

export async function statementJson(client: YahooClient, symbol: string, type: FinancialType): Promise<string> {
  const [table, scale] = tableOf[type];
  const keys = statementKeys[table];
  const url = yahooUrl('query2', `/ws/fundamentals-timeseries/v1/finance/timeseries/${encodeURIComponent(symbol)}`);
  const end = Math.ceil(Date.now() / 86_400_000) * 86_400;
  const body = await client.json(url, {
    symbol,
    type: keys.map((key) => scale + key).join(','),
    period1: String(Date.UTC(2016, 11, 31) / 1000),
    period2: String(end),
  });
  const series = asObject(asObject(body).timeseries).result;
  const values = new Map<string, Map<string, number | null>>();
  const dates = new Set<string>();
  for (const entry of Array.isArray(series) ? series.map(asObject) : []) {
    for (const stamp of Array.isArray(entry.timestamp) ? entry.timestamp : [])
      dates.add(new Date(Number(isJsonNumber(stamp) ? stamp.value : stamp) * 1000).toISOString().slice(0, 10));
    for (const [field, points] of Object.entries(entry)) {
      if (field === 'meta' || field === 'timestamp' || !Array.isArray(points)) continue;
      const byDate = new Map<string, number | null>();
      for (const point of points.map(asObject)) if (typeof point.asOfDate === 'string') byDate.set(point.asOfDate, floatOf(asObject(point.reportedValue).raw));
      values.set(field.replace(new RegExp(`^${scale}`), ''), byDate);
    }
  }
  const fields = keys.filter((key) => values.has(key));
  const periods = [...dates].sort().reverse();
  const result = periods.map((date) => Object.fromEntries([['date', date], ...fields.map((field) => [field, pyFloat(values.get(field)?.get(date) ?? null)])]));
  return pythonJsonDumps(result);
}
