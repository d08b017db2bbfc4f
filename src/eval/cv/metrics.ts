// The 2026 CV metrics of the reference (evaluate_cv_issues.py), per task and aggregated, over
// the same bucketed matching as the step metrics (src/eval/step/assignment.ts):
//   perception_recall        matched perception GT calls / perception GT calls (1.0 without any);
//   grounding_arg_sim        Σ similarity of matched grounding GT calls / grounding GT calls
//                            (1.0 without any);
//   visual_reasoning_ability 1 when the mean similarity of the vision calls (perception then
//                            grounding, 0 for unmatched) is >= that of the planning calls and
//                            > 0.4, else 0; null (not applicable) when the task has vision calls
//                            but no planning call, 1.0 when it has no vision call;
//   has_vision_steps, has_perception_steps, has_grounding_steps   applicability flags.
// A task whose GT has no calls scores 1.0 on all three with every flag false. Aggregates are
// macro means over the applicable tasks only (0.0 when none; visual reasoning null when none).
// The reference compares the two means exactly, so where they are equal in exact arithmetic
// (identical calls score 1 everywhere) float rounding decides; reference-compat keeps that
// (tolerance 0) and flags the task as tie-sensitive when the means are within float32 noise,
// the default mode counts means within CV_MEAN_TOLERANCE as equal. Tie- and threshold-sensitive
// matchings are flagged as in the step metrics (src/eval/step/tie-bounds.ts): `tie_sensitive`
// and `tie_bounds` per task.
import { matchCalls, type BucketSolver, type Match } from '../step/assignment.js';
import { boundsOver, type Bounds, FLOAT32_NOISE, mayDependOnNoise, noiseVariants, seedOf } from '../step/tie-bounds.js';
import type { Trajectory } from '../step/trajectory.js';
import { categorise } from './categories.js';
import { mean } from '../../core/number-format.js';

interface CvMatchDetail {
  gt_call_index: number;
  pred_call_index: number;
  similarity: number;
  gt_tool: string;
  pred_tool: string;
}

export interface CvTaskScore {
  id: string;
  perception_recall: number;
  grounding_arg_sim: number;
  visual_reasoning_ability: number | null;
  has_vision_steps: boolean;
  has_perception_steps: boolean;
  has_grounding_steps: boolean;
  details: { matches: CvMatchDetail[]; unmatched_gt: number[] } | Record<string, never>;
  /** m3bench additions: no prediction for this GT id; metrics the other tie rule would change. */
  missing_prediction?: boolean;
  tie_break_changed?: CvMetricKey[];
  tie_sensitive: boolean;
  tie_bounds?: Partial<Record<CvMetricKey, Bounds>>;
}

/** The default mode's slack when comparing the vision and planning means: float32 noise on both, with room. */
export const CV_MEAN_TOLERANCE = 1e-5;

const cvMetricKeys = ['perception_recall', 'grounding_arg_sim', 'visual_reasoning_ability'] as const;
type CvMetricKey = (typeof cvMetricKeys)[number];

type CvValues = Omit<CvTaskScore, 'id' | 'details' | 'tie_sensitive'> & { visionGap: number | null };

function cvFromMatches(gt: Trajectory, matches: readonly Match[], tolerance: number): CvValues {
  const byGt = new Map(matches.map((match) => [match.gtIndex, match]));
  const indices = (category: string) =>
    gt.calls
      .map((call, index) => ({ call, index }))
      .filter(({ call }) => categorise(call.tool) === category)
      .map(({ index }) => index);
  const perception = indices('perception');
  const grounding = indices('grounding');
  const vision = [...perception, ...grounding];
  const planning = gt.calls.map((_, index) => index).filter((index) => !vision.includes(index));
  const similarityOf = (index: number) => byGt.get(index)?.similarity ?? 0;
  const perceptionRecall = perception.length > 0 ? perception.filter((index) => byGt.has(index)).length / perception.length : 1;
  // Summed in match order, as the reference sums its matched pairs.
  const groundingMatches = matches.filter((match) => grounding.includes(match.gtIndex));
  const groundingSim =
    grounding.length === 0 ? 1 : groundingMatches.length === 0 ? 0 : groundingMatches.reduce((total, match) => total + match.similarity, 0) / grounding.length;
  let ability: number | null = 1;
  let visionGap: number | null = null;
  if (vision.length > 0) {
    const visionScore = mean(vision.map(similarityOf));
    if (planning.length > 0 && visionScore > 0.4) visionGap = visionScore - mean(planning.map(similarityOf));
    ability = planning.length === 0 ? null : visionScore >= mean(planning.map(similarityOf)) - tolerance && visionScore > 0.4 ? 1 : 0;
  }
  return {
    perception_recall: perceptionRecall,
    grounding_arg_sim: groundingSim,
    visual_reasoning_ability: ability,
    has_vision_steps: vision.length > 0,
    has_perception_steps: perception.length > 0,
    has_grounding_steps: grounding.length > 0,
    visionGap,
  };
}

export interface CvScoreOptions {
  solver: BucketSolver;
  compareWith?: BucketSolver;
  missing?: boolean;
  /** Slack of the vision >= planning comparison (0: exactly as the reference). */
  tolerance?: number;
}

/** One task; `sims[g][p]` as for the step metrics. */
export function scoreCvTask(gt: Trajectory, pred: Trajectory, sims: readonly (readonly number[])[], tauWeak: number, options: CvScoreOptions): CvTaskScore {
  const extras = options.missing ? { missing_prediction: true } : {};
  if (gt.calls.length === 0) {
    return {
      id: gt.id,
      perception_recall: 1,
      grounding_arg_sim: 1,
      visual_reasoning_ability: 1,
      has_vision_steps: false,
      has_perception_steps: false,
      has_grounding_steps: false,
      details: {},
      tie_sensitive: false,
      ...extras,
    };
  }
  const { matches, unmatchedGt } = matchCalls(gt.calls, pred.calls, sims, tauWeak, options.solver);
  const { visionGap, ...metrics } = cvFromMatches(gt, matches, options.tolerance ?? 0);
  const score: CvTaskScore = {
    id: gt.id,
    ...metrics,
    tie_sensitive: false,
    details: {
      matches: matches.map((match) => ({
        gt_call_index: match.gtIndex,
        pred_call_index: match.predIndex,
        similarity: match.similarity,
        gt_tool: gt.calls[match.gtIndex]?.tool ?? '',
        pred_tool: pred.calls[match.predIndex]?.tool ?? '',
      })),
      unmatched_gt: unmatchedGt,
    },
    ...extras,
  };
  const tried: CvValues[] = [{ ...metrics, visionGap }];
  if (options.compareWith) {
    const other = cvFromMatches(gt, matchCalls(gt.calls, pred.calls, sims, tauWeak, options.compareWith).matches, options.tolerance ?? 0);
    tried.push(other);
    score.tie_break_changed = cvMetricKeys.filter((key) => other[key] !== metrics[key] && Math.abs((other[key] ?? -1) - (metrics[key] ?? -1)) > 1e-12);
  }
  if (mayDependOnNoise(gt.calls, pred.calls, sims, [tauWeak])) {
    for (const variant of noiseVariants(sims, seedOf(gt.id))) {
      tried.push(cvFromMatches(gt, matchCalls(gt.calls, pred.calls, variant, tauWeak, options.solver).matches, options.tolerance ?? 0));
    }
  }
  flagCvTies(score, tried, options.tolerance ?? 0);
  return score;
}

/**
 * Bounds over the tie-breaks tried; with no tolerance (reference-compat) a vision mean within
 * float32 noise of the planning mean makes visual_reasoning_ability 0 or 1 by rounding alone.
 */
function flagCvTies(score: CvTaskScore, tried: readonly CvValues[], tolerance: number): void {
  const results = tried.map((values) => {
    const nearEqual = tolerance === 0 && values.visionGap !== null && Math.abs(values.visionGap) <= 2 * FLOAT32_NOISE;
    return { ...values, visual_reasoning_ability: values.visual_reasoning_ability ?? Number.NaN, nearEqual };
  });
  const extremes = results.some((result) => result.nearEqual) ? [{ visual_reasoning_ability: 0 }, { visual_reasoning_ability: 1 }] : [];
  const { bounds, changed } = boundsOver<CvMetricKey>(
    [...results, ...extremes.map((extreme) => ({ ...score, ...extreme, visual_reasoning_ability: extreme.visual_reasoning_ability }))].map((result) => ({
      perception_recall: result.perception_recall,
      grounding_arg_sim: result.grounding_arg_sim,
      visual_reasoning_ability: result.visual_reasoning_ability ?? Number.NaN,
    })),
    cvMetricKeys,
  );
  const changedKeys = cvMetricKeys.filter((key) => changed.includes(key) || (score.tie_break_changed ?? []).includes(key));
  if (changedKeys.length === 0) return;
  score.tie_sensitive = true;
  score.tie_bounds = bounds;
  score.tie_break_changed = changedKeys;
}

export interface CvAggregate {
  num_ids: number;
  perception_recall_avg: number;
  grounding_arg_sim_avg: number;
  visual_reasoning_ability: number | null;
  num_perception_tasks: number;
  num_grounding_tasks: number;
  num_vision_tasks: number;
}

export function aggregateCv(perId: readonly CvTaskScore[]): CvAggregate {
  const perception = perId.filter((score) => score.has_perception_steps);
  const grounding = perId.filter((score) => score.has_grounding_steps);
  const vision = perId.filter((score) => score.has_vision_steps && score.visual_reasoning_ability !== null);
  return {
    num_ids: perId.length,
    perception_recall_avg: perception.length ? mean(perception.map((score) => score.perception_recall)) : 0,
    grounding_arg_sim_avg: grounding.length ? mean(grounding.map((score) => score.grounding_arg_sim)) : 0,
    visual_reasoning_ability: vision.length ? mean(vision.map((score) => score.visual_reasoning_ability ?? 0)) : null,
    num_perception_tasks: perception.length,
    num_grounding_tasks: grounding.length,
    num_vision_tasks: vision.length,
  };
}
