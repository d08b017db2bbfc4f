// The one home of the small formatting helpers every layer prints with: a clipped text, a
// percentage, a sum and a mean. Callers that print differently on purpose (a table column padded,
// a null shown as "n/a", a marker that names the cut length) say so through the options, so the
// printed text of each caller stays what its tests assert.

export interface ClipOptions {
  /** Collapse whitespace runs into one space and trim before measuring: a one-line message. */
  flatten?: boolean;
  /** What replaces the cut part: a fixed marker, or one built from the whole (flattened) text. Default `...`. */
  marker?: string | ((whole: string) => string);
  /** The limit counts the marker too (`abcd...` for 7), instead of keeping `limit` characters before it. */
  markerInLimit?: boolean;
}

/** `text` cut to `limit` characters with a marker saying it was cut; unchanged when it fits. */
export function clip(text: string, limit: number, options: ClipOptions = {}): string {
  const shown = options.flatten ? text.replace(/\s+/g, ' ').trim() : text;
  if (shown.length <= limit) return shown;
  const marker = typeof options.marker === 'function' ? options.marker(shown) : (options.marker ?? '...');
  const kept = options.markerInLimit ? limit - marker.length : limit;
  return `${shown.slice(0, kept)}${marker}`;
}

export interface PercentOptions {
  /** Digits after the point; default 1. */
  digits?: number;
  /** Round and drop trailing zeros (`12.5`, `12`) instead of a fixed number of digits (`12.0`). */
  trim?: boolean;
  /** Left-pad the number to this width, for a table column. */
  width?: number;
  /** Text between the number and the sign (the paper's tables print `12.5 %`). */
  separator?: string;
  /** Text for a missing value (null, undefined, NaN); default `n/a`. */
  missing?: string;
  /** The value is a count out of this total, not a fraction: `100 * value / of` (0 of 0 is 0%), digits fixed (`trim` does not apply). */
  of?: number;
}

/** A fraction (0.125), or a count out of `options.of`, as a percentage (`12.5%`). */
export function formatPercent(value: number | null | undefined, options: PercentOptions = {}): string {
  if (value === null || value === undefined || Number.isNaN(value)) return options.missing ?? 'n/a';
  const digits = options.digits ?? 1;
  // Each product is the one its callers computed before (`fraction * 1000 / 10`, `100 * count / total`):
  // the same double, so a value on a rounding half prints as it did.
  const of = options.of;
  const number =
    of !== undefined
      ? (of === 0 ? 0 : (100 * value) / of).toFixed(digits)
      : options.trim
        ? String(Math.round(value * 10 ** (digits + 2)) / 10 ** digits)
        : (value * 100).toFixed(digits);
  return `${number.padStart(options.width ?? 0)}${options.separator ?? ''}%`;
}

/** `part / whole`, or `empty` when the whole is 0 (a share of nothing). */
export function shareOf(part: number, whole: number, empty = 0): number {
  return whole === 0 ? empty : part / whole;
}

/** The sum of the values, or of `pick(item)` over the items; 0 for none. Adds in order. */
export function sum(values: Iterable<number>): number;
export function sum<T>(items: Iterable<T>, pick: (item: T) => number): number;
export function sum<T>(items: Iterable<T>, pick?: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += pick ? pick(item) : (item as number);
  return total;
}

/** The arithmetic mean, or `empty` (default NaN: no data is not zero) when there are no values. */
export function mean(values: readonly number[], empty = Number.NaN): number {
  return values.length === 0 ? empty : sum(values) / values.length;
}
