// The step evaluator as a pure function over trajectories plus an injected similarity
// (`evaluateStep`), and the embedding-backed wrapper the CLI uses (`runStepEvaluation`).
// Id alignment: ids compared as strings, evaluated in ascending order; see
// aggregate.ts for what the default and reference-compat modes do with missing ids.
// Arithmetic: reference-compat computes similarities in float32 (float32.ts) and resolves
// equal-cost assignments as SciPy does (scipy-lsap.ts); the default keeps float64 and the
// deterministic tie-break. Each per-task score lists the metrics the other tie rule would change.
// Infrastructure failures of the run (src/eval/infra-failures.ts) without a prediction are left
// out of every denominator in both modes and reported in aggregate.infra_failures.
import type { Embedder } from '../embed/types.js';
import { describeInfraFailures, noInfraFailures, type InfraFailures } from '../infra-failures.js';
import { EmbeddingCache, embedTexts } from '../embed/cache.js';
import { aggregateScores, summariseByType, type Coverage, type StepAggregate, type StepMode, type TypeSummary } from './aggregate.js';
import { defaultThresholds, scoreTask, type StepThresholds, type TaskScore } from './metrics.js';
import { compareCodePoints } from './serialize.js';
import { tieBreakSolver, type BucketSolver } from './assignment.js';
import { createFloat32Similarity } from './float32.js';
import { createScipySolver } from './scipy-lsap.js';
import { createEmbeddingSimilarity, type TaskSimilarity } from './similarity.js';
import type { Trajectory } from './trajectory.js';

interface StepEvaluationOptions {
  thresholds?: StepThresholds;
  mode?: StepMode;
  /** float32 similarities and costs, as numpy; defaults to true in reference-compat. */
  float32?: boolean;
  /** Infrastructure failures of the run; their ids without a prediction are not scored. */
  infraFailures?: InfraFailures;
}

export interface StepEvaluation {
  aggregate: StepAggregate;
  perId: TaskScore[];
  perType: TypeSummary[];
  thresholds: StepThresholds;
  /** The trajectories each per-id score was computed from (empty ones for missing ids). */
  pairs: Map<string, { gt: Trajectory; pred: Trajectory }>;
}

export function emptyTrajectory(id: string, type = 'UNKNOWN'): Trajectory {
  return { id, type, stepCount: 0, calls: [] };
}

function sortedIds(ids: Iterable<string>): string[] {
  return [...ids].sort(compareCodePoints);
}

/** GT ids without a prediction that the run recorded as infrastructure failures. */
function infraExcludedIds(gt: ReadonlyMap<string, Trajectory>, pred: ReadonlyMap<string, Trajectory>, infra: InfraFailures = noInfraFailures): string[] {
  return sortedIds([...gt.keys()].filter((id) => !pred.has(id) && infra.ids.has(id)));
}

export function computeCoverage(gt: ReadonlyMap<string, Trajectory>, pred: ReadonlyMap<string, Trajectory>, infra: InfraFailures = noInfraFailures): Coverage {
  const missing = sortedIds([...gt.keys()].filter((id) => !pred.has(id) && !infra.ids.has(id)));
  const infraIds = infraExcludedIds(gt, pred, infra);
  const extra = sortedIds([...pred.keys()].filter((id) => !gt.has(id)));
  const evaluated = gt.size - missing.length - infraIds.length;
  return {
    gt_ids: gt.size,
    predicted_ids: pred.size,
    evaluated_ids: evaluated,
    coverage: gt.size ? evaluated / gt.size : 0,
    missing_ids: missing,
    extra_ids: extra,
    infra_failure_ids: infraIds,
  };
}

/** Which (gt, pred) pairs a mode scores, in evaluation order. */
export function planPairs(
  gt: ReadonlyMap<string, Trajectory>,
  pred: ReadonlyMap<string, Trajectory>,
  mode: StepMode,
  infra: InfraFailures = noInfraFailures,
): Map<string, { gt: Trajectory; pred: Trajectory }> {
  const pairs = new Map<string, { gt: Trajectory; pred: Trajectory }>();
  const ids = mode === 'reference-compat' ? [...gt.keys()].filter((id) => pred.has(id)) : [...gt.keys()].filter((id) => pred.has(id) || !infra.ids.has(id));
  for (const id of sortedIds(ids)) {
    const gtTrajectory = gt.get(id) as Trajectory;
    pairs.set(id, { gt: gtTrajectory, pred: pred.get(id) ?? emptyTrajectory(id, gtTrajectory.type) });
  }
  return pairs;
}

/** The mode's tie rule and the other one (for the tie_break_changed report). */
export function solversFor(mode: StepMode, float32 = mode === 'reference-compat'): { solver: BucketSolver; compareWith: BucketSolver } {
  const scipy = createScipySolver(float32);
  return mode === 'reference-compat' ? { solver: scipy, compareWith: tieBreakSolver } : { solver: tieBreakSolver, compareWith: scipy };
}

/** Embeds every call text of the planned pairs once (cache first) and returns the mode's similarity. */
export async function embedPairs(
  pairs: ReadonlyMap<string, { gt: Trajectory; pred: Trajectory }>,
  embedder: Embedder,
  cache: EmbeddingCache,
  float32: boolean,
): Promise<TaskSimilarity> {
  const texts: string[] = [];
  for (const pair of pairs.values()) {
    for (const call of pair.gt.calls) texts.push(call.text);
    for (const call of pair.pred.calls) texts.push(call.text);
  }
  const vectors = await embedTexts(embedder, texts, cache);
  return float32 ? createFloat32Similarity(vectors) : createEmbeddingSimilarity(vectors);
}

/** @internal Exported for its tests. */
export function evaluateStep(
  gt: ReadonlyMap<string, Trajectory>,
  pred: ReadonlyMap<string, Trajectory>,
  similarity: TaskSimilarity,
  options: StepEvaluationOptions = {},
): StepEvaluation {
  const thresholds = options.thresholds ?? defaultThresholds;
  const mode = options.mode ?? 'default';
  const infra = options.infraFailures ?? noInfraFailures;
  const pairs = planPairs(gt, pred, mode, infra);
  const solvers = solversFor(mode, options.float32);
  const perId: TaskScore[] = [];
  const rounds = new Map<string, number>();
  for (const [id, pair] of pairs) {
    perId.push(scoreTask(pair.gt, pair.pred, similarity(pair.gt, pair.pred), thresholds, { missing: !pred.has(id), ...solvers }));
    rounds.set(id, pair.pred.stepCount);
  }
  const excluded = new Set(infraExcludedIds(gt, pred, infra));
  const gtCallsOutside = new Map<string, number>();
  for (const [id, trajectory] of gt) if (!pairs.has(id) && !excluded.has(id)) gtCallsOutside.set(id, trajectory.calls.length);
  const coverage = computeCoverage(gt, pred, infra);
  const aggregate = aggregateScores({ perId, rounds, mode, coverage, gtCallsOutside, infraFailures: describeInfraFailures(infra, coverage.infra_failure_ids) });
  const perType = summariseByType(perId, (id) => gt.get(id)?.type ?? 'UNKNOWN');
  return { aggregate, perId, perType, thresholds, pairs };
}

export interface RunStepEvaluationInput extends StepEvaluationOptions {
  gt: ReadonlyMap<string, Trajectory>;
  pred: ReadonlyMap<string, Trajectory>;
  embedder: Embedder;
  /** Defaults to an in-memory cache (nothing read or written). */
  cache?: EmbeddingCache;
}

/** Embeds every argument text once (cache first), then evaluates. */
export async function runStepEvaluation(input: RunStepEvaluationInput): Promise<StepEvaluation & { cache: EmbeddingCache }> {
  const cache = input.cache ?? EmbeddingCache.memory(input.embedder.id);
  const pairs = planPairs(input.gt, input.pred, input.mode ?? 'default', input.infraFailures);
  const float32 = input.float32 ?? input.mode === 'reference-compat';
  const similarity = await embedPairs(pairs, input.embedder, cache, float32);
  const evaluation = evaluateStep(input.gt, input.pred, similarity, { ...input, float32 });
  return { ...evaluation, cache };
}
