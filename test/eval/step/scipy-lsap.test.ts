// The SciPy linear_sum_assignment port. Tie cases carry the answer SciPy gives, derived by hand
// by running rectangular_lsap.cpp's loop on paper (scan order of `remaining` starts at
// [nc-1, ..., 0] and is swap-removed; a column wins when its path cost is lower, or equal and
// unassigned). All costs are binary fractions, so the double arithmetic is exact and the
// derivations below are exactly what the C++ computes. Optimality is also checked against
// exhaustive search on random matrices.
import { describe, expect, it } from 'vitest';
import { BELOW_THRESHOLD_COST, matchCalls } from '../../../src/eval/step/assignment.js';
import { unitDraw } from '../../support/perturb.js';
import { createScipySolver, linearSumAssignment } from '../../../src/eval/step/scipy-lsap.js';
import type { TrajectoryCall } from '../../../src/eval/step/trajectory.js';

const pairs = (cost: number[][]) => {
  const { rowIndices, columnIndices } = linearSumAssignment(cost);
  return rowIndices.map((row, index) => [row, columnIndices[index]]);
};

describe('linearSumAssignment: hand-derived SciPy answers on ties', () => {
  it('case 1, constant 2x2: identity (row 0 scans col 1 then col 0, equal and unassigned, takes col 0; row 1 then finds col 1 first)', () => {
    expect(
      pairs([
        [0.5, 0.5],
        [0.5, 0.5],
      ]),
    ).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('case 2, constant 1x3: column 0 (the last equal unassigned column in the scan 2, 1, 0)', () => {
    expect(pairs([[0.5, 0.5, 0.5]])).toEqual([[0, 0]]);
  });

  it('case 3, two identical rows, crossed: [[.25,.125],[.25,.125]] gives row 0 → col 1, row 1 → col 0', () => {
    // Row 0: scan col 1 (0.125, lowest), col 0 (0.25): sink col 1; u0 = 0.125.
    // Row 1: col 1 (0.125) then col 0 (0.25); col 1 is taken by row 0, so continue from row 0:
    // col 0 via row 0 costs 0.125 + 0.25 - 0.125 - 0 = 0.25, not lower than the 0.25 already
    // found via row 1, so col 0 keeps row 1 as its predecessor; col 0 is the sink and row 1
    // takes it directly. Both assignments cost 0.375; the deterministic tie-break would pick
    // the uncrossed one.
    expect(
      pairs([
        [0.25, 0.125],
        [0.25, 0.125],
      ]),
    ).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('case 4, a three-way tie on 3x3: identity (row 2 reaches col 1 before col 0, both assigned, then col 2)', () => {
    // Rows 0 and 1 take cols 0 and 1 at 0.125 each. Row 2 sees 0.5 (col 2), 0.125 (col 1),
    // 0.125 (col 0, equal but assigned: not taken); it follows col 1 to row 1, col 0 to row 0,
    // and ends at col 2 with path cost 0.5 whose predecessor is still row 2 itself.
    // Swapping row 2 onto col 0 or col 1 would cost the same 0.75.
    expect(
      pairs([
        [0.125, 0.375, 0.5],
        [0.375, 0.125, 0.5],
        [0.125, 0.125, 0.5],
      ]),
    ).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('case 5, tall 3x2 (two identical predicted calls): solved transposed, pairs sorted by row, crossed', () => {
    // Transposed: [[.25,.125,1e6],[.25,.125,1e6]] is case 3 plus a column at 1e6 that is never
    // lowest. Transposed rows 0 → col 1, 1 → col 0; back in the original orientation that is
    // (row 1, col 0) and (row 0, col 1), returned sorted by row.
    expect(
      pairs([
        [0.25, 0.25],
        [0.125, 0.125],
        [BELOW_THRESHOLD_COST, BELOW_THRESHOLD_COST],
      ]),
    ).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('case 6, tall 3x2 without ties: rows come back sorted even when the transposed solve finds them in another order', () => {
    expect(
      pairs([
        [0.3, 0.1],
        [0.1, 0.3],
        [0.2, 0.2],
      ]),
    ).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('keeps the published example and refuses NaN and -Infinity like SciPy', () => {
    expect(
      pairs([
        [4, 1, 3],
        [2, 0, 5],
        [3, 2, 2],
      ]),
    ).toEqual([
      [0, 1],
      [1, 0],
      [2, 2],
    ]);
    expect(pairs([])).toEqual([]);
    expect(() => linearSumAssignment([[Number.NaN]])).toThrow(/invalid numeric entries/);
    expect(() => linearSumAssignment([[Number.NEGATIVE_INFINITY, 1]])).toThrow(/invalid numeric entries/);
  });
});

function minimumCost(cost: number[][]): number {
  const rows = cost.length;
  const cols = cost[0]?.length ?? 0;
  const pairsWanted = Math.min(rows, cols);
  let best = Number.POSITIVE_INFINITY;
  const walk = (row: number, used: Set<number>, total: number, assigned: number) => {
    if (row === rows) {
      if (assigned === pairsWanted) best = Math.min(best, total);
      return;
    }
    if (rows - row > pairsWanted - assigned) walk(row + 1, used, total, assigned);
    for (let column = 0; column < cols; column += 1) {
      if (used.has(column)) continue;
      used.add(column);
      walk(row + 1, used, total + (cost[row]?.[column] ?? 0), assigned + 1);
      used.delete(column);
    }
  };
  walk(0, new Set(), 0, 0);
  return best;
}

describe('linearSumAssignment: optimality', () => {
  it('reaches the exhaustive minimum on 300 random matrices up to 6x6 (with 1e6 entries and repeated values)', () => {
    for (let seed = 0; seed < 300; seed += 1) {
      const rows = 1 + Math.floor(unitDraw('lsap-rows', seed) * 6);
      const cols = 1 + Math.floor(unitDraw('lsap-cols', seed) * 6);
      const cost = Array.from({ length: rows }, (_, r) =>
        Array.from({ length: cols }, (_, c) => {
          const draw = unitDraw('lsap', seed, r, c);
          if (draw < 0.2) return BELOW_THRESHOLD_COST;
          return seed % 2 === 0 ? ([0.125, 0.25, 0.25, 0.375][Math.floor(draw * 4)] ?? 0.25) : Math.fround(1 - draw);
        }),
      );
      const { rowIndices, columnIndices } = linearSumAssignment(cost);
      expect(rowIndices).toHaveLength(Math.min(rows, cols));
      expect([...rowIndices].sort((a, b) => a - b)).toEqual(rowIndices);
      expect(new Set(columnIndices).size).toBe(columnIndices.length);
      const total = rowIndices.reduce((sum, row, index) => sum + (cost[row]?.[columnIndices[index] ?? 0] ?? 0), 0);
      expect(total, `seed ${seed}`).toBeCloseTo(minimumCost(cost), 6);
    }
  });
});

describe('createScipySolver inside the bucketed matching', () => {
  const call = (tool: string, stepIndex: number): TrajectoryCall => ({ tool, arguments: {}, text: '{}', stepIndex, callIndexInStep: 0, result: undefined });

  it('matches two identical GT calls crosswise, as the reference would (case 3 as similarities)', () => {
    const gt = [call('ocr/perform_ocr', 0), call('ocr/perform_ocr', 1)];
    const pred = [call('ocr/perform_ocr', 0), call('ocr/perform_ocr', 1)];
    const sims = [
      [0.75, 0.875],
      [0.75, 0.875],
    ];
    const scipy = matchCalls(gt, pred, sims, 0.6, createScipySolver(true));
    expect(scipy.matches.map((match) => [match.gtIndex, match.predIndex])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    const corrected = matchCalls(gt, pred, sims, 0.6);
    expect(corrected.matches.map((match) => [match.gtIndex, match.predIndex])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('masks below tau_weak with float32(tau) and accepts with a double comparison', () => {
    const gt = [call('t/x', 0)];
    const pred = [call('t/x', 0)];
    // float32(0.7) = 0.699999988; a float32 similarity of exactly that passes the mask (it is
    // assigned at cost 1 - sim instead of 1e6) but fails the double acceptance test sim >= 0.7.
    expect(matchCalls(gt, pred, [[Math.fround(0.7)]], 0.7, createScipySolver(true)).matches).toEqual([]);
    // float32(0.6) = 0.6000000238 passes both.
    expect(matchCalls(gt, pred, [[Math.fround(0.6)]], 0.6, createScipySolver(true)).matches).toHaveLength(1);
  });
});
