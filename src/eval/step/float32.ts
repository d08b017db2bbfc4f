// The reference's similarity matrix in float32, for --reference-compat. The reference stacks the
// vectors as float32 and runs `cosine_similarity_matrix` in numpy:
//   a_norm = a / (np.linalg.norm(a, axis=1, keepdims=True) + 1e-8); S = clip(a_norm @ b_norm.T, -1, 1)
// Every stored value is therefore a float32, and a similarity of exactly float32(0.6) =
// 0.6000000238 passes `>= 0.6` where the float64 cosine (0.5999999999) does not. Here:
//   squares       float32 products, summed with numpy's pairwise summation (blocks of 8
//                 accumulators, halving above 128 values), as `add.reduce` does along a row;
//   norm, scale   float32 sqrt, `norm + float32(1e-8)`, float32 division (each rounded once);
//   dot product   float32 accumulation in index order with one rounding per multiply-add, as a
//                 BLAS sgemm kernel accumulates one output. numpy may call sgemv or sdot instead
//                 for one-row inputs, whose lane-split sums can differ in the last float32 bits
//                 (a few 1e-8); thresholds are exact only where such bits do not decide them.
// Each operation is an IEEE double operation on float32 inputs rounded with Math.fround, which
// equals the float32 operation for +, -, *, / and sqrt (double has more than 2 × 24 + 2 bits).
import { createVectorSimilarity, type TaskSimilarity } from './similarity.js';

const f = Math.fround;
const EPSILON32 = f(1e-8);
const PAIRWISE_BLOCK = 128;

/** numpy's `pairwise_sum` for float32 over `values[start, start + count)`. */
function pairwiseSumFloat32(values: ArrayLike<number>, start = 0, count = values.length - start): number {
  if (count < 8) {
    let result = -0;
    for (let index = 0; index < count; index += 1) result = f(result + (values[start + index] as number));
    return result;
  }
  if (count <= PAIRWISE_BLOCK) {
    const partial = Array.from({ length: 8 }, (_, lane) => values[start + lane] as number);
    let index = 8;
    for (; index < count - (count % 8); index += 8) {
      for (let lane = 0; lane < 8; lane += 1) partial[lane] = f((partial[lane] as number) + (values[start + index + lane] as number));
    }
    const [p0, p1, p2, p3, p4, p5, p6, p7] = partial as [number, number, number, number, number, number, number, number];
    let result = f(f(f(p0 + p1) + f(p2 + p3)) + f(f(p4 + p5) + f(p6 + p7)));
    for (; index < count; index += 1) result = f(result + (values[start + index] as number));
    return result;
  }
  let half = Math.floor(count / 2);
  half -= half % 8;
  return f(pairwiseSumFloat32(values, start, half) + pairwiseSumFloat32(values, start + half, count - half));
}

/** `a / (np.linalg.norm(a) + 1e-8)` in float32. */
function float32UnitVector(vector: ArrayLike<number>): Float32Array {
  const squares = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index += 1) {
    const value = f(vector[index] as number);
    squares[index] = f(value * value);
  }
  const norm = f(Math.sqrt(pairwiseSumFloat32(squares)));
  const denominator = f(norm + EPSILON32);
  const result = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index += 1) result[index] = f(f(vector[index] as number) / denominator);
  return result;
}

/** Dot product accumulated in float32, index order. */
function float32Dot(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let total = 0;
  for (let index = 0; index < length; index += 1) total = f(total + (a[index] as number) * (b[index] as number));
  return total;
}

/** The float32 counterpart of createEmbeddingSimilarity (clipped to [-1, 1] like np.clip). */
export function createFloat32Similarity(vectors: ReadonlyMap<string, Float32Array>): TaskSimilarity {
  return createVectorSimilarity(vectors, float32UnitVector, float32Dot);
}
