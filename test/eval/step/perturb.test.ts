// Perturbation suite on the real GT (seeded, nested by strength): each metric moves the way its
// definition implies, monotonically in the strength, and nothing throws on the defective records.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingCache } from '../../../src/eval/embed/cache.js';
import { createHashgramEmbedder } from '../../../src/eval/embed/hashgram.js';
import { runStepEvaluation } from '../../../src/eval/step/evaluate.js';
import { perturb, unitDraw, type PerturbationKind } from '../../support/perturb.js';
import { loadTrajectories, type Trajectory } from '../../../src/eval/step/trajectory.js';
import { sharedDataDir } from '../../support/shared-assets.js';

const dataDir = sharedDataDir();
const strengths = [0, 0.25, 0.5, 0.75];
const embedder = createHashgramEmbedder();
const cache = EmbeddingCache.memory(embedder.id);

type Metric =
  | 'recall'
  | 'precision'
  | 'avg_sim_all_cov'
  | 'avg_sim_strong_cov'
  | 'step_coherence_cov'
  | 'order_consistency_cov'
  | 'merge_purity_cov'
  | 'order_consistency_fixed'
  | 'recall_all_ids';

/** Metrics that must fall (non-increasing, and strictly lower at 0.75) or stay put. */
const expectations: Record<PerturbationKind, { down: Metric[]; same: Metric[] }> = {
  'drop-calls': {
    down: ['recall', 'avg_sim_all_cov', 'avg_sim_strong_cov', 'step_coherence_cov', 'order_consistency_cov', 'merge_purity_cov', 'order_consistency_fixed'],
    same: ['precision'],
  },
  'duplicate-calls': {
    down: ['precision'],
    same: ['recall', 'avg_sim_all_cov', 'avg_sim_strong_cov', 'step_coherence_cov', 'order_consistency_cov', 'merge_purity_cov'],
  },
  'rename-tools': {
    down: ['recall', 'precision', 'avg_sim_all_cov', 'avg_sim_strong_cov', 'step_coherence_cov', 'order_consistency_cov', 'merge_purity_cov'],
    same: [],
  },
  'corrupt-arguments': {
    down: ['recall', 'precision', 'avg_sim_all_cov', 'avg_sim_strong_cov', 'step_coherence_cov', 'merge_purity_cov'],
    same: [],
  },
  'split-steps': {
    down: ['step_coherence_cov'],
    same: ['recall', 'precision', 'avg_sim_all_cov', 'order_consistency_cov', 'merge_purity_cov'],
  },
  'merge-steps': {
    down: ['merge_purity_cov'],
    // The reference order metric cannot see merged steps (flaw measured in real-gt.test.ts).
    same: ['recall', 'precision', 'avg_sim_all_cov', 'step_coherence_cov', 'order_consistency_cov'],
  },
  'reverse-steps': {
    down: ['order_consistency_cov', 'order_consistency_fixed'],
    // Not step coherence: identical calls in different GT steps cannot be told apart, and the
    // tie rule pairs each with the nearest predicted step, which after reversal may split a step.
    same: ['recall', 'precision', 'avg_sim_all_cov'],
  },
  'drop-tasks': {
    down: ['recall', 'avg_sim_all_cov', 'step_coherence_cov', 'order_consistency_cov', 'merge_purity_cov', 'recall_all_ids'],
    same: ['precision'],
  },
};

describe.skipIf(!dataDir)('perturbations of the real GT move the metrics as defined', () => {
  let gt: Map<string, Trajectory>;
  beforeAll(() => {
    gt = loadTrajectories(path.join(dataDir ?? '', 'test_mcp_GT.json'), 'gt').byId;
  });

  async function series(kind: PerturbationKind): Promise<Array<Record<Metric, number>>> {
    const rows: Array<Record<Metric, number>> = [];
    for (const strength of strengths) {
      const { aggregate } = await runStepEvaluation({ gt, pred: perturb(gt, kind, strength, 42), embedder, cache });
      rows.push({
        recall: aggregate.recall,
        precision: aggregate.precision,
        avg_sim_all_cov: aggregate.avg_sim_all_cov,
        avg_sim_strong_cov: aggregate.avg_sim_strong_cov,
        step_coherence_cov: aggregate.step_coherence_cov,
        order_consistency_cov: aggregate.order_consistency_cov,
        merge_purity_cov: aggregate.merge_purity_cov,
        order_consistency_fixed: aggregate.corrected.order_consistency_fixed,
        recall_all_ids: aggregate.corrected.recall_all_ids,
      });
    }
    return rows;
  }

  it.each(Object.keys(expectations) as PerturbationKind[])('%s', async (kind) => {
    const rows = await series(kind);
    const { down, same } = expectations[kind];
    for (const metric of down) {
      const values = rows.map((row) => row[metric]);
      for (let index = 1; index < values.length; index += 1)
        expect(values[index], `${kind} ${metric} ${values.join(', ')}`).toBeLessThanOrEqual((values[index - 1] ?? 0) + 1e-12);
      expect(values.at(-1), `${kind} ${metric} ${values.join(', ')}`).toBeLessThan((values[0] ?? 0) - 0.01);
    }
    for (const metric of same) {
      const values = rows.map((row) => row[metric]);
      for (const value of values) expect(value, `${kind} ${metric} ${values.join(', ')}`).toBeCloseTo(values[0] ?? 0, 9);
    }
  });

  it('is seeded and nested: the same seed gives the same result, a larger strength perturbs a superset', () => {
    const quarter = perturb(gt, 'drop-tasks', 0.25, 3);
    expect([...perturb(gt, 'drop-tasks', 0.25, 3).keys()]).toEqual([...quarter.keys()]);
    const half = perturb(gt, 'drop-tasks', 0.5, 3);
    for (const id of half.keys()) expect(quarter.has(id)).toBe(true);
    expect(unitDraw(1, 'a')).toBe(unitDraw(1, 'a'));
    expect(unitDraw(1, 'a')).not.toBe(unitDraw(2, 'a'));
  });
});
