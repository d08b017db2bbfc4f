// Similarity of calls: cosine of argument-text embeddings,
// S = (e_g / (|e_g| + 1e-8)) . (e_p / (|e_p| + 1e-8)), clipped to [-1, 1]. The evaluator takes a
// `TaskSimilarity` so tests can inject similarities directly (the hand-computed golden example in test/eval/step/golden.test.ts).
import type { Trajectory } from './trajectory.js';

/** Returns sims[g][p] for the flat GT calls (rows) and flat predicted calls (columns) of one task. */
export type TaskSimilarity = (gt: Trajectory, pred: Trajectory) => number[][];

const COSINE_EPSILON = 1e-8;

// Indexed loops: the iterator and the mapping callback of Float64Array.from cost more than the
// arithmetic (the metric runs scale every vector of every evaluation).
function scaled(vector: Float32Array): Float64Array {
  let total = 0;
  for (let index = 0; index < vector.length; index += 1) total += (vector[index] as number) * (vector[index] as number);
  const denominator = Math.sqrt(total) + COSINE_EPSILON;
  const result = new Float64Array(vector.length);
  for (let index = 0; index < vector.length; index += 1) result[index] = (vector[index] as number) / denominator;
  return result;
}

function dot(a: Float64Array, b: Float64Array): number {
  const length = Math.min(a.length, b.length);
  let total = 0;
  for (let index = 0; index < length; index += 1) total += (a[index] as number) * (b[index] as number);
  return total;
}

/** @internal Exported for its tests. */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  return Math.max(-1, Math.min(1, dot(scaled(a), scaled(b))));
}

/**
 * Similarity from precomputed text → vector embeddings (every call text must be present): each
 * vector scaled once by `scale`, pairs scored by `product`, clipped to [-1, 1].
 */
export function createVectorSimilarity<T>(
  vectors: ReadonlyMap<string, Float32Array>,
  scale: (vector: Float32Array) => T,
  product: (a: T, b: T) => number,
): TaskSimilarity {
  const unit = new Map<string, T>();
  const lookup = (text: string): T => {
    let value = unit.get(text);
    if (value === undefined) {
      const vector = vectors.get(text);
      if (!vector) throw new Error(`no embedding for argument text ${JSON.stringify(text.slice(0, 80))}`);
      value = scale(vector);
      unit.set(text, value);
    }
    return value;
  };
  return (gt, pred) =>
    gt.calls.map((gtCall) => {
      const left = lookup(gtCall.text);
      return pred.calls.map((predCall) => Math.max(-1, Math.min(1, product(left, lookup(predCall.text)))));
    });
}

/**
 * The float64 cosine of the header, except that identical argument texts score exactly 1: the
 * formula's 1e-8 in the denominator would give 0.99999998, so a perfect prediction would miss 1
 * (the reference's float32 path, float32.ts, keeps the formula as it is).
 */
export function createEmbeddingSimilarity(vectors: ReadonlyMap<string, Float32Array>): TaskSimilarity {
  const cosine = createVectorSimilarity(vectors, scaled, dot);
  return (gt, pred) => cosine(gt, pred).map((row, g) => row.map((sim, p) => (gt.calls[g]?.text === pred.calls[p]?.text ? 1 : sim)));
}
