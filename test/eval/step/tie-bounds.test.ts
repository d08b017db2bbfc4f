// Tie- and threshold-sensitive tasks (issue 37 items 1-2), on the shape of task 00170002: two
// `ppt/save_presentation` calls with identical text in GT rounds 3 and 4. The reference's BLAS
// float32 gives them 0.9999998 / 0.9999999 against the same prediction and crosses them; m3bench
// keeps the diagonal. Both must be inside the reported bounds, the task flagged, and the
// aggregate carrying the count and the range. A similarity within float32 noise of 0.6 is
// flagged the same way; a task far from any tie or threshold is not.
import { describe, expect, it } from 'vitest';
import { aggregateScores } from '../../../src/eval/step/aggregate.js';
import { computeCoverage, solversFor } from '../../../src/eval/step/evaluate.js';
import { defaultThresholds, scoreTask } from '../../../src/eval/step/metrics.js';
import type { Trajectory, TrajectoryCall } from '../../../src/eval/step/trajectory.js';

function call(tool: string, text: string, stepIndex: number, callIndexInStep = 0): TrajectoryCall {
  return { tool, arguments: {}, text, stepIndex, callIndexInStep, result: 'ok' };
}

function trajectory(id: string, calls: TrajectoryCall[]): Trajectory {
  return { id, type: 'T', stepCount: Math.max(...calls.map((entry) => entry.stepIndex)) + 1, calls };
}

// Rounds 0-3: open, add, save, save (identical text) as in 00170002.
const calls = [call('ppt/open', 'a', 0), call('ppt/add_slide', 'b', 1), call('ppt/save_presentation', 's', 2), call('ppt/save_presentation', 's', 3)];
const gt = trajectory('00170002', calls);
const pred = trajectory('00170002', calls);
// The two identical calls as the reference's BLAS sees them: the crosswise pair is 1e-7 better.
const crossing = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 0.9999998, 0.9999999],
  [0, 0, 0.9999999, 0.9999998],
];

describe('tie-sensitive tasks', () => {
  for (const mode of ['default', 'reference-compat'] as const) {
    it(`${mode}: two identical calls are flagged, with the diagonal and the crosswise assignment inside the bounds`, () => {
      const score = scoreTask(gt, pred, crossing, defaultThresholds, solversFor(mode));
      const diagonal = scoreTask(
        gt,
        pred,
        [
          [1, 0, 0, 0],
          [0, 1, 0, 0],
          [0, 0, 1, 0.9],
          [0, 0, 0.9, 1],
        ],
        defaultThresholds,
      );
      const crosswise = scoreTask(
        gt,
        pred,
        [
          [1, 0, 0, 0],
          [0, 1, 0, 0],
          [0, 0, 0.9, 1],
          [0, 0, 1, 0.9],
        ],
        defaultThresholds,
      );
      expect(diagonal.step_coherence_cov).toBe(1);
      expect(crosswise.order_consistency_cov).toBeLessThan(1);
      expect(score.tie_sensitive).toBe(true);
      for (const key of ['step_coherence_cov', 'order_consistency_cov', 'merge_purity_cov'] as const) {
        const [low, high] = score.tie_bounds?.[key] ?? [Number.NaN, Number.NaN];
        expect(low).toBeLessThanOrEqual(Math.min(diagonal[key], crosswise[key]) + 1e-5);
        expect(high).toBeGreaterThanOrEqual(Math.max(diagonal[key], crosswise[key]) - 1e-5);
        expect(score[key]).toBeGreaterThanOrEqual(low);
        expect(score[key]).toBeLessThanOrEqual(high);
      }
      expect(score.corrected.tie_break_changed).toContain('order_consistency_cov');
    });
  }

  it('a match within float32 noise of tau_weak is flagged; recall bounds span both sides', () => {
    const one = trajectory('t-threshold', [call('math/add', 'x', 0)]);
    const score = scoreTask(one, one, [[0.6000015]], defaultThresholds, solversFor('default'));
    expect(score.recall).toBe(1);
    expect(score.tie_sensitive).toBe(true);
    expect(score.tie_bounds?.recall).toEqual([0, 1]);
    const clear = scoreTask(one, one, [[0.7]], defaultThresholds, solversFor('default'));
    expect(clear.tie_sensitive).toBe(false);
    expect(clear.tie_bounds).toBeUndefined();
    expect(clear.corrected.tie_break_changed).toEqual([]);
  });

  it('the aggregate counts the flagged tasks and bounds each reference aggregate', () => {
    const clearTask = trajectory('t-clear', [call('math/add', 'x', 0)]);
    const perId = [scoreTask(gt, pred, crossing, defaultThresholds, solversFor('default')), scoreTask(clearTask, clearTask, [[0.9]], defaultThresholds)];
    const ids = new Map([
      [gt.id, gt],
      [clearTask.id, clearTask],
    ]);
    const aggregate = aggregateScores({
      perId,
      rounds: new Map([
        [gt.id, 4],
        [clearTask.id, 1],
      ]),
      mode: 'default',
      coverage: computeCoverage(ids, ids),
      gtCallsOutside: new Map(),
    });
    expect(aggregate.tie_sensitive.count).toBe(1);
    expect(aggregate.tie_sensitive.ids).toEqual(['00170002']);
    expect(aggregate.corrected.tie_break_changed_ids).toEqual(['00170002']);
    const [low, high] = aggregate.tie_sensitive.bounds.order_consistency_cov ?? [Number.NaN, Number.NaN];
    expect(low).toBeLessThan(high);
    expect(aggregate.order_consistency_cov).toBeGreaterThanOrEqual(low);
    expect(aggregate.order_consistency_cov).toBeLessThanOrEqual(high);
  });
});
