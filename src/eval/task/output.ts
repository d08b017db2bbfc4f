// The task-level output files, per model under results/<model>/:
//
// task_eval.json
//   {
//     "grader_version": "task-2",
//     "success_rule": "<the rule in words>",
//     "inputs":   {predictions, gt, tasks, step_results, call_labels: {source, file}, alignment:
//                  {file, computed_with, tau_strong, tau_weak}, manifest, store, judge,
//                  final_scores: {judges, proxy} | null (read when a task states success.final)},
//     "run":      {run_id, model, max_step, condition}        from the run manifest, null if absent
//     "excluded": {count, infra_failures: [{id, code, status}]}   never in any denominator
//     "coverage": {gt_ids, scored, missing_predictions: [ids], extra_prediction_ids: [ids]}
//     "not_evaluated": [{id, reasons: [..]}]   tasks whose success is unknown (success null): a
//                  check's input is missing; in no success denominator
//     "aggregate": TaskMetrics (aggregate.ts) + exception_recovery_rate (recovery on the exception tier)
//     "per_tier": {tier: TaskMetrics}, "per_domain": {domain: TaskMetrics},
//     "per_archetype": {precise: TaskMetrics, fuzzy: TaskMetrics}
//     "taxonomy": {failed_tasks, by_category, by_primary, tasks_with_label, judged}
//     "per_task": [{
//        id, tier, type, domain, archetype ("precise" | "fuzzy" | "none"), missing_prediction,
//        passed,      true when every check passed, false when one failed, null: no checks stated
//        checks: [{kind ("rule" | "answer" | "state" | "final"), evaluator, passed, reason,
//                  actual?, not_evaluated?}]   rule evaluators, the precise answer, the state
//                  checks the run recorded, the final-answer threshold (src/eval/task/outcome-checks.ts)
//        success (true | false | null = not evaluated), success_rule ("checks" | "step_exact"),
//        not_evaluated: ["<check>: not evaluated: <why>"], completion (null: nothing evaluated),
//        precise_answer: {passed, extracted, reason} | null, answer_hit: boolean | null,
//        operation: {decisive, matched, passed, mean_similarity} | null,
//        step: {recall, precision, alignment}, calls: {total, classified, failed},
//        turns: {turns, successfulTurns, excludedTurns, invocations, validInvocations},
//        had_error, recovered, tokens: {input, output, total} | null,
//        taxonomy: {primary, category, source ("rules" | "judge"), labels: [{label, category,
//                   evidence: {rule, detail, gt_call?, pred_call?}}]} | null   (null: succeeded)
//     }]
//   }
// Consumers that need one pass/fail per task (the trials layer) read per_task[].success with
// per_task[].success_rule, or per_task[].passed for the task's own checks only.
//
// task_eval.csv: one row per task (TASK_CSV_HEADER), `\r\n` line ends like results_eval.csv.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../../config/zod-issues.js';
import { EvaluationError } from '../../errors/index.js';
import { loadJsonFile } from '../../tasks/load-json.js';
import { writeFileAtomic } from '../../tasks/write-json.js';
import type { Rate, TaskMetrics, TaxonomyCounts } from './aggregate.js';
import type { TaskCheck } from './outcome-checks.js';
import type { TaskRecord } from './task-record.js';

export const TASK_GRADER_VERSION = 'task-2';

export const TASK_OUTPUT_FILES = { json: 'task_eval.json', csv: 'task_eval.csv' } as const;

export const SUCCESS_RULE =
  'a task with checks (rule evaluators, a precise answer, state checks on the databases its run left, a success.final threshold on a final-answer score) succeeds when all of them pass, and is not evaluated (success null, in no denominator) when one could not be checked and none failed; a task without checks succeeds when its step alignment is exact (recall = 1 and precision = 1)';

export interface TaskEvalDocument {
  grader_version: string;
  success_rule: string;
  inputs: Record<string, unknown>;
  run: { run_id: string | null; model: string | null; max_step: number | null; condition: string | null };
  excluded: { count: number; infra_failures: Array<{ id: string; code: string; status: string }> };
  coverage: { gt_ids: number; scored: number; missing_predictions: string[]; extra_prediction_ids: string[] };
  not_evaluated: Array<{ id: string; reasons: string[] }>;
  aggregate: TaskMetrics & { exception_recovery_rate: Rate };
  per_tier: Record<string, TaskMetrics>;
  per_domain: Record<string, TaskMetrics>;
  per_archetype: Record<string, TaskMetrics>;
  taxonomy: TaxonomyCounts;
  per_task: TaskRecord[];
}

const TASK_CSV_HEADER = [
  'id',
  'tier',
  'type',
  'domain',
  'archetype',
  'passed',
  'checks_passed',
  'checks_total',
  'checks_not_evaluated',
  'state_passed',
  'final_passed',
  'success',
  'success_rule',
  'completion',
  'precise_answer',
  'answer_hit',
  'operation_match',
  'recall',
  'precision',
  'calls',
  'failed_calls',
  'turns',
  'successful_turns',
  'had_error',
  'recovered',
  'total_tokens',
  'taxonomy_primary',
  'taxonomy_category',
  'taxonomy_labels',
] as const;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(Number(value.toFixed(6))) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Whether the task's evaluated checks of one kind all passed (empty: none evaluated). */
function kindPassed(record: TaskRecord, kind: TaskCheck['kind']): boolean | undefined {
  const checks = record.checks.filter((check) => check.kind === kind && !check.not_evaluated);
  return checks.length > 0 ? checks.every((check) => check.passed) : undefined;
}

function toTaskCsv(records: readonly TaskRecord[]): string {
  const rows = records.map((record) =>
    [
      record.id,
      record.tier,
      record.type,
      record.domain,
      record.archetype,
      record.passed,
      record.checks.filter((check) => check.passed).length,
      record.checks.length,
      record.not_evaluated.length,
      kindPassed(record, 'state'),
      kindPassed(record, 'final'),
      record.success,
      record.success_rule,
      record.completion,
      record.precise_answer?.passed,
      record.answer_hit,
      record.operation?.passed,
      record.step.recall,
      record.step.precision,
      record.calls.total,
      record.calls.failed,
      record.turns.turns,
      record.turns.successfulTurns,
      record.had_error,
      record.recovered,
      record.tokens?.total,
      record.taxonomy?.primary,
      record.taxonomy?.category,
      record.taxonomy ? [...new Set(record.taxonomy.labels.map((item) => item.label))].join(';') : '',
    ]
      .map(cell)
      .join(','),
  );
  return `${[TASK_CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

export function writeTaskOutputs(outputDir: string, document: TaskEvalDocument): { json: string; csv: string } {
  const json = path.join(outputDir, TASK_OUTPUT_FILES.json);
  const csv = path.join(outputDir, TASK_OUTPUT_FILES.csv);
  mkdirSync(outputDir, { recursive: true });
  writeFileAtomic(json, `${JSON.stringify(document, null, 2)}\n`);
  writeFileAtomic(csv, toTaskCsv(document.per_task));
  return { json, csv };
}

const rateSchema = z.object({ rate: z.number().nullable(), numerator: z.number(), denominator: z.number() }).loose();
const metricsSchema = z.record(z.string(), z.unknown()).transform((value) => value as unknown as TaskMetrics);

/** What the report reads; fields it does not use are passed through untouched. */
const taskEvalFileSchema = z
  .object({
    grader_version: z.string(),
    run: z.object({ run_id: z.string().nullable(), model: z.string().nullable(), max_step: z.number().nullable(), condition: z.string().nullable() }).loose(),
    excluded: z.object({ count: z.number() }).loose(),
    aggregate: z
      .object({ task_success_rate: rateSchema, exception_recovery_rate: rateSchema })
      .loose()
      .transform((value) => value as unknown as TaskEvalDocument['aggregate']),
    per_tier: z.record(z.string(), metricsSchema),
    per_domain: z.record(z.string(), metricsSchema),
    taxonomy: z.object({ failed_tasks: z.number(), by_category: z.record(z.string(), z.number()), by_primary: z.record(z.string(), z.number()) }).loose(),
    per_task: z.array(z.object({ id: z.string(), success: z.boolean().nullable() }).loose()),
  })
  .loose();

export type TaskEvalFile = z.output<typeof taskEvalFileSchema>;

export function loadTaskEval(file: string): TaskEvalFile {
  const parsed = taskEvalFileSchema.safeParse(loadJsonFile(file));
  if (!parsed.success) throw new EvaluationError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}
