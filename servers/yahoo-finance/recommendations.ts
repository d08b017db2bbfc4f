// Analyst recommendations as the reference built them from yfinance 0.2.66
// (yfinance/scrapers/quote.py): the recommendationTrend module's trend list as a DataFrame, or the
// upgradeDowngradeHistory module renamed (GradeDate, Firm, ToGrade, FromGrade, Action), dated
// from epoch seconds, kept from `months_back` months ago on, newest first, the latest per firm.
import { isJsonNumber } from '../shared/python-format.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { DateCell, recordsJson, type FrameRow } from './frame-json.js';
import { YahooNotFound, yahooUrl, type YahooClient } from './yahoo-client.js';

type Json = unknown;
const asObject = (value: Json): Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};

/** The module's object; undefined when Yahoo refuses the symbol (yfinance then has an empty frame). */
async function summaryModule(client: YahooClient, symbol: string, module: string): Promise<Record<string, Json> | undefined> {
  const url = yahooUrl('query2', `/v10/finance/quoteSummary/${encodeURIComponent(symbol)}`);
  let body: Json;
  try {
    body = await client.json(url, { modules: module, corsDomain: 'finance.yahoo.com', formatted: 'false', symbol });
  } catch (error) {
    if (error instanceof YahooNotFound) return undefined;
    throw error;
  }
  const result = asObject(asObject(body).quoteSummary).result;
  const first = Array.isArray(result) ? asObject(result[0]) : undefined;
  if (!first || !(module in first)) throw new Error(`Failed to parse json response from Yahoo Finance: no ${module} in the answer`);
  return asObject(first[module]);
}

export async function recommendationsJson(client: YahooClient, symbol: string): Promise<string> {
  const module = await summaryModule(client, symbol, 'recommendationTrend');
  if (!module) return '[]';
  const trend = module.trend;
  if (!Array.isArray(trend)) throw new UpstreamError('upstream_bad_response', `recommendationTrend has no trend list for ${symbol}`);
  return recordsJson(trend as FrameRow[]);
}

/** `pd.Timestamp.now() - pd.DateOffset(months=n)` (local clock, naive), as epoch ms. */
function monthsAgo(months: number, now = new Date()): number {
  const cutoff = new Date(now);
  const day = cutoff.getDate();
  cutoff.setDate(1);
  cutoff.setMonth(cutoff.getMonth() - months);
  const lastDay = new Date(cutoff.getFullYear(), cutoff.getMonth() + 1, 0).getDate();
  cutoff.setDate(Math.min(day, lastDay));
  return cutoff.getTime() - cutoff.getTimezoneOffset() * 60_000;
}

const renamed: Record<string, string> = { epochGradeDate: 'GradeDate', firm: 'Firm', toGrade: 'ToGrade', fromGrade: 'FromGrade', action: 'Action' };

export async function upgradesDowngradesJson(client: YahooClient, symbol: string, monthsBack: number): Promise<string> {
  const module = await summaryModule(client, symbol, 'upgradeDowngradeHistory');
  // yfinance's frame is empty then, and the reference's df["GradeDate"] fails with this KeyError.
  if (!module) throw new Error("'GradeDate'");
  const history = module.history;
  if (!Array.isArray(history)) throw new UpstreamError('upstream_bad_response', `upgradeDowngradeHistory has no history list for ${symbol}`);
  if (history.length === 0) throw new Error(`No upgrade/downgrade history found for ${symbol}`);
  // set_index('GradeDate') then reset_index(): GradeDate becomes the first column.
  const rows = history.map((entry) => {
    const record = Object.fromEntries(Object.entries(asObject(entry)).map(([key, value]) => [renamed[key] ?? key, value]));
    const seconds = isJsonNumber(record.GradeDate) ? Number(record.GradeDate.value) : Number.NaN;
    const { GradeDate: _date, ...rest } = record;
    return { GradeDate: new DateCell(seconds * 1000), ...rest } as FrameRow & { GradeDate: DateCell };
  });
  const cutoff = monthsAgo(monthsBack);
  const kept = rows.filter((row) => row.GradeDate.epochMs >= cutoff);
  // sort_values(ascending=False) is not stable (quicksort); equal dates keep Yahoo's order here.
  kept.sort((a, b) => b.GradeDate.epochMs - a.GradeDate.epochMs);
  const seenFirms = new Set<unknown>();
  const latest = kept.filter((row) => {
    if (seenFirms.has(row.Firm)) return false;
    seenFirms.add(row.Firm);
    return true;
  });
  return recordsJson(latest, ['GradeDate', ...new Set(rows.flatMap((row) => Object.keys(row)).filter((key) => key !== 'GradeDate'))]);
}
