// The 2026 CV metrics: tool categories (with our detector under the reference detector's key),
// per-task values and applicability on hand-built tasks with injected similarities, the
// aggregation over applicable tasks, and agreement of --reference-compat with an independent
// re-implementation of evaluate_cv_issues.py on perturbations of the real GT.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { categorise } from '../../../src/eval/cv/categories.js';
import { evaluateCv } from '../../../src/eval/cv/evaluate.js';
import { aggregateCv, scoreCvTask } from '../../../src/eval/cv/metrics.js';
import { hashgramVector } from '../../../src/eval/embed/hashgram.js';
import { tieBreakSolver } from '../../../src/eval/step/assignment.js';
import { embedPairs, planPairs } from '../../../src/eval/step/evaluate.js';
import { perturb } from '../../support/perturb.js';
import { EmbeddingCache } from '../../../src/eval/embed/cache.js';
import { loadTrajectories, type Trajectory, type TrajectoryCall } from '../../../src/eval/step/trajectory.js';
import { referenceMatch, similarityMatrix } from '../../support/reference-evaluator.js';
import { sharedDataDir } from '../../support/shared-assets.js';

const call = (tool: string, stepIndex = 0): TrajectoryCall => ({
  tool,
  arguments: {},
  text: `{"t":"${tool}"}`,
  stepIndex,
  callIndexInStep: 0,
  result: undefined,
});
const task = (id: string, tools: string[]): Trajectory => ({ id, type: 'x', stepCount: 1, calls: tools.map((tool) => call(tool)) });
/** Identity-shaped similarities: call i of the GT against call i of the prediction. */
const diagonal = (values: number[]) => values.map((value, row) => values.map((_, column) => (row === column ? value : 0)));
const score = (tools: string[], sims: number[]) => scoreCvTask(task('t', tools), task('t', tools), diagonal(sims), 0.6, { solver: tieBreakSolver });

describe('CV tool categories', () => {
  it('follows the reference lists and prefixes, and files our detector under dinox-mcp', () => {
    expect(
      ['ocr/perform_ocr', 'pyzbar-mcp/scan_barcode', 'dinox-mcp/detect-all-objects', 'imagesorcery-mcp/crop', 'mcp-yolo/detect-objects-by-text'].map(
        categorise,
      ),
    ).toEqual(Array(5).fill('perception'));
    expect(
      ['wiki/search', 'amazon/search_products', 'google-maps/places_text_search', 'car-price/get_car_brands', 'food_nutrition_mcp/get_nutrition'].map(
        categorise,
      ),
    ).toEqual(Array(5).fill('grounding'));
    expect(['wiki/summary', 'google-maps/geocode', 'math/add', 'mcp-yolo/visualize-detection-result'].map(categorise)).toEqual(Array(4).fill('planning'));
  });
});

describe('per-task CV metrics', () => {
  it('perception recall, grounding similarity and a passing visual reasoning check', () => {
    const result = score(['ocr/perform_ocr', 'wiki/search', 'math/add', 'mcp-yolo/detect-all-objects'], [0.9, 0.7, 0.8, 0.5]);
    // Perception: ocr and the detector both matched (0.5 < 0.6 is not: the detector is unmatched).
    expect(result.perception_recall).toBe(0.5);
    expect(result.grounding_arg_sim).toBeCloseTo(0.7, 12);
    // Vision = [0.9, 0 (detector), 0.7] → 0.5333 < planning 0.8 → 0.
    expect(result.visual_reasoning_ability).toBe(0);
    expect(result).toMatchObject({ has_vision_steps: true, has_perception_steps: true, has_grounding_steps: true });
  });

  it('passes when vision >= planning and vision > 0.4; null without planning calls; 1.0 without vision calls', () => {
    expect(score(['ocr/perform_ocr', 'math/add'], [0.9, 0.9]).visual_reasoning_ability).toBe(1);
    expect(score(['ocr/perform_ocr', 'math/add'], [0.9, 0.95]).visual_reasoning_ability).toBe(0);
    expect(score(['ocr/perform_ocr', 'wiki/search'], [0.9, 0.9]).visual_reasoning_ability).toBeNull();
    expect(score(['math/add', 'wiki/summary'], [0.9, 0.9])).toMatchObject({
      visual_reasoning_ability: 1,
      perception_recall: 1,
      grounding_arg_sim: 1,
      has_vision_steps: false,
    });
    expect(scoreCvTask(task('e', []), task('e', ['ocr/perform_ocr']), [], 0.6, { solver: tieBreakSolver })).toMatchObject({
      perception_recall: 1,
      visual_reasoning_ability: 1,
      has_perception_steps: false,
      details: {},
    });
  });

  it('aggregates over the applicable tasks only; null visual reasoning when no task applies', () => {
    const perId = [score(['ocr/perform_ocr', 'math/add'], [0.9, 0.9]), score(['math/add'], [0.9]), score(['ocr/perform_ocr', 'wiki/search'], [0.5, 0.9])];
    expect(aggregateCv(perId)).toEqual({
      num_ids: 3,
      perception_recall_avg: 0.5,
      grounding_arg_sim_avg: 0.9,
      visual_reasoning_ability: 1,
      num_perception_tasks: 2,
      num_grounding_tasks: 1,
      num_vision_tasks: 1,
    });
    expect(aggregateCv([score(['math/add'], [0.9])])).toMatchObject({ perception_recall_avg: 0, grounding_arg_sim_avg: 0, num_vision_tasks: 0 });
    expect(aggregateCv([score(['ocr/perform_ocr'], [0.9])]).visual_reasoning_ability).toBeNull();
  });
});

const dataDir = sharedDataDir();

const memo = new Map<string, Float32Array>();
const vectorOf = (text: string): Float32Array => {
  let vector = memo.get(text);
  if (!vector) memo.set(text, (vector = hashgramVector(text, 384)));
  return vector;
};

/** compute_cv_metrics of evaluate_cv_issues.py, written out plainly. */
function referenceCv(gt: Trajectory, pred: Trajectory) {
  if (gt.calls.length === 0) return { perception_recall: 1, grounding_arg_sim: 1, visual_reasoning_ability: 1 };
  const sims = similarityMatrix(
    gt.calls.map((c) => vectorOf(c.text)),
    pred.calls.map((c) => vectorOf(c.text)),
  );
  const pairs = referenceMatch(gt.calls, pred.calls, sims, 0.6);
  const isPerception = (tool: string) =>
    ['ocr/perform_ocr', 'dinox-mcp/detect-all-objects', 'dinox-mcp/detect-objects-by-text', 'pyzbar-mcp/scan_barcode'].includes(tool) ||
    tool.startsWith('imagesorcery-mcp/');
  const isGrounding = (tool: string) =>
    ['amazon/search_products', 'google-maps/places_text_search', 'wiki/search'].includes(tool) ||
    tool.startsWith('car-price/') ||
    tool.startsWith('food_nutrition_mcp/');
  const perception = gt.calls.flatMap((c, i) => (isPerception(c.tool) ? [i] : []));
  const grounding = gt.calls.flatMap((c, i) => (isGrounding(c.tool) ? [i] : []));
  const vision = [...perception, ...grounding];
  const planning = gt.calls.flatMap((_, i) => (vision.includes(i) ? [] : [i]));
  const sim = (i: number) => pairs.find((p) => p.g === i)?.sim ?? 0;
  const groundingMatches = pairs.filter((p) => grounding.includes(p.g));
  let vra: number | null = 1;
  if (vision.length) {
    const v = vision.map(sim).reduce((a, b) => a + b, 0) / vision.length;
    vra = planning.length ? (v >= planning.map(sim).reduce((a, b) => a + b, 0) / planning.length && v > 0.4 ? 1 : 0) : null;
  }
  return {
    perception_recall: perception.length ? pairs.filter((p) => perception.includes(p.g)).length / perception.length : 1,
    grounding_arg_sim: grounding.length ? (groundingMatches.length ? groundingMatches.reduce((a, p) => a + p.sim, 0) / grounding.length : 0) : 1,
    visual_reasoning_ability: vra,
  };
}

describe.skipIf(!dataDir)('reference-compat CV metrics against an independent re-implementation, on the real GT', () => {
  it('agree per task on four seeded perturbations', async () => {
    const gt = loadTrajectories(path.join(dataDir ?? '', 'test_mcp_GT.json'), 'gt').byId;
    const embedder = { id: 'hashgram-384', dimension: 384, embed: async (texts: string[]) => texts.map(vectorOf) };
    const cache = EmbeddingCache.memory(embedder.id);
    for (const [kind, seed] of [
      ['corrupt-arguments', 3],
      ['duplicate-calls', 4],
      ['drop-calls', 5],
      ['drop-tasks', 6],
    ] as const) {
      const pred = perturb(gt, kind, 0.4, seed);
      const similarity = await embedPairs(planPairs(gt, pred, 'reference-compat'), embedder, cache, true);
      const evaluation = evaluateCv(gt, pred, similarity, { mode: 'reference-compat', tauWeak: 0.6 });
      expect(evaluation.perId.length).toBe([...gt.keys()].filter((id) => pred.has(id)).length);
      for (const result of evaluation.perId) {
        const expected = referenceCv(gt.get(result.id) as Trajectory, pred.get(result.id) as Trajectory);
        expect(result.perception_recall, `${kind} ${result.id}`).toBe(expected.perception_recall);
        expect(result.visual_reasoning_ability, `${kind} ${result.id}`).toBe(expected.visual_reasoning_ability);
        expect(Math.abs(result.grounding_arg_sim - expected.grounding_arg_sim), `${kind} ${result.id}`).toBeLessThan(1e-6);
      }
      expect(evaluation.aggregate.num_perception_tasks).toBeGreaterThan(0);
      expect(evaluation.aggregate.num_grounding_tasks).toBeGreaterThan(0);
    }
  }, 180_000);
});
