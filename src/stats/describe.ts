// Plain descriptive statistics over finite numbers (NaN and infinities are skipped, so a metric
// a layer could not compute for one trial does not poison the others).
import { mean } from '../core/number-format.js';

export interface Spread {
  n: number;
  mean: number;
  min: number;
  max: number;
  /** Sample standard deviation (n - 1); 0 for a single value. */
  std: number;
  median: number;
}

export function finite(values: Iterable<number>): number[] {
  return [...values].filter((value) => Number.isFinite(value));
}

/** Linear interpolation between closest ranks (numpy's default), on sorted input. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

export function median(values: readonly number[]): number {
  return quantileSorted(
    finite(values).sort((a, b) => a - b),
    0.5,
  );
}

export function spread(values: readonly number[]): Spread {
  const kept = finite(values);
  const n = kept.length;
  if (n === 0) return { n: 0, mean: Number.NaN, min: Number.NaN, max: Number.NaN, std: Number.NaN, median: Number.NaN };
  const average = mean(kept);
  const variance = n > 1 ? kept.reduce((sum, value) => sum + (value - average) ** 2, 0) / (n - 1) : 0;
  return { n, mean: average, min: Math.min(...kept), max: Math.max(...kept), std: Math.sqrt(variance), median: median(kept) };
}
