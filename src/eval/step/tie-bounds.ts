// Tie- and threshold-sensitive tasks. The reference computes its similarity matrix in float32
// through BLAS, whose rounding depends on an entry's position: two calls with identical text can
// get 0.9999998 and 0.9999999 against the same prediction, so its assignment may cross them, and
// a similarity m3bench puts at 0.6000004 may be 0.5999996 there. No port can be bit-exact, so a
// task whose metrics depend on such noise is flagged instead: the matching is solved again on
// copies of the similarity matrix moved by at most FLOAT32_NOISE (all up, all down, toward
// crossing pairs, toward the diagonal, and seeded random draws), and the task reports
// `tie_sensitive: true` with `tie_bounds: {metric: [min, max]}` over every result, when a metric
// moves by more than TIE_METRIC_SLACK between them (more than moving values alone can do).
import type { TrajectoryCall } from './trajectory.js';
import { createRandom } from '../../core/seeded-random.js';

/** How far float32 rounding (in another summation order) may move a similarity. */
export const FLOAT32_NOISE = 4e-6;
/** A metric differing by more than this between tie-breaks is tie-sensitive (jitter alone moves values by < FLOAT32_NOISE). */
const TIE_METRIC_SLACK = 1e-5;
const RANDOM_DRAWS = 4;

export type Bounds = [number, number];

function groups(calls: readonly { tool: string }[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const [index, call] of calls.entries()) map.set(call.tool, [...(map.get(call.tool) ?? []), index]);
  return map;
}

const near = (a: number, b: number, slack: number) => Math.abs(a - b) <= slack;

/**
 * Whether float32 noise could change this task's matching: a same-tool similarity within noise of
 * a threshold, or two candidates of one call (or two calls for one candidate) within noise of each
 * other at an acceptable level.
 */
export function mayDependOnNoise(
  gtCalls: readonly TrajectoryCall[],
  predCalls: readonly TrajectoryCall[],
  sims: readonly (readonly number[])[],
  thresholds: readonly number[],
): boolean {
  const predGroups = groups(predCalls);
  const floor = Math.min(...thresholds) - FLOAT32_NOISE;
  for (const [tool, rows] of groups(gtCalls)) {
    const cols = predGroups.get(tool) ?? [];
    const value = (g: number, p: number) => sims[g]?.[p] ?? Number.NaN;
    for (const g of rows) {
      for (const [index, p] of cols.entries()) {
        const sim = value(g, p);
        if (thresholds.some((tau) => near(sim, tau, FLOAT32_NOISE))) return true;
        if (!(sim >= floor)) continue;
        if (cols.slice(index + 1).some((other) => near(sim, value(g, other), 2 * FLOAT32_NOISE))) return true;
        if (rows.some((other) => other !== g && near(sim, value(other, p), 2 * FLOAT32_NOISE))) return true;
      }
    }
  }
  return false;
}

/** Copies of `sims` moved by at most FLOAT32_NOISE each, to solve the matching again on. */
export function noiseVariants(sims: readonly (readonly number[])[], seed: number): number[][][] {
  const width = Math.max(1, sims.length, ...sims.map((row) => row.length));
  // Clipped to [-1, 1] like every similarity, so a cost 1 - sim never goes negative.
  const move = (shift: (g: number, p: number) => number) => sims.map((row, g) => row.map((sim, p) => Math.max(-1, Math.min(1, sim + shift(g, p)))));
  const variants = [
    move(() => FLOAT32_NOISE),
    move(() => -FLOAT32_NOISE),
    move((g, p) => (FLOAT32_NOISE * Math.abs(g - p)) / width),
    move((g, p) => (-FLOAT32_NOISE * Math.abs(g - p)) / width),
  ];
  const random = createRandom(seed);
  for (let draw = 0; draw < RANDOM_DRAWS; draw += 1) variants.push(move(() => FLOAT32_NOISE * (2 * random() - 1)));
  return variants;
}

/** A seed from the task id, so a task's variants never depend on evaluation order. */
export function seedOf(id: string): number {
  let hash = 2166136261;
  for (let index = 0; index < id.length; index += 1) hash = Math.imul(hash ^ id.charCodeAt(index), 16777619);
  return hash >>> 0;
}

/** [min, max] of each key over the results; `changed` lists the keys whose range exceeds TIE_METRIC_SLACK. */
export function boundsOver<K extends string>(
  results: ReadonlyArray<Readonly<Record<K, number>>>,
  keys: readonly K[],
): { bounds: Partial<Record<K, Bounds>>; changed: K[] } {
  const bounds: Partial<Record<K, Bounds>> = {};
  const changed: K[] = [];
  for (const key of keys) {
    const values = results.map((result) => result[key]).filter((value) => Number.isFinite(value));
    if (values.length === 0) continue;
    const range: Bounds = [Math.min(...values), Math.max(...values)];
    bounds[key] = range;
    if (range[1] - range[0] > TIE_METRIC_SLACK) changed.push(key);
  }
  return { bounds, changed };
}
