// `DataFrame.to_json(orient="records", date_format="iso")` as pandas writes it, for the answers
// the reference built from yfinance DataFrames: columns in first-seen order (missing cells are
// NaN), a column's dtype decides how its numbers print (int64 as is; float64, which any NaN or
// fractional literal makes it, rounded to 10 decimals with ".0" kept), datetimes as UTC ISO with
// milliseconds and "Z", "/" escaped as "\/", non-ASCII as \uXXXX, no spaces.
import { asciiJsonString, isJsonNumber, pythonFloatRepr } from '../shared/python-format.js';

/** A cell pandas holds as a datetime64 (epoch milliseconds, UTC). */
export class DateCell {
  constructor(readonly epochMs: number) {}
}

export type FrameRow = Record<string, unknown>;

const pandasString = (text: string) => asciiJsonString(text, true);

/** A float64 as pandas' JSON encoder prints it (double_precision=10). */
function pandasFloat(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  return pythonFloatRepr(Number(value.toFixed(10)));
}

const numeric = (value: unknown): number | undefined =>
  isJsonNumber(value) ? Number(value.value) : typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;
// A plain JS number cannot say whether Python held an int or a float: only lossless literals and
// bigints count as ints here, so callers give a dtype for columns built from JS numbers.
const isIntLiteral = (value: unknown) => (isJsonNumber(value) ? !/[.eE]/.test(value.value) : typeof value === 'bigint');

type ColumnKind = 'int' | 'float' | 'other';

function kindOf(values: unknown[]): ColumnKind {
  const present = values.filter((value) => value !== null && value !== undefined);
  const allNumbers = present.length > 0 && present.every((value) => numeric(value) !== undefined);
  if (!allNumbers) return 'other';
  return present.length === values.length && present.every(isIntLiteral) ? 'int' : 'float';
}

function cell(value: unknown, kind: ColumnKind, isoDates = true): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof DateCell) return isoDates ? pandasString(new Date(value.epochMs).toISOString()) : String(value.epochMs);
  if (kind === 'float') return pandasFloat(numeric(value) ?? Number.NaN);
  if (isJsonNumber(value)) return isIntLiteral(value) ? value.value : pandasFloat(Number(value.value));
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return kind === 'int' && Number.isInteger(value) ? String(value) : pandasFloat(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return pandasString(value);
  if (Array.isArray(value)) return `[${value.map((item) => cell(item, 'other')).join(',')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${pandasString(key)}:${cell(item, 'other')}`)
      .join(',')}}`;
  }
  return pandasString(String(value));
}

/** The column order pandas gives a DataFrame built from a list of dicts. */
function frameColumns(rows: readonly FrameRow[]): string[] {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return columns;
}

export interface RecordsOptions {
  /** Fixes a column's dtype where the values alone cannot tell (JS numbers). */
  dtypes?: Record<string, ColumnKind>;
  /** false: datetimes as epoch milliseconds (to_json without date_format="iso"). */
  isoDates?: boolean;
}

export function recordsJson(rows: readonly FrameRow[], columns: readonly string[] = frameColumns(rows), options: RecordsOptions = {}): string {
  const kinds = new Map(columns.map((column) => [column, options.dtypes?.[column] ?? kindOf(rows.map((row) => row[column]))]));
  const iso = options.isoDates ?? true;
  const body = rows.map((row) => `{${columns.map((column) => `${pandasString(column)}:${cell(row[column], kinds.get(column) ?? 'other', iso)}`).join(',')}}`);
  return `[${body.join(',')}]`;
}
