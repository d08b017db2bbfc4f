// Aggregation across the tasks of one model and the per-type breakdown of the
// console summary (3.8). Reference keys keep their reference formulas; what differs between
// modes is only which ids are in `per_id`:
//   default mode      every GT id; an id without a prediction is scored as an empty trajectory
//                     (all its metrics 0), so a model that skips hard tasks is not rewarded.
//   reference-compat  only ids present in both files, exactly like the reference.
// `aggregate.coverage` always reports evaluated / total GT ids and the missing and extra ids.
// Infrastructure failures without a prediction are in neither mode's per_id; they are listed in
// `coverage.infra_failure_ids` and `aggregate.infra_failures` (count, ids, codes, manifest).
// `aggregate.corrected` holds the corrected metrics (never replacing a reference key):
//   order_consistency_fixed  GT-call-weighted mean of the per-task fixed order metric;
//   recall_success           Σ matches whose predicted call did not fail / Σ GT calls;
//   recall_all_ids           Σ matched / Σ GT calls over *all* GT ids (missing ids count as 0);
//   precision_all_ids        mean over *all* GT ids of per-task precision (missing ids count
//                            as 0). Macro, because micro precision cannot see missing ids: they
//                            add no predicted calls.
//   tie_break_changed_ids    tasks where the other tie rule (SciPy's vs the deterministic one)
//                            or float32 noise would change a reference metric; see metrics.ts.
// `aggregate.tie_sensitive` counts those tasks and gives the range of each reference aggregate
// over their tie-breaks (tie-bounds.ts).
import { safeDiv, type StepMetricValues, type TaskScore } from './metrics.js';
import { sum } from '../../core/number-format.js';

export type StepMode = 'default' | 'reference-compat';

export interface Coverage {
  gt_ids: number;
  predicted_ids: number;
  evaluated_ids: number;
  coverage: number;
  missing_ids: string[];
  extra_ids: string[];
  /** GT ids without a prediction that the run recorded as infrastructure failures (not scored). */
  infra_failure_ids: string[];
}

export interface InfraFailureSummary {
  count: number;
  ids: string[];
  source: string | null;
  codes: Record<string, number>;
}

interface CorrectedAggregate {
  order_consistency_fixed: number;
  recall_success: number;
  matched_success: number;
  recall_all_ids: number;
  precision_all_ids: number;
  tie_break_changed_ids: string[];
}

/** Tie-sensitive tasks (metrics.ts, tie-bounds.ts) and the range each aggregate could take over their tie-breaks. */
interface TieSummary {
  count: number;
  ids: string[];
  /** Each reference aggregate recomputed with every tie-sensitive task at its lower, then its upper bound. */
  bounds: Partial<Record<BoundedKey, [number, number]>>;
}

type BoundedKey =
  | 'matched'
  | 'recall'
  | 'precision'
  | 'avg_sim_all_cov'
  | 'avg_sim_strong_cov'
  | 'step_coherence_cov'
  | 'order_consistency_cov'
  | 'merge_purity_cov';

export interface StepAggregate extends StepMetricValues {
  num_ids: number;
  tie_sensitive: TieSummary;
  avg_Rounds: number;
  avg_tool_calls: number;
  mode: StepMode;
  coverage: Coverage;
  corrected: CorrectedAggregate;
  infra_failures: InfraFailureSummary;
}

function distinctMatchedPredictions(score: TaskScore): number {
  const matches = 'matches' in score.details ? score.details.matches : [];
  return new Set(matches.map((match) => match.pred_call_index)).size;
}

export interface AggregateInput {
  perId: readonly TaskScore[];
  /** Number of predicted steps (rounds) per id in `perId`. */
  rounds: ReadonlyMap<string, number>;
  mode: StepMode;
  coverage: Coverage;
  /** GT call counts of GT ids that are not in `perId` (reference-compat leaves them out). */
  gtCallsOutside: ReadonlyMap<string, number>;
  infraFailures?: InfraFailureSummary;
}

/** The reference aggregates of per-task values (recall and precision over summed counts, the rest GT-call-weighted). */
function referenceAggregates(perId: readonly TaskScore[], distinct: (score: TaskScore) => number): Record<BoundedKey, number> {
  const totalGt = sum(perId.map((score) => score.total_gt_calls));
  const weighted = (pick: (score: TaskScore) => number) => safeDiv(sum(perId.map((score) => pick(score) * score.total_gt_calls)), totalGt);
  const matched = sum(perId.map((score) => score.matched));
  return {
    matched,
    recall: safeDiv(matched, totalGt),
    precision: safeDiv(sum(perId.map(distinct)), sum(perId.map((score) => score.total_pred_calls))),
    avg_sim_all_cov: weighted((score) => score.avg_sim_all_cov),
    avg_sim_strong_cov: weighted((score) => score.avg_sim_strong_cov),
    step_coherence_cov: weighted((score) => score.step_coherence_cov),
    order_consistency_cov: weighted((score) => score.order_consistency_cov),
    merge_purity_cov: weighted((score) => score.merge_purity_cov),
  };
}

function summariseTies(perId: readonly TaskScore[]): TieSummary {
  const sensitive = perId.filter((score) => score.tie_sensitive);
  if (sensitive.length === 0) return { count: 0, ids: [], bounds: {} };
  const at = (end: 0 | 1) =>
    perId.map((score) => {
      if (!score.tie_bounds) return score;
      const moved = { ...score };
      for (const [key, range] of Object.entries(score.tie_bounds)) (moved as Record<string, unknown>)[key] = (range as [number, number])[end];
      return moved;
    });
  // A bound's precision is a share of the task's predicted calls: the distinct matched count follows from it.
  const distinct = (score: TaskScore) => (score.tie_bounds ? score.precision * score.total_pred_calls : distinctMatchedPredictions(score));
  const low = referenceAggregates(at(0), distinct);
  const high = referenceAggregates(at(1), distinct);
  const bounds: TieSummary['bounds'] = {};
  for (const key of Object.keys(low) as BoundedKey[]) bounds[key] = [Math.min(low[key], high[key]), Math.max(low[key], high[key])];
  return { count: sensitive.length, ids: sensitive.map((score) => score.id), bounds };
}

export function aggregateScores(input: AggregateInput): StepAggregate {
  const { perId } = input;
  const totalGt = sum(perId.map((score) => score.total_gt_calls));
  const totalPred = sum(perId.map((score) => score.total_pred_calls));
  const matched = sum(perId.map((score) => score.matched));
  const weighted = (pick: (score: TaskScore) => number) => safeDiv(sum(perId.map((score) => pick(score) * score.total_gt_calls)), totalGt);
  const matchedSuccess = sum(perId.map((score) => score.corrected.matched_success));
  const outsideGt = sum(input.gtCallsOutside.values());
  const precisionSum = sum(perId.map((score) => score.precision));
  return {
    num_ids: perId.length,
    tie_sensitive: summariseTies(perId),
    total_gt_calls: totalGt,
    total_pred_calls: totalPred,
    matched,
    recall: safeDiv(matched, totalGt),
    precision: safeDiv(sum(perId.map(distinctMatchedPredictions)), totalPred),
    avg_sim_all_cov: weighted((score) => score.avg_sim_all_cov),
    avg_sim_strong_cov: weighted((score) => score.avg_sim_strong_cov),
    step_coherence_cov: weighted((score) => score.step_coherence_cov),
    order_consistency_cov: weighted((score) => score.order_consistency_cov),
    merge_purity_cov: weighted((score) => score.merge_purity_cov),
    avg_Rounds: safeDiv(sum(perId.map((score) => input.rounds.get(score.id) ?? 0)), perId.length),
    avg_tool_calls: safeDiv(totalPred, perId.length),
    mode: input.mode,
    coverage: input.coverage,
    corrected: {
      order_consistency_fixed: weighted((score) => score.corrected.order_consistency_fixed),
      recall_success: safeDiv(matchedSuccess, totalGt),
      matched_success: matchedSuccess,
      recall_all_ids: safeDiv(matched, totalGt + outsideGt),
      precision_all_ids: safeDiv(precisionSum, perId.length + input.gtCallsOutside.size),
      tie_break_changed_ids: perId.filter((score) => score.corrected.tie_break_changed.length > 0).map((score) => score.id),
    },
    infra_failures: input.infraFailures ?? { count: 0, ids: [], source: null, codes: {} },
  };
}

export interface TypeSummary {
  type: string;
  tasks: number;
  gt_calls: number;
  recall: number;
  precision: number;
  step_coherence_cov: number;
  order_consistency_cov: number;
  merge_purity_cov: number;
}

/** Per task type, GT-call-weighted means (the reference's "Top N Types"), in first-seen order. */
export function summariseByType(perId: readonly TaskScore[], typeOf: (id: string) => string): TypeSummary[] {
  const groups = new Map<string, TaskScore[]>();
  for (const score of perId) {
    const type = typeOf(score.id);
    const group = groups.get(type);
    if (group) group.push(score);
    else groups.set(type, [score]);
  }
  return [...groups].map(([type, scores]) => {
    const weight = sum(scores.map((score) => score.total_gt_calls));
    const weighted = (pick: (score: TaskScore) => number) => safeDiv(sum(scores.map((score) => pick(score) * score.total_gt_calls)), weight);
    return {
      type,
      tasks: scores.length,
      gt_calls: weight,
      recall: safeDiv(sum(scores.map((score) => score.matched)), weight),
      precision: safeDiv(sum(scores.map(distinctMatchedPredictions)), sum(scores.map((score) => score.total_pred_calls))),
      step_coherence_cov: weighted((score) => score.step_coherence_cov),
      order_consistency_cov: weighted((score) => score.order_consistency_cov),
      merge_purity_cov: weighted((score) => score.merge_purity_cov),
    };
  });
}

/** The N worst types for one metric, ascending; a stable sort keeps first-seen order on ties. */
export function worstTypes(
  summaries: readonly TypeSummary[],
  key: 'step_coherence_cov' | 'order_consistency_cov' | 'merge_purity_cov',
  count = 10,
): TypeSummary[] {
  return [...summaries].sort((a, b) => a[key] - b[key]).slice(0, count);
}
