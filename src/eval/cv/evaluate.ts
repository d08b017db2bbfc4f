// The CV evaluation over trajectories: which ids are scored (as the step evaluator: the
// reference's common ids in reference-compat; every GT id but infrastructure failures by
// default, missing predictions as empty trajectories), the mode's arithmetic and tie rule, and
// the aggregate with m3bench's additions (mode, coverage, infra failures, tie-rule changes).
import { describeInfraFailures, noInfraFailures, type InfraFailures } from '../infra-failures.js';
import type { Coverage, InfraFailureSummary, StepMode } from '../step/aggregate.js';
import { computeCoverage, planPairs, solversFor } from '../step/evaluate.js';
import type { TaskSimilarity } from '../step/similarity.js';
import type { Trajectory } from '../step/trajectory.js';
import { aggregateCv, CV_MEAN_TOLERANCE, scoreCvTask, type CvAggregate, type CvTaskScore } from './metrics.js';

export interface CvEvaluationOptions {
  mode: StepMode;
  tauWeak: number;
  float32?: boolean;
  infraFailures?: InfraFailures;
}

export interface CvEvaluation {
  aggregate: CvAggregate & {
    mode: StepMode;
    coverage: Coverage;
    infra_failures: InfraFailureSummary;
    tie_break_changed_ids: string[];
    /** Tie-sensitive tasks and the range of each aggregate with them at their lower, then upper bound. */
    tie_sensitive: { count: number; ids: string[]; bounds: Partial<Record<keyof CvAggregate, [number, number]>> };
  };
  perId: CvTaskScore[];
}

export function evaluateCv(
  gt: ReadonlyMap<string, Trajectory>,
  pred: ReadonlyMap<string, Trajectory>,
  similarity: TaskSimilarity,
  options: CvEvaluationOptions,
): CvEvaluation {
  const infra = options.infraFailures ?? noInfraFailures;
  const solvers = solversFor(options.mode, options.float32);
  const perId: CvTaskScore[] = [];
  for (const [id, pair] of planPairs(gt, pred, options.mode, infra)) {
    perId.push(
      scoreCvTask(pair.gt, pair.pred, similarity(pair.gt, pair.pred), options.tauWeak, {
        ...solvers,
        missing: !pred.has(id),
        tolerance: options.mode === 'reference-compat' ? 0 : CV_MEAN_TOLERANCE,
      }),
    );
  }
  const coverage = computeCoverage(gt, pred, infra);
  return {
    aggregate: {
      ...aggregateCv(perId),
      mode: options.mode,
      coverage,
      infra_failures: describeInfraFailures(infra, coverage.infra_failure_ids),
      tie_break_changed_ids: perId.filter((score) => (score.tie_break_changed ?? []).length > 0).map((score) => score.id),
      tie_sensitive: summariseCvTies(perId),
    },
    perId,
  };
}

const boundedAggregates = ['perception_recall_avg', 'grounding_arg_sim_avg', 'visual_reasoning_ability'] as const;

function summariseCvTies(perId: readonly CvTaskScore[]): CvEvaluation['aggregate']['tie_sensitive'] {
  const sensitive = perId.filter((score) => score.tie_sensitive);
  if (sensitive.length === 0) return { count: 0, ids: [], bounds: {} };
  const at = (end: 0 | 1) =>
    aggregateCv(
      perId.map((score) =>
        score.tie_bounds ? { ...score, ...Object.fromEntries(Object.entries(score.tie_bounds).map(([key, range]) => [key, range[end]])) } : score,
      ),
    );
  const low = at(0);
  const high = at(1);
  const bounds: CvEvaluation['aggregate']['tie_sensitive']['bounds'] = {};
  for (const key of boundedAggregates) {
    const [a, b] = [low[key], high[key]];
    if (typeof a === 'number' && typeof b === 'number') bounds[key] = [Math.min(a, b), Math.max(a, b)];
  }
  return { count: sensitive.length, ids: sensitive.map((score) => score.id), bounds };
}
