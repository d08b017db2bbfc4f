// A task's ground-truth alignment for the viewer: the GT calls (from the run's GT file) and the
// predicted calls (from the episode's prediction), flattened step by step exactly as the step
// evaluator does (toTrajectory), joined to the evaluator's recorded matches. Nothing is
// re-matched here: pairs, similarities and the unmatched lists come from results_eval.json; each
// GT call's best candidate and the threshold that decided are in call-similarity.ts.
import { toTrajectory, type Trajectory } from '../eval/step/trajectory.js';
import { serializeArguments } from '../eval/step/serialize.js';
import type { GtTask, Prediction } from '../tasks/schemas.js';
import { bestMatches, similaritiesOf, type BestMatch } from './call-similarity.js';
import type { TaskStepScore } from './step-results.js';

interface AlignedCall {
  index: number;
  step: number;
  tool: string;
  arguments: string;
  /** Index of the matched call on the other side, or null (missed GT call / extra predicted call). */
  matchedWith: number | null;
}

export interface Alignment {
  gt: AlignedCall[];
  pred: AlignedCall[];
  pairs: Array<{ gt: number; pred: number; similarity: number; strength: 'strong' | 'weak' | 'below' }>;
  counts: { matched: number; strong: number; weak: number; missed: number; extra: number };
  metrics: Omit<TaskStepScore, 'details' | 'id' | 'tie_sensitive' | 'tie_bounds'>;
  /** Per GT call: its matched or best same-tool predicted call, the similarity and what decided. */
  best: BestMatch[];
  thresholds: { tauStrong: number; tauWeak: number };
  /** The evaluator found that float32 noise could change a metric of this task, with each metric's range. */
  tieSensitive: boolean;
  tieBounds: Record<string, [number, number]> | null;
}

interface StepContext {
  thresholds: { tauStrong: number; tauWeak: number };
  embeddingCache: { file: string; format: 'keyed' | 'reference'; embedder: string } | null;
  mode: string;
}

function calls(trajectory: Trajectory, partner: Map<number, number>): AlignedCall[] {
  return trajectory.calls.map((call, index) => ({
    index,
    step: call.stepIndex,
    tool: call.tool,
    arguments: serializeArguments(call.arguments),
    matchedWith: partner.get(index) ?? null,
  }));
}

export function alignTask(gtTask: GtTask, prediction: Prediction | null, score: TaskStepScore, context: StepContext): Alignment {
  const { thresholds } = context;
  const gt = toTrajectory(gtTask);
  const pred = prediction ? toTrajectory(prediction) : { id: gtTask.id, type: '', stepCount: 0, calls: [] };
  const matches = 'matches' in score.details ? score.details.matches : [];
  const pairs = matches.map((match) => ({
    gt: match.gt_call_index,
    pred: match.pred_call_index,
    similarity: match.similarity,
    strength: match.similarity >= thresholds.tauStrong ? ('strong' as const) : match.similarity >= thresholds.tauWeak ? ('weak' as const) : ('below' as const),
  }));
  const gtPartner = new Map(pairs.map((pair) => [pair.gt, pair.pred]));
  const predPartner = new Map(pairs.map((pair) => [pair.pred, pair.gt]));
  const { details: _details, id: _id, tie_sensitive: tieSensitive, tie_bounds: tieBounds, ...metrics } = score;
  const best = bestMatches({
    gt,
    pred,
    matched: new Map(pairs.map((pair) => [pair.gt, [pair.pred, pair.similarity]])),
    thresholds,
    sims: similaritiesOf(gt, pred, context.embeddingCache, context.mode === 'reference-compat'),
  });
  const missed = 'unmatched_gt_indices' in score.details ? score.details.unmatched_gt_indices.length : gt.calls.length;
  const extra = 'unmatched_pred_indices' in score.details ? score.details.unmatched_pred_indices.length : pred.calls.length;
  return {
    gt: calls(gt, gtPartner),
    pred: calls(pred, predPartner),
    pairs,
    counts: {
      matched: pairs.length,
      strong: pairs.filter((pair) => pair.strength === 'strong').length,
      weak: pairs.filter((pair) => pair.strength === 'weak').length,
      missed,
      extra,
    },
    metrics,
    best,
    thresholds,
    tieSensitive: tieSensitive === true,
    tieBounds: tieBounds ?? null,
  };
}
