// An independent, straightforward re-implementation of the reference's matching
// (evaluate_trajectories.py / evaluate_cv_issues.py: cosine_similarity_matrix in float32 via
// Math.fround, hungarian_bucketed_match), for agreement tests. The norm is summed the way numpy's
// add.reduce sums a row (pairwise: blocks of 128 values in 8 interleaved partial sums, halving
// above), since identical calls must come out at the same float32 self-similarity. The only
// shared piece is the SciPy port, whose tie answers test/eval/step/scipy-lsap.test.ts checks by hand.
import { linearSumAssignment } from '../../src/eval/step/scipy-lsap.js';
import type { TrajectoryCall } from '../../src/eval/step/trajectory.js';

const f = Math.fround;
function numpySum(values: number[]): number {
  if (values.length < 8) return values.reduce((total, value) => f(total + value), -0);
  if (values.length <= 128) {
    const lanes = values.slice(0, 8);
    const whole = values.length - (values.length % 8);
    for (let i = 8; i < whole; i += 1) lanes[i % 8] = f((lanes[i % 8] ?? 0) + (values[i] ?? 0));
    const [a = 0, b = 0, c = 0, d = 0, e = 0, g = 0, h = 0, k = 0] = lanes;
    return values.slice(whole).reduce((total, value) => f(total + value), f(f(f(a + b) + f(c + d)) + f(f(e + g) + f(h + k))));
  }
  const half = Math.floor(values.length / 2) - (Math.floor(values.length / 2) % 8);
  return f(numpySum(values.slice(0, half)) + numpySum(values.slice(half)));
}

// Each vector's unit vector once per vector object (the callers' vectors are memoised per text):
// recomputing it for every task's matrix was most of this file's cost in the agreement tests.
const units = new WeakMap<Float32Array, Float32Array>();
function unit(vector: Float32Array): Float32Array {
  const known = units.get(vector);
  if (known) return known;
  const squares = numpySum(Array.from(vector, (value) => f(value * value)));
  const denominator = f(f(Math.sqrt(squares)) + f(1e-8));
  const result = vector.map((value) => f(value / denominator));
  units.set(vector, result);
  return result;
}

export function similarityMatrix(gt: Float32Array[], pred: Float32Array[]): number[][] {
  const a = gt.map(unit);
  const b = pred.map(unit);
  return a.map((left) =>
    b.map((right) => {
      let total = 0;
      for (let k = 0; k < left.length; k += 1) total = f(total + (left[k] ?? 0) * (right[k] ?? 0));
      return Math.min(1, Math.max(-1, total));
    }),
  );
}

export interface RefPair {
  g: number;
  p: number;
  sim: number;
  gs: number;
  ps: number;
}

export function referenceMatch(gt: TrajectoryCall[], pred: TrajectoryCall[], sims: number[][], tau: number): RefPair[] {
  const buckets = (calls: TrajectoryCall[]) => {
    const map = new Map<string, number[]>();
    calls.forEach((call, index) => map.set(call.tool, [...(map.get(call.tool) ?? []), index]));
    return map;
  };
  const predBuckets = buckets(pred);
  const pairs: RefPair[] = [];
  for (const [tool, rows] of buckets(gt)) {
    const cols = predBuckets.get(tool);
    if (!cols) continue;
    const sub = rows.map((g) => cols.map((p) => sims[g]?.[p] ?? 0));
    const cost = sub.map((row) => row.map((sim) => (sim < f(tau) ? 1e6 : f(1 - sim))));
    const { rowIndices, columnIndices } = linearSumAssignment(cost);
    rowIndices.forEach((r, index) => {
      const c = columnIndices[index] ?? 0;
      const sim = sub[r]?.[c] ?? 0;
      if (sim < tau) return;
      const g = rows[r] ?? 0;
      const p = cols[c] ?? 0;
      pairs.push({ g, p, sim, gs: gt[g]?.stepIndex ?? 0, ps: pred[p]?.stepIndex ?? 0 });
    });
  }
  return pairs;
}
