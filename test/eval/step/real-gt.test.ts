// The step evaluator on the real reference ground truth (213 records, 208 ids, with its defects),
// with the built-in embedder: GT against itself, and the reference flaws measured on it.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingCache } from '../../../src/eval/embed/cache.js';
import { createHashgramEmbedder } from '../../../src/eval/embed/hashgram.js';
import type { StepMode } from '../../../src/eval/step/aggregate.js';
import { runStepEvaluation, type StepEvaluation } from '../../../src/eval/step/evaluate.js';
import { checkGroundTruth } from '../../../src/eval/step/gt-checks.js';
import { perturb } from '../../support/perturb.js';
import { loadTrajectories, type LoadedTrajectories, type Trajectory } from '../../../src/eval/step/trajectory.js';
import { sharedDataDir } from '../../support/shared-assets.js';

const dataDir = sharedDataDir();
if (!dataDir && process.env.CI) throw new Error('../shared/data/m3bench/test_mcp_GT.json is missing; the step-evaluation tests need it');

const embedder = createHashgramEmbedder();
const cache = EmbeddingCache.memory(embedder.id);
const referenceKeys = ['recall', 'precision', 'avg_sim_all_cov', 'avg_sim_strong_cov', 'step_coherence_cov', 'merge_purity_cov'] as const;

describe.skipIf(!dataDir)('step evaluation on the real GT', () => {
  let gt: LoadedTrajectories;
  const evaluate = (pred: ReadonlyMap<string, Trajectory>, mode: StepMode = 'default'): Promise<StepEvaluation> =>
    runStepEvaluation({ gt: gt.byId, pred, embedder, cache, mode });

  beforeAll(() => {
    gt = loadTrajectories(path.join(dataDir ?? '', 'test_mcp_GT.json'), 'gt');
  });

  it('loads every record and tolerates the documented defects', () => {
    expect(gt.records).toHaveLength(213);
    expect(gt.byId.size).toBe(208);
    expect(gt.records.reduce((sum, record) => sum + record.calls.length, 0)).toBe(1387);
    expect(gt.duplicates.map((entry) => entry.id).sort()).toEqual(['00070008', '00230000', '00230005', '00230006', '00230008']);
    expect(gt.unaligned).toBe(0);
    const checks = checkGroundTruth(gt.raw, gt.duplicates, 10);
    expect(checks.calls_without_arguments).toEqual([{ id: '00170000', step_index: 1, call_index_in_step: 1 }]);
    expect(gt.byId.get('00170000')?.calls.find((call) => call.stepIndex === 1 && call.callIndexInStep === 1)?.text).toBe('null');
    expect(checks.odd_step_numbers.map((entry) => entry.id).sort()).toEqual(['00080001', '00080002', '00160000']);
    expect(checks.stray_fields.map((entry) => entry.id).sort()).toEqual(['00070008', '00080007', '00090006']);
    expect(checks.steps_over_round_cap.map((entry) => entry.calls).sort((a, b) => a - b)).toEqual([11, 13, 16, 27]);
    expect(gt.byId.get('00070008')?.type).toBe('hazard');
  });

  it('GT against itself: recall, precision and similarity metrics are 1 for every task', async () => {
    const evaluation = await evaluate(gt.byId);
    expect(evaluation.perId).toHaveLength(208);
    for (const score of evaluation.perId) {
      expect(score.recall, score.id).toBe(1);
      expect(score.precision, score.id).toBe(1);
      expect(score.avg_sim_all_cov, score.id).toBeCloseTo(1, 6);
      expect(score.avg_sim_strong_cov, score.id).toBeCloseTo(1, 6);
      expect(score.step_coherence_cov, score.id).toBe(1);
      expect(score.merge_purity_cov, score.id).toBeCloseTo(1, 6);
      expect(score.corrected.order_consistency_fixed, score.id).toBe(1);
    }
    expect(evaluation.aggregate.total_gt_calls).toBe(1355);
    expect(evaluation.aggregate.coverage.coverage).toBe(1);
  });

  it('reference-compat reproduces order_consistency_cov 0.935 (single-step GT tasks score 0); the fixed variant is 1', async () => {
    const evaluation = await evaluate(gt.byId, 'reference-compat');
    expect(evaluation.aggregate.order_consistency_cov).toBeCloseTo(0.935, 3);
    expect(evaluation.aggregate.corrected.order_consistency_fixed).toBe(1);
    const singleStep = evaluation.perId.filter((score) => gt.byId.get(score.id)?.stepCount === 1);
    expect(singleStep).toHaveLength(20);
    for (const score of singleStep) expect(score.order_consistency_cov).toBe(0);
  });

  it('reference flaw: predictions merged into one step still get order_consistency_cov 0.935', async () => {
    const merged = perturb(gt.byId, 'merge-steps', 1);
    expect([...merged.values()].every((trajectory) => trajectory.stepCount <= 1)).toBe(true);
    const evaluation = await evaluate(merged, 'reference-compat');
    expect(evaluation.aggregate.order_consistency_cov).toBeCloseTo(0.935, 3);
    expect(evaluation.aggregate.recall).toBe(1);
    expect(evaluation.aggregate.merge_purity_cov).toBeLessThan(0.5);
  });

  it('reference flaw: dropping a quarter of the tasks leaves reference-compat at 1.0 but lowers the default mode', async () => {
    const full = await evaluate(gt.byId, 'reference-compat');
    const dropped = perturb(gt.byId, 'drop-tasks', 0.25, 7);
    expect(dropped.size).toBeLessThan(180);
    expect(dropped.size).toBeGreaterThan(130);
    const compat = await evaluate(dropped, 'reference-compat');
    for (const key of referenceKeys) expect(compat.aggregate[key], key).toBeCloseTo(1, 6);
    expect(compat.aggregate.num_ids).toBe(dropped.size);
    const corrected = await evaluate(dropped, 'default');
    expect(corrected.aggregate.num_ids).toBe(208);
    expect(corrected.aggregate.coverage.missing_ids).toHaveLength(208 - dropped.size);
    for (const key of [...referenceKeys.filter((key) => key !== 'precision'), 'order_consistency_cov'] as const) {
      expect(corrected.aggregate[key], key).toBeLessThan(0.9);
      expect(corrected.aggregate[key], key).toBeLessThan(full.aggregate[key]);
    }
    expect(compat.aggregate.corrected.recall_all_ids).toBeCloseTo(corrected.aggregate.recall, 10);
    expect(compat.aggregate.corrected.precision_all_ids).toBeCloseTo(dropped.size / 208, 10);
  });
});
