// `results/<model>/taskcompletion.json` and `final_proxy.json`. The reference key
// `pre_id` is kept for compatibility and the same object is also written under `per_id`.
// Readers accept either key and the legacy bare-number entries (a completion score, no judges).
// num_total: the reference counts every GT record with an id, duplicates included (213 for the
// published GT, whose 5 duplicated ids appear twice); m3bench scores each distinct id once, so
// num_total is 208 by default and the reference's count with --reference-compat. Both counts are
// always written as num_distinct_ids and num_gt_records.
import { z } from 'zod';
import { formatIssues } from '../../config/zod-issues.js';
import { EvaluationError } from '../../errors/index.js';
import { loadJsonFile } from '../../tasks/load-json.js';

export interface JudgeScoreEntry {
  name: string;
  score: number;
  /** The reply's own number before scaling (0-10 for TC), and how it was read. */
  raw?: number;
  parse?: string;
  attempts?: number;
}

export interface TaskScoreEntry {
  final: number;
  judges: JudgeScoreEntry[];
  info_grounding?: { final: number; judges: JudgeScoreEntry[] };
  question_source?: 'prediction' | 'gt';
}

export interface JudgeFailureRecord {
  id: string;
  metric: 'task_completion' | 'information_grounding';
  judge: string;
  reason: string;
}

export interface GtTotals {
  num_total: number;
  num_distinct_ids: number;
  num_gt_records: number;
}

/** The GT counts of both conventions (see the header). */
export function gtTotals(records: readonly { id: string }[], referenceCompat: boolean): GtTotals {
  const withId = records.filter((record) => record.id !== '');
  const distinct = new Set(withId.map((record) => record.id)).size;
  return { num_total: referenceCompat ? withId.length : distinct, num_distinct_ids: distinct, num_gt_records: withId.length };
}

interface TaskCompletionAggregate extends GtTotals {
  num_scored: number;
  completion_rate: number;
  information_grounding_rate: number;
  /** Over every GT id, 0 for missing predictions and judge failures (bug 40). */
  completion_rate_all: number;
  information_grounding_rate_all: number;
  num_missing_predictions: number;
  num_judge_failures: number;
  /** Tasks the run recorded as infrastructure failures: listed, never in a denominator. */
  num_infra_failures: number;
}

export interface TaskCompletionOutput {
  aggregate: TaskCompletionAggregate;
  pre_id: Record<string, TaskScoreEntry>;
  per_id: Record<string, TaskScoreEntry>;
  missing_predictions: string[];
  infra_failures: string[];
  judge_failures: JudgeFailureRecord[];
  duplicate_gt_ids: string[];
  meta: { judges: string[]; lenient: boolean; gt: string; predictions: string; generated_at: string };
}

const judgeEntrySchema = z.object({ name: z.string(), score: z.number() }).loose();
const scoredEntrySchema = z
  .object({
    final: z.number(),
    judges: z.array(judgeEntrySchema).default([]),
    info_grounding: z
      .object({ final: z.number(), judges: z.array(judgeEntrySchema).default([]) })
      .loose()
      .optional(),
  })
  .loose();
const entrySchema = z.union([z.number().transform((final) => ({ final, judges: [] })), scoredEntrySchema]);

const taskCompletionFileSchema = z
  .object({
    aggregate: z.record(z.string(), z.union([z.number(), z.null()])).optional(),
    pre_id: z.record(z.string(), entrySchema).optional(),
    per_id: z.record(z.string(), entrySchema).optional(),
    // Written by m3 eval final (the reference's file has none): why a task's judges gave no score.
    judge_failures: z.array(z.object({ id: z.string(), judge: z.string(), reason: z.string() }).loose()).default([]),
  })
  .loose();

export type TaskCompletionFile = z.output<typeof taskCompletionFileSchema>;

export function loadTaskCompletion(file: string): TaskCompletionFile {
  const parsed = taskCompletionFileSchema.safeParse(loadJsonFile(file));
  if (!parsed.success) throw new EvaluationError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}

/** Per-id entries, `pre_id` first (the reference key), then `per_id`. */
export function taskEntries(file: TaskCompletionFile): Record<string, TaskScoreEntry> {
  return { ...(file.per_id ?? {}), ...(file.pre_id ?? {}) } as Record<string, TaskScoreEntry>;
}

export const proxyMetricNames = ['token_f1', 'rouge_l', 'number_recall', 'entity_recall'] as const;
export type ProxyMetric = (typeof proxyMetricNames)[number];

export interface ProxyTaskScores {
  token_f1: number | null;
  rouge_l: number | null;
  number_recall: number | null;
  entity_recall: number | null;
}

export interface FinalProxyOutput {
  kind: 'proxy';
  note: string;
  aggregate: GtTotals & { num_scored: number; num_infra_failures: number } & Record<ProxyMetric, number | null> & Record<`${ProxyMetric}_all`, number | null>;
  per_id: Record<string, ProxyTaskScores>;
  missing_predictions: string[];
  infra_failures: string[];
  meta: { gt: string; predictions: string; generated_at: string };
}

const nullableNumber = z.union([z.number(), z.null()]);

const finalProxyFileSchema = z
  .object({
    kind: z.literal('proxy'),
    aggregate: z.object({ num_total: z.number(), num_scored: z.number() }).catchall(nullableNumber),
    per_id: z.record(z.string(), z.record(z.string(), nullableNumber)).default({}),
  })
  .loose();

export type FinalProxyFile = z.output<typeof finalProxyFileSchema>;

export function loadFinalProxy(file: string): FinalProxyFile {
  const parsed = finalProxyFileSchema.safeParse(loadJsonFile(file));
  if (!parsed.success) throw new EvaluationError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}
