// The hand-computed two-task example, with injected similarities, must give exactly
// the published numbers (per task and aggregated).
import { describe, expect, it } from 'vitest';
import { evaluateStep } from '../../../src/eval/step/evaluate.js';
import type { TaskScore, TaskDetails } from '../../../src/eval/step/metrics.js';
import type { TaskSimilarity } from '../../../src/eval/step/similarity.js';
import { toTrajectory, type Trajectory } from '../../../src/eval/step/trajectory.js';

type StepSpec = Array<Array<[tool: string, args: Record<string, unknown>]>>;

function trajectory(id: string, steps: StepSpec): Trajectory {
  return toTrajectory({
    id,
    type: id === 'T' ? 'travel' : 'lookup',
    question: '',
    final_reply: '',
    steps: steps.map((calls, index) => ({ step: index + 1, calls: calls.map(([name, args]) => ({ name, arguments: args })) })),
  });
}

const nearby = { location: { latitude: 48.85, longitude: 2.35 }, radiusMeters: 500 };
const gtT = trajectory('T', [
  [
    ['weather/get_weather', { city: 'Paris' }],
    ['wiki/summary', { title: 'Paris' }],
  ],
  [['google-maps/places_nearby_search', nearby]],
]);
const predT = trajectory('T', [
  [['weather/get_weather', { city: 'Paris' }]],
  [
    ['wiki/summary', { title: 'Paris, France' }],
    ['google-maps/places_nearby_search', nearby],
  ],
  [['wiki/search', { query: 'Paris' }]],
]);
const gtU = trajectory('U', [
  [
    ['wiki/summary', { title: 'Eiffel Tower' }],
    ['wiki/summary', { title: 'Louvre' }],
  ],
]);
const predU = trajectory('U', [[['wiki/summary', { title: 'Eiffel tower' }]]]);

/** The similarities of the example; everything off the listed pairs is high, to prove bucketing. */
const table: Record<string, number[][]> = {
  // rows g0 g1 g2, columns p0 p1 p2 p3
  T: [
    [1.0, 0.95, 0.95, 0.95],
    [0.95, 0.85, 0.95, 0.99],
    [0.95, 0.95, 0.7, 0.95],
  ],
  U: [[0.9], [0.65]],
};
const injected: TaskSimilarity = (gt) => table[gt.id] ?? [];

function details(score: TaskScore | undefined): TaskDetails {
  if (!score || !('matches' in score.details)) throw new Error('expected details');
  return score.details as TaskDetails;
}

describe('the hand-computed worked example (injected similarity)', () => {
  const evaluation = evaluateStep(
    new Map([
      ['T', gtT],
      ['U', gtU],
    ]),
    new Map([
      ['T', predT],
      ['U', predU],
    ]),
    injected,
  );
  const [taskT, taskU] = evaluation.perId;

  it('scores task T as published', () => {
    expect(taskT?.id).toBe('T');
    expect(taskT?.matched).toBe(3);
    expect(taskT?.recall).toBe(1);
    expect(taskT?.precision).toBe(0.75);
    expect(taskT?.avg_sim_all_cov).toBeCloseTo(0.85, 6);
    expect(taskT?.avg_sim_strong_cov).toBeCloseTo(0.6167, 4);
    expect(taskT?.step_coherence_cov).toBeCloseTo(2 / 3, 6);
    expect(taskT?.order_consistency_cov).toBe(1);
    expect(taskT?.merge_purity_cov).toBeCloseTo(0.3963, 4);
    const detail = details(taskT);
    expect(detail.matches.map((match) => [match.gt_call_index, match.pred_call_index, match.gt_step, match.pred_step])).toEqual([
      [0, 0, 0, 0],
      [1, 1, 0, 1],
      [2, 2, 1, 1],
    ]);
    expect(detail.W[0]?.[0]).toBeCloseTo(1, 6);
    expect(detail.W[0]?.[1]).toBeCloseTo(0.85, 6);
    expect(detail.W[1]?.[1]).toBeCloseTo(0.7, 6);
    expect(detail.W[1]?.[2]).toBe(0);
    expect(detail.primary_pred_for_gt).toEqual([0, 1]);
    expect(detail.per_step_fragmentation).toEqual([0.5, 0]);
    expect(detail.unmatched_pred_indices).toEqual([3]);
    expect(detail.unmatched_gt_indices).toEqual([]);
  });

  it('scores task U as published (single GT step: reference order metric 0, fixed variant = recall)', () => {
    expect(taskU?.recall).toBe(0.5);
    expect(taskU?.precision).toBe(1);
    expect(taskU?.avg_sim_all_cov).toBeCloseTo(0.45, 6);
    expect(taskU?.avg_sim_strong_cov).toBeCloseTo(0.45, 6);
    expect(taskU?.step_coherence_cov).toBeCloseTo(0.5, 6);
    expect(taskU?.order_consistency_cov).toBe(0);
    expect(taskU?.merge_purity_cov).toBeCloseTo(0.5, 6);
    expect(taskU?.corrected.order_consistency_fixed).toBe(0.5);
    expect(details(taskU).matches.map((match) => [match.gt_call_index, match.pred_call_index])).toEqual([[0, 0]]);
  });

  it('aggregates as published', () => {
    const aggregate = evaluation.aggregate;
    expect(aggregate.num_ids).toBe(2);
    expect(aggregate.total_gt_calls).toBe(5);
    expect(aggregate.total_pred_calls).toBe(5);
    expect(aggregate.matched).toBe(4);
    expect(aggregate.recall).toBeCloseTo(0.8, 10);
    expect(aggregate.precision).toBeCloseTo(0.8, 10);
    expect(aggregate.avg_sim_all_cov).toBeCloseTo(0.69, 6);
    expect(aggregate.avg_sim_strong_cov).toBeCloseTo(0.55, 6);
    expect(aggregate.step_coherence_cov).toBeCloseTo(0.6, 6);
    expect(aggregate.order_consistency_cov).toBeCloseTo(0.6, 6);
    expect(aggregate.merge_purity_cov).toBeCloseTo(0.4378, 4);
    expect(aggregate.avg_Rounds).toBe(2);
    expect(aggregate.avg_tool_calls).toBe(2.5);
    expect(aggregate.corrected.order_consistency_fixed).toBeCloseTo((1 * 3 + 0.5 * 2) / 5, 10);
  });

  it('counts a GT id without prediction as empty in default mode and ignores it in reference-compat', () => {
    const gt = new Map([
      ['T', gtT],
      ['U', gtU],
    ]);
    const pred = new Map([['T', predT]]);
    const corrected = evaluateStep(gt, pred, injected);
    expect(corrected.aggregate.num_ids).toBe(2);
    expect(corrected.aggregate.recall).toBeCloseTo(3 / 5, 10);
    expect(corrected.perId[1]?.corrected.missing_prediction).toBe(true);
    expect(corrected.aggregate.coverage).toMatchObject({ gt_ids: 2, evaluated_ids: 1, coverage: 0.5, missing_ids: ['U'], extra_ids: [] });
    const compat = evaluateStep(gt, pred, injected, { mode: 'reference-compat' });
    expect(compat.aggregate.num_ids).toBe(1);
    expect(compat.aggregate.recall).toBe(1);
    expect(compat.aggregate.corrected.recall_all_ids).toBeCloseTo(3 / 5, 10);
    expect(compat.aggregate.corrected.precision_all_ids).toBeCloseTo(0.75 / 2, 10);
  });
});
