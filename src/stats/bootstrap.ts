// Seeded percentile bootstrap. The unit of resampling is the task (tasks are the independent
// draws of a benchmark); when a task was run k > 1 times its trials are resampled inside it too
// (a two-level bootstrap), so the interval carries both the task-sampling and the run-to-run
// noise. The same seed gives the same interval on every machine (mulberry32 in
// src/llm/replay/perturb.ts). With every unit identical the interval is that single point.
import { createRandom } from '../core/seeded-random.js';
import { finite, quantileSorted } from './describe.js';

export interface BootstrapSettings {
  /** Number of bootstrap replicates. */
  resamples: number;
  /** Seed of the resampling; stated in every output. */
  seed: number;
  /** Coverage of the interval, e.g. 0.95. */
  level: number;
}

export const defaultBootstrap: BootstrapSettings = { resamples: 2000, seed: 20_240_615, level: 0.95 };

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

export type Random = () => number;

/** One draw with replacement of `items` (same length). */
function resample<T>(items: readonly T[], random: Random): T[] {
  const out: T[] = new Array(items.length);
  for (let index = 0; index < items.length; index += 1) out[index] = items[Math.floor(random() * items.length)] as T;
  return out;
}

/** Resamples a task's trials inside it (the second level); a single trial is kept as is. */
export function resampleTrials<T>(trials: readonly T[], random: Random): readonly T[] {
  return trials.length > 1 ? resample(trials, random) : trials;
}

/**
 * Percentile interval of `statistic` over `units` (one per task). `within` resamples inside a
 * unit (trials); leave it out to resample tasks only. Replicates where the statistic is not
 * finite (an empty denominator) are skipped.
 */
export function bootstrapInterval<U>(
  units: readonly U[],
  statistic: (sample: readonly U[]) => number,
  settings: BootstrapSettings = defaultBootstrap,
  within?: (unit: U, random: Random) => U,
): Interval {
  const estimate = statistic(units);
  if (units.length === 0 || !Number.isFinite(estimate)) return { estimate, low: Number.NaN, high: Number.NaN };
  const random = createRandom(settings.seed);
  const replicates: number[] = [];
  for (let b = 0; b < settings.resamples; b += 1) {
    const drawn = resample(units, random);
    replicates.push(statistic(within ? drawn.map((unit) => within(unit, random)) : drawn));
  }
  const sorted = finite(replicates).sort((a, b) => a - b);
  const alpha = (1 - settings.level) / 2;
  return { estimate, low: quantileSorted(sorted, alpha), high: quantileSorted(sorted, 1 - alpha) };
}

/**
 * Mean over tasks of each task's mean over the values `pick` gives for its trials (undefined: left
 * out; a task with none is left out): tasks weigh equally. Runs once per bootstrap replicate, so it
 * adds as it goes instead of building lists.
 */
export function meanOfTaskMeans<T>(units: ReadonlyArray<readonly T[]>, pick: (item: T) => number | undefined): number {
  let total = 0;
  let count = 0;
  for (const unit of units) {
    let unitTotal = 0;
    let values = 0;
    for (const item of unit) {
      const value = pick(item);
      if (value === undefined) continue;
      unitTotal += value;
      values += 1;
    }
    if (values === 0) continue;
    total += unitTotal / values;
    count += 1;
  }
  return count === 0 ? Number.NaN : total / count;
}
