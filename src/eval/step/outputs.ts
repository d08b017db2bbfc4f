// The step-evaluation output files, with the reference's names and keys:
//   results_eval.json        {aggregate, per_id} + our additions: thresholds, embedder,
//                            embedding_cache (hit/miss stats), per_type, gt_checks
//   results_eval.csv         reference header order (merge before order), Python number text
//                            (`1.0`, not `1`) and csv-module line ends (\r\n)
//   strong_matches.json / weak_matches.json / unmatched_predictions.json
// Arguments are written with lossless-json so numbers keep their source text (`2.0`).
import { GRADER_VERSIONS } from '../../results/grader-versions.js';
import { mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../../tasks/write-json.js';
import path from 'node:path';
import { stringify as stringifyLossless } from 'lossless-json';
import type { CacheStats } from '../embed/cache.js';
import type { EmbedderRecord } from '../embed/types.js';
import type { StepEvaluation } from './evaluate.js';
import type { GtChecks } from './gt-checks.js';
import type { TaskScore } from './metrics.js';
import { formatPythonFloat } from './serialize.js';
import type { Trajectory, TrajectoryCall } from './trajectory.js';
import { csvText } from '../../core/csv.js';

const CSV_HEADER = [
  'id',
  'total_gt_calls',
  'total_pred_calls',
  'matched',
  'recall',
  'precision',
  'avg_sim_all_cov',
  'avg_sim_strong_cov',
  'step_coherence_cov',
  'merge_purity_cov',
  'order_consistency_cov',
] as const;

export const OUTPUT_FILES = {
  results: 'results_eval.json',
  csv: 'results_eval.csv',
  strong: 'strong_matches.json',
  weak: 'weak_matches.json',
  unmatched: 'unmatched_predictions.json',
  cache: '.emb_cache.json',
} as const;

export interface StepOutputExtras {
  embedder: EmbedderRecord;
  cache: CacheStats;
  gtChecks?: GtChecks;
}

function toCsv(perId: readonly TaskScore[]): string {
  const integerKeys = new Set(['total_gt_calls', 'total_pred_calls', 'matched']);
  const rows = perId.map((score) =>
    CSV_HEADER.map((key) => {
      const value = score[key];
      if (typeof value === 'string') return value;
      return integerKeys.has(key) ? String(value) : formatPythonFloat(value);
    }),
  );
  return csvText([CSV_HEADER, ...rows], '\r\n');
}

function describeCall(call: TrajectoryCall) {
  return {
    tool: call.tool,
    arguments: call.arguments === undefined ? null : call.arguments,
    step_index: call.stepIndex,
    call_index_in_step: call.callIndexInStep,
  };
}

interface MatchFiles {
  strong: unknown[];
  weak: unknown[];
  unmatched: unknown[];
}

/** Strong / weak matches and unmatched predicted calls, in per-id then match order. */
function collectMatchFiles(evaluation: StepEvaluation): MatchFiles {
  const files: MatchFiles = { strong: [], weak: [], unmatched: [] };
  const { tauStrong, tauWeak } = evaluation.thresholds;
  for (const score of evaluation.perId) {
    const pair = evaluation.pairs.get(score.id);
    if (!pair || !('matches' in score.details)) continue;
    const { gt, pred }: { gt: Trajectory; pred: Trajectory } = pair;
    for (const match of score.details.matches) {
      const gtCall = gt.calls[match.gt_call_index];
      const predCall = pred.calls[match.pred_call_index];
      if (!gtCall || !predCall) continue;
      const record = { id: score.id, similarity: match.similarity, gt: describeCall(gtCall), pred: describeCall(predCall) };
      if (match.similarity >= tauStrong) files.strong.push(record);
      else if (match.similarity >= tauWeak) files.weak.push(record);
    }
    for (const index of score.details.unmatched_pred_indices) {
      const call = pred.calls[index];
      if (call) files.unmatched.push({ id: score.id, pred: describeCall(call) });
    }
  }
  return files;
}

function buildResultsDocument(evaluation: StepEvaluation, extras: StepOutputExtras) {
  return {
    // Which grading semantics produced these numbers (m3 trends and m3 gate split on a change).
    grader_version: GRADER_VERSIONS.step,
    aggregate: evaluation.aggregate,
    per_id: evaluation.perId,
    thresholds: { tau_strong: evaluation.thresholds.tauStrong, tau_weak: evaluation.thresholds.tauWeak },
    embedder: extras.embedder,
    embedding_cache: extras.cache,
    per_type: evaluation.perType,
    ...(extras.gtChecks ? { gt_checks: extras.gtChecks } : {}),
  };
}

/** Writes every output file into `outputDir` (created if needed); returns their paths. */
export function writeStepOutputs(outputDir: string, evaluation: StepEvaluation, extras: StepOutputExtras): Record<keyof typeof OUTPUT_FILES, string> {
  mkdirSync(outputDir, { recursive: true });
  const paths = Object.fromEntries(Object.entries(OUTPUT_FILES).map(([key, name]) => [key, path.join(outputDir, name)])) as Record<
    keyof typeof OUTPUT_FILES,
    string
  >;
  writeFileAtomic(paths.results, `${JSON.stringify(buildResultsDocument(evaluation, extras), null, 2)}\n`);
  writeFileAtomic(paths.csv, toCsv(evaluation.perId));
  const files = collectMatchFiles(evaluation);
  writeFileAtomic(paths.strong, `${stringifyLossless(files.strong, undefined, 2) ?? '[]'}\n`);
  writeFileAtomic(paths.weak, `${stringifyLossless(files.weak, undefined, 2) ?? '[]'}\n`);
  writeFileAtomic(paths.unmatched, `${stringifyLossless(files.unmatched, undefined, 2) ?? '[]'}\n`);
  if (extras.cache.file) paths.cache = extras.cache.file;
  return paths;
}
