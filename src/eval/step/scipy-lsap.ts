// SciPy's `linear_sum_assignment`, ported so `--reference-compat` picks the assignment SciPy
// picks when costs tie. The algorithm is the shortest augmenting path method of Crouse (2016,
// "On implementing 2D rectangular assignment algorithms", pp. 1685-1686) as SciPy's
// `scipy/optimize/rectangular_lsap/rectangular_lsap.cpp` implements it (current layout: the C++
// solver transposes a tall matrix itself and does not shift costs by their minimum). Everything
// that decides a tie is kept exactly:
//   - rows are added in index order (curRow = 0, 1, ...);
//   - the candidate columns of each Dijkstra pass start as [nc-1, ..., 1, 0] and a column that is
//     taken out is replaced by the last remaining one (swap-remove), so scan order changes as
//     the pass goes on;
//   - a column is the new minimum when its path cost is strictly lower, or equal and unassigned;
//   - all arithmetic is IEEE double in the same order (`minVal + cost - u[i] - v[j]`);
//   - a transposed problem is solved on the transpose and its pairs are returned sorted by row.
// The result is `rowIndices` ascending with the matching `columnIndices`, like SciPy's pair.
import { BELOW_THRESHOLD_COST, type BucketSolver } from './assignment.js';

interface Assignment {
  rowIndices: number[];
  columnIndices: number[];
}

interface PathResult {
  sink: number;
  minVal: number;
}

interface SolverState {
  nc: number;
  cost: Float64Array;
  u: Float64Array;
  v: Float64Array;
  path: Int32Array;
  row4col: Int32Array;
  shortestPathCosts: Float64Array;
  rowVisited: Uint8Array;
  columnVisited: Uint8Array;
  remaining: Int32Array;
}

function augmentingPath(state: SolverState, startRow: number): PathResult | undefined {
  const { nc, cost, u, v, path, row4col, shortestPathCosts, rowVisited, columnVisited, remaining } = state;
  let minVal = 0;
  let numRemaining = nc;
  // Reverse order makes the solution of a constant matrix the identity (SciPy issue #11602).
  for (let it = 0; it < nc; it += 1) remaining[it] = nc - it - 1;
  rowVisited.fill(0);
  columnVisited.fill(0);
  shortestPathCosts.fill(Number.POSITIVE_INFINITY);
  let i = startRow;
  let sink = -1;
  while (sink === -1) {
    let index = -1;
    let lowest = Number.POSITIVE_INFINITY;
    rowVisited[i] = 1;
    for (let it = 0; it < numRemaining; it += 1) {
      const j = remaining[it] as number;
      const r = minVal + (cost[i * nc + j] as number) - (u[i] as number) - (v[j] as number);
      if (r < (shortestPathCosts[j] as number)) {
        path[j] = i;
        shortestPathCosts[j] = r;
      }
      const candidate = shortestPathCosts[j] as number;
      if (candidate < lowest || (candidate === lowest && row4col[j] === -1)) {
        lowest = candidate;
        index = it;
      }
    }
    minVal = lowest;
    if (minVal === Number.POSITIVE_INFINITY) return undefined;
    const j = remaining[index] as number;
    if (row4col[j] === -1) sink = j;
    else i = row4col[j] as number;
    columnVisited[j] = 1;
    numRemaining -= 1;
    remaining[index] = remaining[numRemaining] as number;
  }
  return { sink, minVal };
}

/** rows <= cols; returns col4row. */
function solveWide(nr: number, nc: number, cost: Float64Array): Int32Array {
  const state: SolverState = {
    nc,
    cost,
    u: new Float64Array(nr),
    v: new Float64Array(nc),
    path: new Int32Array(nc).fill(-1),
    row4col: new Int32Array(nc).fill(-1),
    shortestPathCosts: new Float64Array(nc),
    rowVisited: new Uint8Array(nr),
    columnVisited: new Uint8Array(nc),
    remaining: new Int32Array(nc),
  };
  const col4row = new Int32Array(nr).fill(-1);
  const { u, v, path, row4col, shortestPathCosts, rowVisited, columnVisited } = state;
  for (let curRow = 0; curRow < nr; curRow += 1) {
    const found = augmentingPath(state, curRow);
    if (!found) throw new RangeError('cost matrix is infeasible');
    const { sink, minVal } = found;
    u[curRow] = (u[curRow] as number) + minVal;
    for (let i = 0; i < nr; i += 1) {
      if (rowVisited[i] && i !== curRow) u[i] = (u[i] as number) + minVal - (shortestPathCosts[col4row[i] as number] as number);
    }
    for (let j = 0; j < nc; j += 1) {
      if (columnVisited[j]) v[j] = (v[j] as number) - (minVal - (shortestPathCosts[j] as number));
    }
    let j = sink;
    for (;;) {
      const i = path[j] as number;
      row4col[j] = i;
      const previous = col4row[i] as number;
      col4row[i] = j;
      j = previous;
      if (i === curRow) break;
    }
  }
  return col4row;
}

/**
 * Minimum-cost assignment of a row-major cost matrix (`rows` × `cols`), as SciPy returns it.
 * NaN or -Infinity entries are refused, as SciPy refuses them.
 * @internal Exported for its tests.
 */
export function linearSumAssignment(cost: readonly (readonly number[])[]): Assignment {
  const rows = cost.length;
  const cols = rows === 0 ? 0 : (cost[0]?.length ?? 0);
  if (rows === 0 || cols === 0) return { rowIndices: [], columnIndices: [] };
  const transpose = cols < rows;
  const nr = transpose ? cols : rows;
  const nc = transpose ? rows : cols;
  const flat = new Float64Array(nr * nc);
  for (let r = 0; r < rows; r += 1) {
    const row = cost[r];
    if (!row || row.length !== cols) throw new RangeError(`cost matrix row ${r} has ${row?.length ?? 0} entries, expected ${cols}`);
    for (let c = 0; c < cols; c += 1) {
      const value = row[c] as number;
      if (Number.isNaN(value) || value === Number.NEGATIVE_INFINITY) throw new RangeError('cost matrix contains invalid numeric entries');
      flat[transpose ? c * nc + r : r * nc + c] = value;
    }
  }
  const col4row = solveWide(nr, nc, flat);
  if (!transpose) return { rowIndices: Array.from({ length: nr }, (_, i) => i), columnIndices: Array.from(col4row) };
  // Transposed: pairs (col4row[k], k) sorted by their original row; rows are distinct.
  const order = Array.from({ length: nr }, (_, k) => k).sort((a, b) => (col4row[a] as number) - (col4row[b] as number));
  return { rowIndices: order.map((k) => col4row[k] as number), columnIndices: order };
}

/**
 * The reference's bucket step on top of the port: cost `1 - sim`, `10^6` where `sim < tau_weak`.
 * With `float32` the similarities are float32 values and so is the cost, as numpy computes
 * `1.0 - sub` and `sub < tau_weak` on a float32 array (tau is rounded to float32 for the mask;
 * acceptance afterwards stays a double comparison, see matchCalls).
 */
export function createScipySolver(float32: boolean): BucketSolver {
  return (sims, tauWeak) => {
    const mask = float32 ? Math.fround(tauWeak) : tauWeak;
    const cost = sims.map((row) =>
      row.map((sim) => {
        if (!(sim >= mask)) return BELOW_THRESHOLD_COST;
        return float32 ? Math.fround(1 - sim) : 1 - sim;
      }),
    );
    const { rowIndices, columnIndices } = linearSumAssignment(cost);
    const assignment = new Array<number>(sims.length).fill(-1);
    rowIndices.forEach((row, index) => {
      assignment[row] = columnIndices[index] ?? -1;
    });
    return assignment;
  };
}
