// Task-level metrics over a set of task records (all tasks, one tier, one domain). Every rate
// keeps its numerator and denominator, and is null when nothing was there to count:
//   task_success_rate       succeeded / tasks (success rule: task-record.ts)
//   completion_rate         mean per-task completion
//   avg_calls               predicted calls / tasks
//   invalid_call_rate       calls that failed or returned nothing / classified calls
//   recovery_rate           tasks with a failed call that still succeeded / tasks with a failed call
//                           (on the exception tier, where a call fails by design, this is the
//                           tutorial's exception-recovery rate)
//   answer_hit_rate         replies holding the expected content / tasks that state one
//   rule_pass_rate          tasks whose checks all passed / tasks with checks; check_pass_rate per check
//   precise_answer_accuracy precise-answer tasks answered exactly / precise-answer tasks
//   operation_accuracy      fuzzy-match tasks whose decisive GT call(s) were matched / fuzzy-match tasks
//   dialogue_turn_success_rate, invocation_success_rate   turns.ts
//   tokens                  mean input / output / total tokens over tasks with recorded usage
import { taxonomyLabels, type TaxonomyCategory, type TaxonomyLabel } from './taxonomy.js';
import type { TaskRecord } from './task-record.js';

export interface Rate {
  rate: number | null;
  numerator: number;
  denominator: number;
}

export interface TaskMetrics {
  tasks: number;
  task_success_rate: Rate;
  completion_rate: number | null;
  avg_calls: number | null;
  invalid_call_rate: Rate;
  recovery_rate: Rate;
  answer_hit_rate: Rate;
  rule_pass_rate: Rate;
  check_pass_rate: Rate;
  precise_answer_accuracy: Rate;
  operation_accuracy: Rate;
  dialogue_turn_success_rate: Rate;
  invocation_success_rate: Rate;
  tokens: { tasks: number; mean_input: number; mean_output: number; mean_total: number } | null;
}

export interface TaxonomyCounts {
  failed_tasks: number;
  by_category: Record<TaxonomyCategory, number>;
  by_primary: Record<TaxonomyLabel, number>;
  /** Tasks carrying each label at least once (a task may carry several). */
  tasks_with_label: Record<TaxonomyLabel, number>;
  judged: number;
}

function rate(numerator: number, denominator: number): Rate {
  return { rate: denominator > 0 ? numerator / denominator : null, numerator, denominator };
}

function count<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  return items.reduce((total, item) => total + (predicate(item) ? 1 : 0), 0);
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}

export function aggregateTasks(records: readonly TaskRecord[]): TaskMetrics {
  const tasks = records.length;
  const withChecks = records.filter((record) => record.passed !== null);
  const withError = records.filter((record) => record.had_error);
  const withHit = records.filter((record) => record.answer_hit !== null);
  const precise = records.filter((record) => record.precise_answer !== null);
  const fuzzy = records.filter((record) => record.operation !== null);
  const withTokens = records.flatMap((record) => (record.tokens ? [record.tokens] : []));
  return {
    tasks,
    task_success_rate: rate(
      count(records, (record) => record.success),
      tasks,
    ),
    completion_rate: tasks > 0 ? sum(records, (record) => record.completion) / tasks : null,
    avg_calls: tasks > 0 ? sum(records, (record) => record.calls.total) / tasks : null,
    invalid_call_rate: rate(
      sum(records, (record) => record.calls.failed),
      sum(records, (record) => record.calls.classified),
    ),
    recovery_rate: rate(
      count(withError, (record) => record.success),
      withError.length,
    ),
    answer_hit_rate: rate(
      count(withHit, (record) => record.answer_hit === true),
      withHit.length,
    ),
    rule_pass_rate: rate(
      count(withChecks, (record) => record.passed === true),
      withChecks.length,
    ),
    check_pass_rate: rate(
      sum(records, (record) => count(record.checks, (check) => check.passed)),
      sum(records, (record) => record.checks.length),
    ),
    precise_answer_accuracy: rate(
      count(precise, (record) => record.precise_answer?.passed === true),
      precise.length,
    ),
    operation_accuracy: rate(
      count(fuzzy, (record) => record.operation?.passed === true),
      fuzzy.length,
    ),
    dialogue_turn_success_rate: rate(
      sum(records, (record) => record.turns.successfulTurns),
      sum(records, (record) => record.turns.turns),
    ),
    invocation_success_rate: rate(
      sum(records, (record) => record.turns.validInvocations),
      sum(records, (record) => record.turns.invocations),
    ),
    tokens:
      withTokens.length > 0
        ? {
            tasks: withTokens.length,
            mean_input: sum(withTokens, (tokens) => tokens.input) / withTokens.length,
            mean_output: sum(withTokens, (tokens) => tokens.output) / withTokens.length,
            mean_total: sum(withTokens, (tokens) => tokens.total) / withTokens.length,
          }
        : null,
  };
}

/** Metrics per value of `key` (tier, domain), in first-seen order; records without one are skipped. */
export function aggregateBy(records: readonly TaskRecord[], key: (record: TaskRecord) => string | null): Record<string, TaskMetrics> {
  const groups = new Map<string, TaskRecord[]>();
  for (const record of records) {
    const value = key(record);
    if (value === null) continue;
    groups.set(value, [...(groups.get(value) ?? []), record]);
  }
  return Object.fromEntries([...groups].map(([value, group]) => [value, aggregateTasks(group)]));
}

export function countTaxonomy(records: readonly TaskRecord[]): TaxonomyCounts {
  const zeroLabels = () => Object.fromEntries(taxonomyLabels.map((label) => [label, 0])) as Record<TaxonomyLabel, number>;
  const counts: TaxonomyCounts = {
    failed_tasks: 0,
    by_category: { tool_use: 0, information_synthesis: 0, reasoning: 0, undetermined: 0 },
    by_primary: zeroLabels(),
    tasks_with_label: zeroLabels(),
    judged: 0,
  };
  for (const record of records) {
    const taxonomy = record.taxonomy;
    if (!taxonomy) continue;
    counts.failed_tasks += 1;
    counts.by_category[taxonomy.category] += 1;
    counts.by_primary[taxonomy.primary] += 1;
    if (taxonomy.source === 'judge') counts.judged += 1;
    for (const label of new Set(taxonomy.labels.map((item) => item.label))) counts.tasks_with_label[label] += 1;
  }
  return counts;
}
