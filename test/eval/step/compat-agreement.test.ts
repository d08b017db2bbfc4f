// --reference-compat against an independent re-implementation of the reference's
// evaluate_trajectories.py written here, straightforwardly, in float32 (Math.fround, sequential
// sums): same vectors for both, on the real GT and on seeded perturbations of it, plus crafted
// cases the issue found: two identical GT calls where SciPy crosses the assignment (00170002),
// and a similarity of exactly float32(0.6) that passes in float32 and fails in float64 (00040008).
// The only shared piece is the SciPy port, whose tie answers scipy-lsap.test.ts checks by hand.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingCache } from '../../../src/eval/embed/cache.js';
import type { Embedder } from '../../../src/eval/embed/types.js';
import { hashgramVector } from '../../../src/eval/embed/hashgram.js';
import { runStepEvaluation, type StepEvaluation } from '../../../src/eval/step/evaluate.js';
import { perturb, perturbationKinds } from '../../support/perturb.js';
import { serializeArguments } from '../../../src/eval/step/serialize.js';
import { loadTrajectories, type Trajectory, type TrajectoryCall } from '../../../src/eval/step/trajectory.js';
import { referenceMatch, similarityMatrix, type RefPair } from '../../support/reference-evaluator.js';
import { sharedDataDir } from '../../support/shared-assets.js';

const f = Math.fround;
const dimension = 384;
const dataDir = sharedDataDir();

function basis(values: number[]): Float32Array {
  const vector = new Float32Array(dimension);
  values.forEach((value, index) => {
    vector[index] = value;
  });
  return vector;
}

function referenceMetrics(gt: Trajectory, pred: Trajectory, vectors: (text: string) => Float32Array, tauStrong = 0.8, tauWeak = 0.6) {
  const sims = similarityMatrix(
    gt.calls.map((call) => vectors(call.text)),
    pred.calls.map((call) => vectors(call.text)),
  );
  const pairs = referenceMatch(gt.calls, pred.calls, sims, tauWeak);
  const totalGt = gt.calls.length;
  const recall = totalGt ? pairs.length / totalGt : 0;
  const precision = pred.calls.length ? new Set(pairs.map((pair) => pair.p)).size / pred.calls.length : 0;
  const all = pairs.map((pair) => pair.sim);
  const strong = all.filter((sim) => sim >= tauStrong);
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const W = Array.from({ length: gt.stepCount }, () => new Array<number>(pred.stepCount).fill(0));
  for (const pair of pairs) {
    const row = W[pair.gs] as number[];
    row[pair.ps] = f((row[pair.ps] ?? 0) + pair.sim);
  }
  const perStep = Array.from({ length: gt.stepCount }, (_, s) => gt.calls.filter((call) => call.stepIndex === s).length);
  const matchedPerStep = perStep.map((_, s) => pairs.filter((pair) => pair.gs === s).length);
  const frag = perStep.map((_, s) => {
    const k = new Set(pairs.filter((pair) => pair.gs === s).map((pair) => pair.ps)).size;
    return k <= 1 ? 0 : (k - 1) / k;
  });
  const coherence = perStep.reduce((sum, n, s) => sum + (n > 0 ? ((matchedPerStep[s] ?? 0) / n) * (1 - (frag[s] ?? 0)) * n : 0), 0) / (totalGt || 1);
  let inversions = 0;
  let comparable = 0;
  for (let i = 0; i < pairs.length; i += 1) {
    for (let j = i + 1; j < pairs.length; j += 1) {
      const a = pairs[i] as RefPair;
      const b = pairs[j] as RefPair;
      if (a.gs === b.gs || a.ps === b.ps) continue;
      comparable += 1;
      if ((a.gs < b.gs && a.ps > b.ps) || (a.gs > b.gs && a.ps < b.ps)) inversions += 1;
    }
  }
  const orderError = pairs.length <= 1 || comparable === 0 ? 0 : inversions / comparable;
  let gtPairs = 0;
  let matchedPairs = 0;
  for (let i = 0; i < gt.stepCount; i += 1) {
    for (let j = i + 1; j < gt.stepCount; j += 1) {
      gtPairs += (perStep[i] ?? 0) * (perStep[j] ?? 0);
      matchedPairs += (matchedPerStep[i] ?? 0) * (matchedPerStep[j] ?? 0);
    }
  }
  const rowMass = W.map((row) => row.reduce((a, b) => a + b, 0));
  const active = rowMass.filter((mass) => mass > 0).length;
  let entropy = 0;
  if (active > 1) {
    const colMass = Array.from({ length: pred.stepCount }, (_, c) => W.reduce((sum, row) => sum + (row[c] ?? 0), 0));
    const total = colMass.reduce((a, b) => a + b, 0);
    colMass.forEach((mass, c) => {
      if (mass <= 0) return;
      let h = 0;
      for (const row of W) {
        const q = (row[c] ?? 0) / mass;
        if (q > 0) h -= q * Math.log(q + 1e-12);
      }
      entropy += (mass / total) * h;
    });
    entropy /= Math.log(active);
  }
  return {
    matched: pairs.length,
    recall,
    precision,
    avg_sim_all_cov: recall * mean(all),
    avg_sim_strong_cov: (totalGt ? strong.length / totalGt : 0) * mean(strong),
    step_coherence_cov: coherence,
    order_consistency_cov: Math.min(1, Math.max(0, 1 - orderError)) * (gtPairs ? matchedPairs / gtPairs : 0),
    merge_purity_cov: Math.min(1, Math.max(0, 1 - entropy)) * recall,
    pairs: pairs.map((pair) => [pair.g, pair.p]),
  };
}

// ---- the crafted tasks ----
const crafted = new Map<string, Float32Array>();

function withText(call: TrajectoryCall, value: Record<string, unknown>): TrajectoryCall {
  return { ...call, arguments: value, text: serializeArguments(value) };
}

function craft(gt: Map<string, Trajectory>): Map<string, Trajectory> {
  const pred = new Map(gt);
  const tie = gt.get('00170002') as Trajectory;
  const ocr = tie.calls.filter((call) => call.tool === 'ocr/perform_ocr');
  expect(ocr.map((call) => call.stepIndex)).toEqual([0, 1]);
  expect(ocr[0]?.text).toBe(ocr[1]?.text);
  crafted.set(ocr[0]?.text ?? '', basis([1]));
  const lower = { input_data: './media/00170002.png', language: 'eng' };
  const higher = { input_data: './media/00170002.png', language: 'eng', config: '--psm 6' };
  crafted.set(serializeArguments(lower), basis([0.75, Math.sqrt(1 - 0.75 ** 2)]));
  crafted.set(serializeArguments(higher), basis([0.875, Math.sqrt(1 - 0.875 ** 2)]));
  pred.set('00170002', { ...tie, calls: tie.calls.map((call) => (call === ocr[0] ? withText(call, lower) : call === ocr[1] ? withText(call, higher) : call)) });

  const edge = gt.get('00040008') as Trajectory;
  const visitor = edge.calls.find((call) => call.tool === 'nationalparks/getVisitorCenters') as TrajectoryCall;
  crafted.set(visitor.text, basis([1]));
  const near = { parkCode: 'glac', limit: 5 };
  crafted.set(serializeArguments(near), basis([0.6, 0.8]));
  pred.set('00040008', { ...edge, calls: edge.calls.map((call) => (call === visitor ? withText(call, near) : call)) });
  return pred;
}

const memo = new Map<string, Float32Array>();
const vectorOf = (text: string): Float32Array => {
  let vector = crafted.get(text) ?? memo.get(text);
  if (!vector) memo.set(text, (vector = hashgramVector(text, dimension)));
  return vector;
};
const embedder: Embedder = { id: 'crafted-hashgram-384', dimension, embed: async (texts) => texts.map(vectorOf) };
const cache = EmbeddingCache.memory(embedder.id);
const keys = ['recall', 'precision', 'avg_sim_all_cov', 'avg_sim_strong_cov', 'step_coherence_cov', 'order_consistency_cov', 'merge_purity_cov'] as const;

function expectAgreement(evaluation: StepEvaluation, label: string): number {
  let ties = 0;
  for (const score of evaluation.perId) {
    const pair = evaluation.pairs.get(score.id);
    if (!pair) throw new Error(`no pair for ${score.id}`);
    if (pair.gt.calls.length === 0 && pair.pred.calls.length === 0) continue;
    const reference = referenceMetrics(pair.gt, pair.pred, vectorOf);
    expect(score.matched, `${label} ${score.id} matched`).toBe(reference.matched);
    const matches = 'matches' in score.details ? score.details.matches.map((match) => [match.gt_call_index, match.pred_call_index]) : [];
    expect(matches, `${label} ${score.id} pairs`).toEqual(reference.pairs);
    for (const key of keys) expect(Math.abs(score[key] - reference[key]), `${label} ${score.id} ${key}`).toBeLessThan(1e-6);
    if (score.corrected.tie_break_changed.length > 0) ties += 1;
  }
  return ties;
}

describe.skipIf(!dataDir)('reference-compat against an independent float32 re-implementation of the reference', () => {
  let gt: Map<string, Trajectory>;
  let pred: Map<string, Trajectory>;

  beforeAll(() => {
    gt = loadTrajectories(path.join(dataDir ?? '', 'test_mcp_GT.json'), 'gt').byId;
    pred = craft(gt);
  });

  it('crafted ties and threshold edges: compat follows SciPy and float32, the default does not, and the difference is flagged', async () => {
    const compat = await runStepEvaluation({ gt, pred, embedder, mode: 'reference-compat' });
    expectAgreement(compat, 'crafted');
    const tie = compat.perId.find((score) => score.id === '00170002');
    const ocrPairs = tie && 'matches' in tie.details ? tie.details.matches.filter((match) => match.gt_tool === 'ocr/perform_ocr') : [];
    expect(ocrPairs.map((match) => [match.gt_step, match.pred_step])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(tie?.corrected.tie_break_changed).toContain('order_consistency_cov');
    expect(compat.aggregate.corrected.tie_break_changed_ids).toContain('00170002');

    const edge = compat.perId.find((score) => score.id === '00040008');
    const visitorMatch =
      edge && 'matches' in edge.details ? edge.details.matches.find((match) => match.gt_tool === 'nationalparks/getVisitorCenters') : undefined;
    expect(visitorMatch?.similarity).toBe(Math.fround(0.6));

    const corrected = await runStepEvaluation({ gt, pred, embedder, mode: 'default' });
    const defaultTie = corrected.perId.find((score) => score.id === '00170002');
    const defaultOcr = defaultTie && 'matches' in defaultTie.details ? defaultTie.details.matches.filter((match) => match.gt_tool === 'ocr/perform_ocr') : [];
    expect(defaultOcr.map((match) => [match.gt_step, match.pred_step])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(defaultTie?.corrected.tie_break_changed).toContain('order_consistency_cov');
    const defaultEdge = corrected.perId.find((score) => score.id === '00040008');
    expect(defaultEdge?.matched).toBe((edge?.matched ?? 0) - 1);
  });

  it('ten seeded perturbations of the real GT: every per-task metric agrees to < 1e-6 and every matched pair is the same', async () => {
    let flagged = 0;
    for (let seed = 1; seed <= 10; seed += 1) {
      const kind = perturbationKinds[seed % perturbationKinds.length] ?? 'drop-calls';
      const perturbed = perturb(pred, kind, 0.35, seed);
      const evaluation = await runStepEvaluation({ gt, pred: perturbed, embedder, cache, mode: 'reference-compat' });
      expect(evaluation.perId.length).toBe([...gt.keys()].filter((id) => perturbed.has(id)).length);
      flagged += expectAgreement(evaluation, `${kind}@${seed}`);
    }
    // duplicate-calls and the two identical GT calls of the generatepowerpoint tasks make ties.
    expect(flagged).toBeGreaterThan(0);
  }, 180_000);
});
