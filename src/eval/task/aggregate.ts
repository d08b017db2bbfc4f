// Task-level metrics over a set of task records (all tasks, one tier, one domain). Every rate
// keeps its numerator and denominator, and is null when nothing was there to count:
//   task_success_rate       succeeded / evaluated tasks (success rule: task-record.ts); tasks
//                           whose success could not be evaluated are counted in not_evaluated
//   completion_rate         mean per-task completion (over tasks with one)
//   avg_calls               predicted calls / tasks
//   invalid_call_rate       calls that failed or returned nothing / classified calls
//   recovery_rate           tasks with a failed call that still succeeded / tasks with a failed call
//                           (on the exception tier, where a call fails by design, this is the
//                           tutorial's exception-recovery rate)
//   answer_hit_rate         replies holding the expected content / tasks that state one
//   rule_pass_rate          tasks whose checks all passed / tasks with evaluated checks;
//                           check_pass_rate per evaluated check
//   state_pass_rate         tasks whose state checks all held / tasks with evaluated state checks;
//                           state_check_pass_rate per evaluated state check
//   final_threshold_pass_rate  tasks whose final-answer score reached their threshold / tasks
//                           with a scored threshold
//   precise_answer_accuracy precise-answer tasks answered exactly / precise-answer tasks
//   operation_accuracy      fuzzy-match tasks whose decisive GT call(s) were matched / fuzzy-match tasks
//   dialogue_turn_success_rate, invocation_success_rate   turns.ts
//   tokens                  mean input / output / total tokens over tasks with recorded usage
import { taxonomyLabels, type TaxonomyCategory, type TaxonomyLabel } from './taxonomy.js';
import type { TaskCheck } from './outcome-checks.js';
import type { TaskRecord } from './task-record.js';
import { sum } from '../../core/number-format.js';

export interface Rate {
  rate: number | null;
  numerator: number;
  denominator: number;
}

export interface TaskMetrics {
  tasks: number;
  /** Tasks whose success could not be evaluated (a check's input missing): in no denominator. */
  not_evaluated: number;
  task_success_rate: Rate;
  completion_rate: number | null;
  avg_calls: number | null;
  invalid_call_rate: Rate;
  recovery_rate: Rate;
  answer_hit_rate: Rate;
  rule_pass_rate: Rate;
  check_pass_rate: Rate;
  state_pass_rate: Rate;
  state_check_pass_rate: Rate;
  final_threshold_pass_rate: Rate;
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

/** Per task, its evaluated checks of one kind (tasks without any are left out). */
function evaluatedOfKind(records: readonly TaskRecord[], kind: TaskCheck['kind']): TaskCheck[][] {
  return records.map((record) => record.checks.filter((check) => check.kind === kind && !check.not_evaluated)).filter((checks) => checks.length > 0);
}

/** Tasks whose checks all passed, and single checks passed, over the evaluated ones. */
function kindRates(records: readonly TaskRecord[], kind: TaskCheck['kind']): { tasks: Rate; checks: Rate } {
  const perTask = evaluatedOfKind(records, kind);
  const all = perTask.flat();
  return {
    tasks: rate(
      count(perTask, (checks) => checks.every((check) => check.passed)),
      perTask.length,
    ),
    checks: rate(
      count(all, (check) => check.passed),
      all.length,
    ),
  };
}

export function aggregateTasks(records: readonly TaskRecord[]): TaskMetrics {
  const tasks = records.length;
  const evaluated = records.filter((record) => record.success !== null);
  const withCompletion = records.flatMap((record) => (record.completion === null ? [] : [record.completion]));
  const withChecks = records.filter((record) => record.passed !== null);
  const withError = evaluated.filter((record) => record.had_error);
  const checks = records.flatMap((record) => record.checks.filter((check) => !check.not_evaluated));
  const state = kindRates(records, 'state');
  const withHit = records.filter((record) => record.answer_hit !== null);
  const precise = records.filter((record) => record.precise_answer !== null);
  const fuzzy = records.filter((record) => record.operation !== null);
  const withTokens = records.flatMap((record) => (record.tokens ? [record.tokens] : []));
  return {
    tasks,
    not_evaluated: tasks - evaluated.length,
    task_success_rate: rate(
      count(evaluated, (record) => record.success === true),
      evaluated.length,
    ),
    completion_rate: withCompletion.length > 0 ? sum(withCompletion, (value) => value) / withCompletion.length : null,
    avg_calls: tasks > 0 ? sum(records, (record) => record.calls.total) / tasks : null,
    invalid_call_rate: rate(
      sum(records, (record) => record.calls.failed),
      sum(records, (record) => record.calls.classified),
    ),
    recovery_rate: rate(
      count(withError, (record) => record.success === true),
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
      count(checks, (check) => check.passed),
      checks.length,
    ),
    state_pass_rate: state.tasks,
    state_check_pass_rate: state.checks,
    final_threshold_pass_rate: kindRates(records, 'final').tasks,
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
