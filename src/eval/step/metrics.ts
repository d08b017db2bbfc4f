// Per-task step metrics, exactly as the reference computes them, plus the corrected
// variants (kept apart under `corrected`, never replacing a reference key):
//   order_consistency_fixed  the reference value, except for tasks without cross-step GT call
//                            pairs (single-step GT): there order cannot be wrong, so
//                            the task scores its recall instead of the reference's constant 0.
//   recall_success           matches whose predicted call result starts with `[Tool error]` do
//                            not count; `matched_success` is their number.
//   tie_break_changed        the reference keys whose value differs between the two ways of
//                            resolving equal-cost assignments (SciPy's, used by
//                            --reference-compat, and m3bench's deterministic tie-break, the
//                            default), on the same similarities; empty when ties do not matter.
import { isToolErrorText } from '../../core/tool-result-contract.js';
import { matchCalls, tieBreakSolver, type BucketSolver, type Match } from './assignment.js';
import { boundsOver, type Bounds, mayDependOnNoise, noiseVariants, seedOf } from './tie-bounds.js';
import type { Trajectory } from './trajectory.js';
import { sum } from '../../core/number-format.js';

export interface StepThresholds {
  tauStrong: number;
  tauWeak: number;
}

export const defaultThresholds: StepThresholds = { tauStrong: 0.8, tauWeak: 0.6 };

interface MatchDetail {
  gt_call_index: number;
  pred_call_index: number;
  gt_step: number;
  pred_step: number;
  similarity: number;
  gt_tool: string;
  pred_tool: string;
}

/** @internal Exported for its tests. */
export interface TaskDetails {
  unmatched_gt_indices: number[];
  unmatched_pred_indices: number[];
  matches: MatchDetail[];
  W: number[][];
  primary_pred_for_gt: Array<number | null>;
  per_step_fragmentation: number[];
}

interface CorrectedTaskMetrics {
  order_consistency_fixed: number;
  matched_success: number;
  recall_success: number;
  /** True when the GT id had no prediction and was scored as an empty trajectory. */
  missing_prediction: boolean;
  tie_break_changed: Array<keyof StepMetricValues>;
}

/** The reference metric keys, shared by a task's score and the aggregate over tasks. */
export interface StepMetricValues {
  total_gt_calls: number;
  total_pred_calls: number;
  matched: number;
  recall: number;
  precision: number;
  avg_sim_all_cov: number;
  avg_sim_strong_cov: number;
  step_coherence_cov: number;
  order_consistency_cov: number;
  merge_purity_cov: number;
}

export interface TaskScore extends StepMetricValues {
  id: string;
  /** True when float32 noise in the similarities (ties, thresholds) could change a reference metric (tie-bounds.ts). */
  tie_sensitive: boolean;
  /** For a tie-sensitive task: [min, max] of each reference metric over the tie-breaks tried. */
  tie_bounds?: Partial<Record<ReferenceMetricKey, Bounds>>;
  flags?: { merged_steps: boolean; split_steps: boolean };
  corrected: CorrectedTaskMetrics;
  details: TaskDetails | Record<string, never>;
}

export function safeDiv(numerator: number, denominator: number): number {
  return denominator ? numerator / denominator : 0;
}

/** Step matrix W (float32 accumulation, as numpy does in the reference). */
function buildStepMatrix(matches: readonly Match[], gtSteps: number, predSteps: number): number[][] {
  const matrix = Array.from({ length: gtSteps }, () => new Array<number>(predSteps).fill(0));
  for (const match of matches) {
    const row = matrix[match.gtStep];
    if (row && match.predStep < predSteps) row[match.predStep] = Math.fround((row[match.predStep] ?? 0) + Math.fround(match.similarity));
  }
  return matrix;
}

/** Per GT step: (k-1)/k where k = number of distinct predicted steps among its matches. */
function fragmentation(matches: readonly Match[], gtSteps: number): number[] {
  const predStepsByGt = Array.from({ length: gtSteps }, () => new Set<number>());
  for (const match of matches) predStepsByGt[match.gtStep]?.add(match.predStep);
  return predStepsByGt.map((steps) => (steps.size <= 1 ? 0 : (steps.size - 1) / steps.size));
}

/** Inversion rate over match pairs that differ in both GT step and predicted step. */
function orderError(matches: readonly Match[]): number {
  if (matches.length <= 1) return 0;
  let inversions = 0;
  let total = 0;
  for (let i = 0; i < matches.length; i += 1) {
    for (let j = i + 1; j < matches.length; j += 1) {
      const a = matches[i] as Match;
      const b = matches[j] as Match;
      if (a.gtStep === b.gtStep || a.predStep === b.predStep) continue;
      total += 1;
      if (a.gtStep < b.gtStep !== a.predStep < b.predStep) inversions += 1;
    }
  }
  return total === 0 ? 0 : inversions / total;
}

/** Normalised conditional entropy of GT steps given predicted steps, weighted by W mass. */
function mergeEntropy(matrix: readonly (readonly number[])[]): number {
  const activeRows = matrix.filter((row) => sum(row) > 0).length;
  if (activeRows <= 1) return 0;
  const columns = matrix[0]?.length ?? 0;
  const masses: Array<{ column: number; mass: number }> = [];
  for (let column = 0; column < columns; column += 1) {
    const mass = matrix.reduce((sum, row) => sum + (row[column] ?? 0), 0);
    if (mass > 0) masses.push({ column, mass });
  }
  const total = masses.reduce((sum, entry) => sum + entry.mass, 0);
  if (total <= 0) return 0;
  let entropy = 0;
  for (const { column, mass } of masses) {
    let columnEntropy = 0;
    for (const row of matrix) {
      const q = (row[column] ?? 0) / mass;
      if (q > 0) columnEntropy -= q * Math.log(q + 1e-12);
    }
    entropy += (mass / total) * columnEntropy;
  }
  const maximum = Math.log(activeRows);
  return maximum > 0 ? entropy / maximum : 0;
}

function clip01(value: number): number {
  return Math.max(0, Math.min(1, value));
}

function degenerateScore(id: string, missing: boolean): TaskScore {
  return {
    id,
    tie_sensitive: false,
    total_gt_calls: 0,
    total_pred_calls: 0,
    matched: 0,
    recall: 1,
    precision: 1,
    avg_sim_all_cov: 0,
    avg_sim_strong_cov: 0,
    step_coherence_cov: 1,
    order_consistency_cov: 1,
    merge_purity_cov: 1,
    flags: { merged_steps: false, split_steps: false },
    corrected: { order_consistency_fixed: 1, matched_success: 0, recall_success: 1, missing_prediction: missing, tie_break_changed: [] },
    details: {},
  };
}

interface StepStructure {
  stepCoherence: number;
  orderConsistencyCov: number;
  /** Σ_{i<j} n_i n_j over GT steps: 0 when no cross-step GT call pair exists. */
  gtPairs: number;
  mergePurity: number;
  matrix: number[][];
  perStepFragmentation: number[];
}

/** The structure metrics of the reference: step coherence, order consistency with pair coverage, merge purity. */
function stepStructure(gt: Trajectory, pred: Trajectory, matches: readonly Match[]): StepStructure {
  const matrix = buildStepMatrix(matches, gt.stepCount, pred.stepCount);
  const perStepFragmentation = fragmentation(matches, gt.stepCount);
  const callsPerStep = new Array<number>(gt.stepCount).fill(0);
  for (const call of gt.calls) callsPerStep[call.stepIndex] = (callsPerStep[call.stepIndex] ?? 0) + 1;
  const matchedPerStep = new Array<number>(gt.stepCount).fill(0);
  for (const match of matches) matchedPerStep[match.gtStep] = (matchedPerStep[match.gtStep] ?? 0) + 1;

  let coherenceSum = 0;
  callsPerStep.forEach((count, step) => {
    if (count <= 0) return;
    coherenceSum += safeDiv(matchedPerStep[step] ?? 0, count) * (1 - (perStepFragmentation[step] ?? 0)) * count;
  });
  let gtPairs = 0;
  let matchedPairs = 0;
  for (let i = 0; i < gt.stepCount; i += 1) {
    for (let j = i + 1; j < gt.stepCount; j += 1) {
      gtPairs += (callsPerStep[i] ?? 0) * (callsPerStep[j] ?? 0);
      matchedPairs += (matchedPerStep[i] ?? 0) * (matchedPerStep[j] ?? 0);
    }
  }
  return {
    stepCoherence: coherenceSum / (sum(callsPerStep) || 1),
    orderConsistencyCov: clip01(1 - orderError(matches)) * safeDiv(matchedPairs, gtPairs),
    gtPairs,
    mergePurity: clip01(1 - mergeEntropy(matrix)),
    matrix,
    perStepFragmentation,
  };
}

function matchDetails(gt: Trajectory, pred: Trajectory, matches: readonly Match[]): MatchDetail[] {
  return matches.map((match) => ({
    gt_call_index: match.gtIndex,
    pred_call_index: match.predIndex,
    gt_step: match.gtStep,
    pred_step: match.predStep,
    similarity: match.similarity,
    gt_tool: gt.calls[match.gtIndex]?.tool ?? '',
    pred_tool: pred.calls[match.predIndex]?.tool ?? '',
  }));
}

/** First maximum of each W row; null for an all-zero row or when there are no predicted steps. */
function primaryPredictedSteps(matrix: readonly (readonly number[])[]): Array<number | null> {
  return matrix.map((row) => (row.length === 0 || row.every((value) => value === 0) ? null : row.indexOf(Math.max(...row))));
}

export interface ScoreOptions {
  /** True when the GT id had no prediction and is scored as an empty trajectory. */
  missing?: boolean;
  /** How equal-cost assignments are resolved (default: the deterministic tie-break). */
  solver?: BucketSolver;
  /** The other resolution, to report which metrics the choice changed (tie_break_changed). */
  compareWith?: BucketSolver;
}

const referenceMetricKeys = [
  'matched',
  'recall',
  'precision',
  'avg_sim_all_cov',
  'avg_sim_strong_cov',
  'step_coherence_cov',
  'order_consistency_cov',
  'merge_purity_cov',
] as const;

type ReferenceMetricKey = (typeof referenceMetricKeys)[number];

/**
 * Solves the matching again on similarities moved within float32 noise; when a reference metric
 * then moves, the task is tie-sensitive, with bounds over every result (this one included).
 */
function flagNoiseSensitivity(
  score: TaskScore,
  tried: TaskScore[],
  gt: Trajectory,
  pred: Trajectory,
  sims: readonly (readonly number[])[],
  context: NoiseContext,
): void {
  if (!mayDependOnNoise(gt.calls, pred.calls, sims, [context.thresholds.tauWeak, context.thresholds.tauStrong])) return;
  for (const variant of noiseVariants(sims, seedOf(gt.id))) {
    tried.push(
      scoreMatches(gt, pred, matchCalls(gt.calls, pred.calls, variant, context.thresholds.tauWeak, context.solver), context.thresholds, context.missing),
    );
  }
  const { bounds, changed } = boundsOver(tried, referenceMetricKeys);
  if (changed.length === 0) return;
  score.tie_sensitive = true;
  score.tie_bounds = bounds;
  score.corrected.tie_break_changed = referenceMetricKeys.filter((key) => changed.includes(key) || score.corrected.tie_break_changed.includes(key));
}

interface NoiseContext {
  thresholds: StepThresholds;
  solver: BucketSolver;
  missing: boolean;
}

/**
 * Scores one task. `sims[g][p]` is the similarity of flat GT call g and flat predicted call p
 * (the evaluator computes it from embeddings; tests inject it).
 */
export function scoreTask(
  gt: Trajectory,
  pred: Trajectory,
  sims: readonly (readonly number[])[],
  thresholds: StepThresholds,
  options: ScoreOptions = {},
): TaskScore {
  const missing = options.missing ?? false;
  if (gt.calls.length === 0 && pred.calls.length === 0) return degenerateScore(gt.id, missing);
  const solver = options.solver ?? tieBreakSolver;
  const matching = matchCalls(gt.calls, pred.calls, sims, thresholds.tauWeak, solver);
  const score = scoreMatches(gt, pred, matching, thresholds, missing);
  const tried = [score];
  if (options.compareWith) {
    const other = matchCalls(gt.calls, pred.calls, sims, thresholds.tauWeak, options.compareWith);
    const samePairs =
      other.matches.length === matching.matches.length &&
      other.matches.every((match, index) => match.gtIndex === matching.matches[index]?.gtIndex && match.predIndex === matching.matches[index]?.predIndex);
    if (!samePairs) {
      const alternative = scoreMatches(gt, pred, other, thresholds, missing);
      tried.push(alternative);
      score.corrected.tie_break_changed = referenceMetricKeys.filter((key) => Math.abs(score[key] - alternative[key]) > 1e-12);
    }
  }
  flagNoiseSensitivity(score, tried, gt, pred, sims, { thresholds, solver, missing });
  if (!score.tie_sensitive && score.corrected.tie_break_changed.length > 0) {
    score.tie_sensitive = true;
    score.tie_bounds = boundsOver(tried, referenceMetricKeys).bounds;
  }
  return score;
}

function scoreMatches(gt: Trajectory, pred: Trajectory, matching: ReturnType<typeof matchCalls>, thresholds: StepThresholds, missing: boolean): TaskScore {
  const totalGt = gt.calls.length;
  const totalPred = pred.calls.length;
  const { matches, unmatchedGt, unmatchedPred } = matching;
  const matched = matches.length;
  const recall = safeDiv(matched, totalGt);
  const strong = matches.filter((match) => match.similarity >= thresholds.tauStrong);
  const similaritySum = (list: readonly Match[]) => list.reduce((sum, match) => sum + match.similarity, 0);
  const structure = stepStructure(gt, pred, matches);
  const matchedSuccess = matches.filter((match) => !isToolErrorText(pred.calls[match.predIndex]?.result ?? '')).length;
  return {
    id: gt.id,
    tie_sensitive: false,
    total_gt_calls: totalGt,
    total_pred_calls: totalPred,
    matched,
    recall,
    precision: safeDiv(new Set(matches.map((match) => match.predIndex)).size, totalPred),
    avg_sim_all_cov: recall * (matched ? similaritySum(matches) / matched : 0),
    avg_sim_strong_cov: safeDiv(strong.length, totalGt) * (strong.length ? similaritySum(strong) / strong.length : 0),
    step_coherence_cov: structure.stepCoherence,
    order_consistency_cov: structure.orderConsistencyCov,
    merge_purity_cov: structure.mergePurity * recall,
    corrected: {
      order_consistency_fixed: structure.gtPairs === 0 ? recall : structure.orderConsistencyCov,
      matched_success: matchedSuccess,
      recall_success: safeDiv(matchedSuccess, totalGt),
      missing_prediction: missing,
      tie_break_changed: [],
    },
    details: {
      unmatched_gt_indices: unmatchedGt,
      unmatched_pred_indices: unmatchedPred,
      matches: matchDetails(gt, pred, matches),
      W: structure.matrix,
      primary_pred_for_gt: primaryPredictedSteps(structure.matrix),
      per_step_fragmentation: structure.perStepFragmentation,
    },
  };
}
