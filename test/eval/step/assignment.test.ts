// The assignment solver against exhaustive search on many seeded random matrices (ties and the
// 10^6 below-threshold cost included), the reference's example, and the documented tie rule.
import { describe, expect, it } from 'vitest';
import { assignBySimilarity, BELOW_THRESHOLD_COST, matchCalls, solveAssignment, thresholdedCosts } from '../../../src/eval/step/assignment.js';
import { unitDraw } from '../../support/perturb.js';
import type { TrajectoryCall } from '../../../src/eval/step/trajectory.js';

/** Every injective assignment of min(rows, cols) pairs, as row → column (-1 = none). */
function allAssignments(rows: number, cols: number): number[][] {
  const results: number[][] = [];
  const pairs = Math.min(rows, cols);
  const walk = (row: number, used: Set<number>, current: number[], assigned: number) => {
    if (row === rows) {
      if (assigned === pairs) results.push([...current]);
      return;
    }
    if (rows - row > pairs - assigned) walk(row + 1, used, [...current, -1], assigned);
    for (let column = 0; column < cols; column += 1) {
      if (used.has(column)) continue;
      used.add(column);
      walk(row + 1, used, [...current, column], assigned + 1);
      used.delete(column);
    }
  };
  walk(0, new Set(), [], 0);
  return results;
}

/** The reference objective in floating point: cost 1 - sim, 10^6 below tau. */
function referenceCost(sims: number[][], assignment: number[], tau: number): number {
  return assignment.reduce((total, column, row) => {
    if (column < 0) return total;
    const sim = sims[row]?.[column] ?? 0;
    return total + (sim < tau ? BELOW_THRESHOLD_COST : 1 - sim);
  }, 0);
}

function exactCost(costs: bigint[][], assignment: number[]): bigint {
  return assignment.reduce((total, column, row) => (column < 0 ? total : total + (costs[row]?.[column] ?? 0n)), 0n);
}

function randomSims(seed: number, rows: number, cols: number, tied: boolean): number[][] {
  const palette = [0.55, 0.7, 0.7, 0.9, 1];
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      const draw = unitDraw('sims', seed, r, c);
      return tied ? (palette[Math.floor(draw * palette.length)] ?? 1) : Math.round((draw * 1.2 - 0.2) * 1000) / 1000;
    }),
  );
}

describe('solveAssignment', () => {
  it('matches exhaustive search on 400 random matrices up to 6x6, with ties and below-threshold entries', () => {
    const tau = 0.6;
    let checked = 0;
    for (let seed = 0; seed < 400; seed += 1) {
      const rows = 1 + Math.floor(unitDraw('rows', seed) * 6);
      const cols = 1 + Math.floor(unitDraw('cols', seed) * 6);
      const sims = randomSims(seed, rows, cols, seed % 2 === 0);
      const steps =
        seed % 3 === 0
          ? { rows: sims.map((_, r) => Math.floor(unitDraw('gs', seed, r) * 3)), cols: (sims[0] ?? []).map((_, c) => Math.floor(unitDraw('ps', seed, c) * 3)) }
          : undefined;
      const solved = assignBySimilarity(sims, tau, steps);
      const candidates = allAssignments(rows, cols);
      const bestReference = Math.min(...candidates.map((candidate) => referenceCost(sims, candidate, tau)));
      expect(referenceCost(sims, solved, tau)).toBeCloseTo(bestReference, 9);
      expect(solved.filter((column) => column >= 0)).toHaveLength(Math.min(rows, cols));
      // The tie-broken exact optimum is unique: the solver must return exactly it.
      const costs = thresholdedCosts(sims, tau, steps);
      const exact = candidates.map((candidate) => ({ candidate, cost: exactCost(costs, candidate) }));
      const minimum = exact.reduce((best, entry) => (entry.cost < best ? entry.cost : best), exact[0]?.cost ?? 0n);
      const winners = exact.filter((entry) => entry.cost === minimum);
      expect(winners).toHaveLength(1);
      expect(solved).toEqual(winners[0]?.candidate);
      checked += 1;
    }
    expect(checked).toBe(400);
  });

  it('solves integer matrices (square, wide, tall) to the optimum', () => {
    expect(
      solveAssignment([
        [4n, 1n, 3n],
        [2n, 0n, 5n],
        [3n, 2n, 2n],
      ]),
    ).toEqual([1, 0, 2]);
    expect(solveAssignment([[10n, 1n, 10n, 0n]])).toEqual([3]);
    expect(solveAssignment([[5n], [1n], [3n]])).toEqual([-1, 0, -1]);
    expect(solveAssignment([])).toEqual([]);
  });

  it('is not greedy: the worked example of the reference yields two matches', () => {
    expect(
      assignBySimilarity(
        [
          [0.95, 0.7],
          [0.9, 0.55],
        ],
        0.6,
      ),
    ).toEqual([1, 0]);
  });

  it('maps duplicate identical calls in index order, surplus ties to the lowest indices', () => {
    const same = (rows: number, cols: number) => Array.from({ length: rows }, () => new Array<number>(cols).fill(1));
    expect(assignBySimilarity(same(3, 3), 0.6)).toEqual([0, 1, 2]);
    expect(assignBySimilarity(same(2, 4), 0.6)).toEqual([0, 1]);
    expect(assignBySimilarity(same(4, 2), 0.6)).toEqual([0, 1, -1, -1]);
  });

  it('prefers same-step (then nearest-step) pairs among ties, before index order', () => {
    const same = [
      [1, 1, 1],
      [1, 1, 1],
    ];
    // GT calls in steps 0 and 1; predicted copies in steps 0, 0 (a duplicate) and 1.
    expect(assignBySimilarity(same, 0.6, { rows: [0, 1], cols: [0, 0, 1] })).toEqual([0, 2]);
    // A real similarity difference always wins over the step preference.
    expect(assignBySimilarity([[0.9, 0.95]], 0.6, { rows: [0], cols: [0, 3] })).toEqual([1]);
  });
});

function call(tool: string, stepIndex: number, callIndexInStep: number): TrajectoryCall {
  return { tool, arguments: {}, text: '{}', stepIndex, callIndexInStep, result: undefined };
}

describe('matchCalls', () => {
  it('buckets by exact tool name, drops pairs under tau_weak and keeps identical duplicates in step order', () => {
    const gt = [call('wiki/summary', 0, 0), call('wiki/summary', 1, 0), call('weather/get', 1, 1), call('Wiki/summary', 2, 0)];
    const pred = [call('wiki/summary', 0, 0), call('weather/get', 0, 1), call('wiki/summary', 1, 0), call('wiki/summary', 2, 0)];
    const sims = [
      [1, 0.9, 1, 1],
      [1, 0.9, 1, 1],
      [0.9, 0.5, 0.9, 0.9],
      [1, 1, 1, 1],
    ];
    const { matches, unmatchedGt, unmatchedPred } = matchCalls(gt, pred, sims, 0.6);
    expect(matches.map((match) => [match.gtIndex, match.predIndex, match.gtStep, match.predStep])).toEqual([
      [0, 0, 0, 0],
      [1, 2, 1, 1],
    ]);
    expect(unmatchedGt).toEqual([2, 3]);
    expect(unmatchedPred).toEqual([1, 3]);
  });
});
