// Rectangular linear assignment (Hungarian algorithm with potentials, Jonker-Volgenant style
// shortest augmenting paths) and the tool-name-bucketed matching of the reference.
//
// Determinism. The reference leaves exact ties to SciPy. Here every cost is a
// lexicographic tuple folded into one BigInt, so arithmetic is exact and ties are real ties:
//   1. the number of pairs below tau_weak (the reference's 10^6 cost, i.e. maximise the number
//      of acceptable pairs first),
//   2. the sum of (1 - sim) over acceptable pairs, quantised to 1e-12 (the reference objective;
//      sims closer than 1e-12 are treated as equal),
//   3. the sum of |GT step - predicted step| (prefer same-step pairs, then the nearest step),
//   4. the sum of (row rank - column rank)^2 within the bucket,
//   5. the columns read as digits, first row most significant (an unassigned row reads as the
//      largest digit): among what is still tied, row 0 takes the lowest column, then row 1, ...
// Components 3-5 only decide between assignments equal on 1 and 2, i.e. between calls the
// similarity cannot tell apart. The square in 4 is strictly convex, so it never prefers a
// crossing pair: duplicate identical calls map in index order (first GT call to first predicted
// call, ...). Component 5 makes the optimum unique, so surplus ties go to the lowest indices and
// the result never depends on the solver's path.
import type { TrajectoryCall } from './trajectory.js';

export const BELOW_THRESHOLD_COST = 1_000_000;
const QUANTUM = 1e12;

/**
 * Minimum-cost assignment of min(rows, cols) pairs for an exact integer cost matrix.
 * Returns, for each row, the assigned column or -1.
 * @internal Exported for its tests.
 */
export function solveAssignment(cost: readonly (readonly bigint[])[]): number[] {
  const rows = cost.length;
  const cols = rows === 0 ? 0 : (cost[0]?.length ?? 0);
  if (rows === 0 || cols === 0) return new Array<number>(rows).fill(-1);
  if (rows > cols) {
    const transposed = Array.from({ length: cols }, (_, j) => cost.map((row) => row[j] ?? 0n));
    const columnToRow = solveAssignment(transposed);
    const rowToColumn = new Array<number>(rows).fill(-1);
    columnToRow.forEach((row, column) => {
      if (row >= 0) rowToColumn[row] = column;
    });
    return rowToColumn;
  }
  return solveWide(cost, rows, cols);
}

/** rows <= cols. Classic O(n^2 m) potentials method (1-based arrays; index 0 is the virtual column). */
function solveWide(cost: readonly (readonly bigint[])[], rows: number, cols: number): number[] {
  const rowPotential = new Array<bigint>(rows + 1).fill(0n);
  const colPotential = new Array<bigint>(cols + 1).fill(0n);
  const rowOfColumn = new Array<number>(cols + 1).fill(0);
  const way = new Array<number>(cols + 1).fill(0);
  let infinity = 1n;
  for (const row of cost) for (const value of row) if (value > infinity) infinity = value;
  infinity = infinity * 4n * BigInt(rows + cols + 1) + 1n;
  for (let row = 1; row <= rows; row += 1) {
    rowOfColumn[0] = row;
    let column0 = 0;
    const minimum = new Array<bigint>(cols + 1).fill(infinity);
    const used = new Array<boolean>(cols + 1).fill(false);
    do {
      used[column0] = true;
      const row0 = rowOfColumn[column0] ?? 0;
      let delta = infinity;
      let column1 = 0;
      for (let column = 1; column <= cols; column += 1) {
        if (used[column]) continue;
        const reduced = (cost[row0 - 1]?.[column - 1] ?? 0n) - (rowPotential[row0] ?? 0n) - (colPotential[column] ?? 0n);
        if (reduced < (minimum[column] ?? infinity)) {
          minimum[column] = reduced;
          way[column] = column0;
        }
        if ((minimum[column] ?? infinity) < delta) {
          delta = minimum[column] ?? infinity;
          column1 = column;
        }
      }
      for (let column = 0; column <= cols; column += 1) {
        if (used[column]) {
          const owner = rowOfColumn[column] ?? 0;
          rowPotential[owner] = (rowPotential[owner] ?? 0n) + delta;
          colPotential[column] = (colPotential[column] ?? 0n) - delta;
        } else {
          minimum[column] = (minimum[column] ?? infinity) - delta;
        }
      }
      column0 = column1;
    } while ((rowOfColumn[column0] ?? 0) !== 0);
    do {
      const column1 = way[column0] ?? 0;
      rowOfColumn[column0] = rowOfColumn[column1] ?? 0;
      column0 = column1;
    } while (column0 !== 0);
  }
  const result = new Array<number>(rows).fill(-1);
  for (let column = 1; column <= cols; column += 1) {
    const row = rowOfColumn[column] ?? 0;
    if (row > 0) result[row - 1] = column - 1;
  }
  return result;
}

/**
 * The exact cost matrix for a similarity sub-matrix (see the header for the five components).
 * `steps` gives the step index of each row and column (omit: component 3 is zero). Every
 * feasible assignment has min(rows, cols) pairs, so the constant offset that keeps component 5
 * non-negative does not change which assignment is optimal.
 * @internal Exported for its tests.
 */
export function thresholdedCosts(
  sims: readonly (readonly number[])[],
  tauWeak: number,
  steps?: { rows: readonly number[]; cols: readonly number[] },
): bigint[][] {
  const rows = sims.length;
  const cols = sims[0]?.length ?? 0;
  const base = BigInt(cols + 2);
  const pairs = BigInt(Math.min(rows, cols) + 1);
  const stepOf = (list: readonly number[] | undefined, index: number) => list?.[index] ?? 0;
  const maxStep = Math.max(0, ...(steps?.rows ?? []), ...(steps?.cols ?? []));
  const digitScale = base ** BigInt(rows);
  const rankScale = digitScale * (base + 1n);
  const stepScale = rankScale * (BigInt(Math.max(rows, cols) ** 2) * pairs + 1n);
  const quantumScale = stepScale * (BigInt(maxStep) * pairs + 1n);
  const belowScale = quantumScale * BigInt(2 * QUANTUM + 1) * pairs;
  return sims.map((row, r) => {
    const weight = base ** BigInt(rows - 1 - r);
    return row.map((sim, c) => {
      const digit = digitScale * (base + 1n) - weight * (BigInt(cols + 1) - BigInt(c));
      const rank = BigInt((r - c) * (r - c)) * rankScale;
      const step = BigInt(Math.abs(stepOf(steps?.rows, r) - stepOf(steps?.cols, c))) * stepScale;
      if (!(sim >= tauWeak)) return belowScale + step + rank + digit;
      return BigInt(Math.round((1 - sim) * QUANTUM)) * quantumScale + step + rank + digit;
    });
  });
}

/**
 * Solves one similarity sub-matrix with the thresholded, tie-broken cost. Row → column or -1.
 * @internal Exported for its tests.
 */
export function assignBySimilarity(
  sims: readonly (readonly number[])[],
  tauWeak: number,
  steps?: { rows: readonly number[]; cols: readonly number[] },
): number[] {
  return solveAssignment(thresholdedCosts(sims, tauWeak, steps));
}

export interface Match {
  gtIndex: number;
  predIndex: number;
  similarity: number;
  gtStep: number;
  predStep: number;
}

function bucketByTool(calls: readonly TrajectoryCall[]): Map<string, number[]> {
  const buckets = new Map<string, number[]>();
  calls.forEach((call, index) => {
    const list = buckets.get(call.tool);
    if (list) list.push(index);
    else buckets.set(call.tool, [index]);
  });
  return buckets;
}

/** Solves one tool bucket: similarity sub-matrix in, row → column (or -1) out. */
export type BucketSolver = (sims: readonly (readonly number[])[], tauWeak: number, steps: { rows: readonly number[]; cols: readonly number[] }) => number[];

/** The corrected default: the exact, tie-broken cost of the header. */
export const tieBreakSolver: BucketSolver = (sims, tauWeak, steps) => assignBySimilarity(sims, tauWeak, steps);

/**
 * Tool-name-bucketed matching. `sims[g][p]` is the similarity of flat GT call g and
 * flat predicted call p. Matches come out in the reference order: GT tool names in order of
 * first appearance, then GT rows ascending within a bucket. A pair is accepted when its
 * similarity is >= tau_weak (a double comparison, as the reference's `float(sim) < tau_weak`).
 */
export function matchCalls(
  gtCalls: readonly TrajectoryCall[],
  predCalls: readonly TrajectoryCall[],
  sims: readonly (readonly number[])[],
  tauWeak: number,
  solver: BucketSolver = tieBreakSolver,
): { matches: Match[]; unmatchedGt: number[]; unmatchedPred: number[] } {
  const matches: Match[] = [];
  const predBuckets = bucketByTool(predCalls);
  for (const [tool, gtIndices] of bucketByTool(gtCalls)) {
    const predIndices = predBuckets.get(tool);
    if (!predIndices) continue;
    const sub = gtIndices.map((g) => predIndices.map((p) => sims[g]?.[p] ?? Number.NaN));
    const steps = { rows: gtIndices.map((g) => gtCalls[g]?.stepIndex ?? 0), cols: predIndices.map((p) => predCalls[p]?.stepIndex ?? 0) };
    const assignment = solver(sub, tauWeak, steps);
    assignment.forEach((column, row) => {
      if (column < 0) return;
      const similarity = sub[row]?.[column] ?? Number.NaN;
      if (!(similarity >= tauWeak)) return;
      const gtIndex = gtIndices[row] ?? -1;
      const predIndex = predIndices[column] ?? -1;
      matches.push({
        gtIndex,
        predIndex,
        similarity,
        gtStep: gtCalls[gtIndex]?.stepIndex ?? 0,
        predStep: predCalls[predIndex]?.stepIndex ?? 0,
      });
    });
  }
  const usedGt = new Set(matches.map((match) => match.gtIndex));
  const usedPred = new Set(matches.map((match) => match.predIndex));
  return {
    matches,
    unmatchedGt: gtCalls.map((_, index) => index).filter((index) => !usedGt.has(index)),
    unmatchedPred: predCalls.map((_, index) => index).filter((index) => !usedPred.has(index)),
  };
}
