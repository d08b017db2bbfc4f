// CV layer, issue 37 item 3: the vision-versus-planning test is decided by float noise on
// near-perfect predictions. The default mode compares the two means with a stated tolerance
// (CV_MEAN_TOLERANCE); --reference-compat compares them exactly, as the reference does, and flags
// a task whose means are within float32 noise as tie-sensitive with visual_reasoning_ability in
// [0, 1]. A perfect prediction's grounding score is exactly 1 in the default mode.
import { describe, expect, it } from 'vitest';
import { evaluateCv } from '../../../src/eval/cv/evaluate.js';
import { CV_MEAN_TOLERANCE, scoreCvTask } from '../../../src/eval/cv/metrics.js';
import { hashgramVector } from '../../../src/eval/embed/hashgram.js';
import { tieBreakSolver } from '../../../src/eval/step/assignment.js';
import { createEmbeddingSimilarity } from '../../../src/eval/step/similarity.js';
import type { Trajectory, TrajectoryCall } from '../../../src/eval/step/trajectory.js';

const call = (tool: string, text: string, stepIndex: number): TrajectoryCall => ({
  tool,
  arguments: {},
  text,
  stepIndex,
  callIndexInStep: 0,
  result: undefined,
});
const tools = ['wiki/search', 'ocr/perform_ocr', 'math/add'];
const task: Trajectory = {
  id: 'cv-1',
  type: 'x',
  stepCount: 3,
  calls: tools.map((tool, index) => call(tool, `{"query": "${tool} number ${index}"}`, index)),
};
// Vision (wiki, ocr) mean 0.9999995, planning 0.9999999: apart by 4e-7, float32 noise.
const sims = [
  [0.999999, 0, 0],
  [0, 0.9999999, 0],
  [0, 0, 0.9999999],
];

describe('the CV vision-versus-planning comparison', () => {
  it('the default mode counts means within the stated tolerance as equal', () => {
    expect(CV_MEAN_TOLERANCE).toBe(1e-5);
    const score = scoreCvTask(task, task, sims, 0.6, { solver: tieBreakSolver, tolerance: CV_MEAN_TOLERANCE });
    expect(score.visual_reasoning_ability).toBe(1);
    expect(score.tie_sensitive).toBe(false);
  });

  it('--reference-compat compares exactly and flags the task with bounds [0, 1]', () => {
    const score = scoreCvTask(task, task, sims, 0.6, { solver: tieBreakSolver, tolerance: 0 });
    expect(score.visual_reasoning_ability).toBe(0);
    expect(score.tie_sensitive).toBe(true);
    expect(score.tie_bounds?.visual_reasoning_ability).toEqual([0, 1]);
    expect(score.tie_break_changed).toContain('visual_reasoning_ability');
  });

  it("a perfect prediction's grounding score is exactly 1 in the default mode, and no task is flagged", () => {
    const vectors = new Map(task.calls.map((entry) => [entry.text, hashgramVector(entry.text, 384)]));
    const gt = new Map([[task.id, task]]);
    const evaluation = evaluateCv(gt, gt, createEmbeddingSimilarity(vectors), { mode: 'default', tauWeak: 0.6 });
    expect(evaluation.perId[0]?.grounding_arg_sim).toBe(1);
    expect(evaluation.aggregate.grounding_arg_sim_avg).toBe(1);
    expect(evaluation.aggregate.tie_sensitive).toEqual({ count: 0, ids: [], bounds: {} });
  });
});
