// The step alignment the task metrics build on (which predicted call matched which GT call),
// read from the step evaluator's `results_eval.json` (per_id[].details, flat call indices as in
// src/eval/step/trajectory.ts) so the taxonomy agrees with the step scores the report shows.
// Ids the file does not cover (no file, or a reference-compat run that skipped missing ids) are
// aligned here with the step evaluator's own functions and the default embedder; each task
// says which source it used.
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { createEmbedder } from '../embed/registry.js';
import { loadJsonFile } from '../../tasks/load-json.js';
import { runStepEvaluation } from '../step/evaluate.js';
import { defaultThresholds, type StepThresholds, type TaskScore } from '../step/metrics.js';
import type { Trajectory } from '../step/trajectory.js';

export interface TaskAlignment {
  matches: Array<{ gt: number; pred: number; similarity: number }>;
  unmatchedGt: number[];
  unmatchedPred: number[];
  recall: number;
  precision: number;
  source: 'step_results' | 'computed';
}

export interface Alignments {
  byId: Map<string, TaskAlignment>;
  thresholds: StepThresholds;
  /** The results_eval.json read, if any. */
  file: string | undefined;
  /** Embedder of the in-process alignment, when some ids needed one. */
  computedWith: string | undefined;
}

const indexList = z.array(z.number().int().nonnegative());
const detailsSchema = z
  .object({
    unmatched_gt_indices: indexList,
    unmatched_pred_indices: indexList,
    matches: z.array(z.object({ gt_call_index: z.number().int(), pred_call_index: z.number().int(), similarity: z.number() }).loose()),
  })
  .loose();

const resultsSchema = z
  .object({
    thresholds: z.object({ tau_strong: z.number(), tau_weak: z.number() }).loose().optional(),
    per_id: z.array(
      z
        .object({ id: z.union([z.string(), z.number()]).transform((id) => String(id).trim()), recall: z.number(), precision: z.number(), details: z.unknown() })
        .loose(),
    ),
  })
  .loose();

function fromDetails(details: z.output<typeof detailsSchema>, recall: number, precision: number, source: TaskAlignment['source']): TaskAlignment {
  return {
    matches: details.matches.map((match) => ({ gt: match.gt_call_index, pred: match.pred_call_index, similarity: match.similarity })),
    unmatchedGt: [...details.unmatched_gt_indices],
    unmatchedPred: [...details.unmatched_pred_indices],
    recall,
    precision,
    source,
  };
}

/** Per-id alignments of a results_eval.json; entries without usable details are left out. */
function loadStepAlignments(file: string): { byId: Map<string, TaskAlignment>; thresholds: StepThresholds } {
  const parsed = resultsSchema.safeParse(loadJsonFile(file));
  const byId = new Map<string, TaskAlignment>();
  if (!parsed.success) return { byId, thresholds: defaultThresholds };
  for (const entry of parsed.data.per_id) {
    const details = detailsSchema.safeParse(entry.details);
    if (details.success) byId.set(entry.id, fromDetails(details.data, entry.recall, entry.precision, 'step_results'));
  }
  const thresholds = parsed.data.thresholds ? { tauStrong: parsed.data.thresholds.tau_strong, tauWeak: parsed.data.thresholds.tau_weak } : defaultThresholds;
  return { byId, thresholds };
}

function fromScore(score: TaskScore): TaskAlignment | undefined {
  const details = detailsSchema.safeParse(score.details);
  return details.success ? fromDetails(details.data, score.recall, score.precision, 'computed') : undefined;
}

/**
 * Alignments for `ids`: from `stepResultsFile` where it has them, computed in-process for the
 * rest (a GT id without a prediction is aligned against an empty trajectory, as the step
 * evaluator's default mode does).
 */
export async function alignTasks(
  ids: readonly string[],
  gt: ReadonlyMap<string, Trajectory>,
  pred: ReadonlyMap<string, Trajectory>,
  stepResultsFile: string | undefined,
): Promise<Alignments> {
  const loaded = stepResultsFile && existsSync(stepResultsFile) ? loadStepAlignments(stepResultsFile) : undefined;
  const byId = new Map<string, TaskAlignment>();
  const missing: string[] = [];
  for (const id of ids) {
    const found = loaded?.byId.get(id);
    if (found) byId.set(id, found);
    else if (gt.has(id)) missing.push(id);
  }
  const thresholds = loaded?.thresholds ?? defaultThresholds;
  let computedWith: string | undefined;
  if (missing.length > 0) {
    const embedder = createEmbedder();
    computedWith = embedder.id;
    const subset = <T>(map: ReadonlyMap<string, T>) => new Map(missing.flatMap((id) => (map.has(id) ? [[id, map.get(id) as T] as const] : [])));
    const evaluation = await runStepEvaluation({ gt: subset(gt), pred: subset(pred), embedder, thresholds });
    for (const score of evaluation.perId) {
      const alignment = fromScore(score);
      if (alignment) byId.set(score.id, alignment);
    }
  }
  return { byId, thresholds, file: loaded ? stepResultsFile : undefined, computedWith };
}
