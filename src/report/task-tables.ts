// The report's task-level tables (src/eval/task): per model, per tier, the error taxonomy,
// resource efficiency per domain (max-min normalised across the models of the report), the
// max-rounds sweep and the condition comparison. Rates are fractions; "—" means nothing to count.
import type { Rate, TaskMetrics } from '../eval/task/aggregate.js';
import { normaliseEfficiency, type DomainTokens } from '../eval/task/resources.js';
import { taxonomyLabels } from '../eval/task/taxonomy.js';
import type { Cell, Table } from './tables.js';
import { conditionDeltas, maxStepSweeps, type TaskModelResult } from './task-results.js';

const value = (rate: Rate | undefined): number => (rate && rate.rate !== null ? rate.rate : Number.NaN);
const numberOr = (input: number | null | undefined): number => (typeof input === 'number' ? input : Number.NaN);

const metricColumns: Array<[string, (metrics: TaskMetrics) => Cell]> = [
  ['tasks', (metrics) => metrics.tasks],
  ['task success', (metrics) => value(metrics.task_success_rate)],
  ['completion', (metrics) => numberOr(metrics.completion_rate)],
  ['rule pass', (metrics) => value(metrics.rule_pass_rate)],
  ['state checks hold', (metrics) => value(metrics.state_pass_rate)],
  ['final-score threshold', (metrics) => value(metrics.final_threshold_pass_rate)],
  ['precise-answer acc.', (metrics) => value(metrics.precise_answer_accuracy)],
  ['operation acc. (fuzzy match)', (metrics) => value(metrics.operation_accuracy)],
  ['turn success (DTSR)', (metrics) => value(metrics.dialogue_turn_success_rate)],
  ['avg calls', (metrics) => numberOr(metrics.avg_calls)],
  ['invalid-call rate', (metrics) => value(metrics.invalid_call_rate)],
  ['recovery', (metrics) => value(metrics.recovery_rate)],
  ['answer hit', (metrics) => value(metrics.answer_hit_rate)],
];

export function taskMetricsTable(results: readonly TaskModelResult[]): Table | undefined {
  if (results.length === 0) return undefined;
  return {
    id: 'task-metrics',
    title: 'Task-level metrics',
    header: ['model', ...metricColumns.map(([name]) => name), 'exception recovery', 'excluded (infra)'],
    rows: results.map((result) => [
      result.display,
      ...metricColumns.map(([, cell]) => cell(result.data.aggregate)),
      value(result.data.aggregate.exception_recovery_rate),
      result.data.excluded.count,
    ]),
    note:
      'Success: every check a task states passes (rule evaluators, precise answer, state checks on the databases its run left, a final-answer score threshold), else an exact step alignment (recall = precision = 1); a task whose check could not be evaluated (e.g. no judge score) is in no success denominator. ' +
      'Recovery: tasks with a failed call that still succeeded; on the exception tier (a call fails by design) this is the exception-recovery rate. ' +
      'Tasks that ended as infrastructure failures are in no denominator.',
  };
}

export function taskTierTable(results: readonly TaskModelResult[]): Table | undefined {
  const rows = results.flatMap((result) =>
    Object.entries(result.data.per_tier).map(([tier, metrics]) => [result.display, tier, ...metricColumns.map(([, cell]) => cell(metrics))]),
  );
  if (rows.length === 0) return undefined;
  return { id: 'task-tiers', title: 'Task-level metrics per tier', header: ['model', 'tier', ...metricColumns.map(([name]) => name)], rows };
}

const categories = ['tool_use', 'information_synthesis', 'reasoning', 'undetermined'] as const;

export function taxonomyTable(results: readonly TaskModelResult[]): Table | undefined {
  if (results.length === 0) return undefined;
  const primary = taxonomyLabels.filter((label) => !['information_synthesis', 'reasoning_error', 'undetermined'].includes(label));
  return {
    id: 'error-taxonomy',
    title: 'Error taxonomy of failed tasks',
    header: ['model', 'failed tasks', ...categories, ...primary.map((label) => `primary: ${label}`), 'judged'],
    rows: results.map(({ display, data }) => [
      display,
      data.taxonomy.failed_tasks,
      ...categories.map((category) => data.taxonomy.by_category[category] ?? 0),
      ...primary.map((label) => data.taxonomy.by_primary[label] ?? 0),
      numberOr((data.taxonomy as { judged?: number }).judged),
    ]),
    note: 'One primary label per failed task, from rules on the step alignment and the call labels (an LLM judge only where they cannot decide); every label and its evidence are in results/<model>/task_eval.json.',
  };
}

function domainTokens(result: TaskModelResult): Map<string, DomainTokens> {
  return new Map(
    Object.entries(result.data.per_domain).flatMap(([domain, metrics]) =>
      metrics.tokens ? [[domain, { tasks: metrics.tokens.tasks, meanTotalTokens: metrics.tokens.mean_total }] as const] : [],
    ),
  );
}

export function efficiencyTable(results: readonly TaskModelResult[]): Table | undefined {
  const perModel = new Map(results.map((result) => [result.dir, domainTokens(result)]));
  if ([...perModel.values()].every((domains) => domains.size === 0)) return undefined;
  const efficiency = normaliseEfficiency(perModel);
  const rows = results.flatMap((result) =>
    [...(perModel.get(result.dir) ?? [])].map(([domain, tokens]) => [
      result.display,
      domain,
      tokens.tasks,
      tokens.meanTotalTokens,
      numberOr(efficiency.get(result.dir)?.get(domain)),
    ]),
  );
  return {
    id: 'resource-efficiency',
    title: 'Resource efficiency per domain',
    header: ['model', 'domain', 'tasks with usage', 'mean tokens per task', 'efficiency (max-min normalised)'],
    rows,
    note: 'Tokens (input + output) from the run store. Efficiency = (max - tokens) / (max - min) across the models of this report, per domain: 1 = leanest. Replay agents use no tokens.',
  };
}

export function sweepTable(results: readonly TaskModelResult[]): Table | undefined {
  const sweeps = maxStepSweeps(results);
  if (sweeps.size === 0) return undefined;
  return {
    id: 'max-step-sweep',
    title: 'Task success vs max rounds K',
    header: ['agent', 'K (max rounds)', 'task success', 'tasks', 'results folder'],
    rows: [...sweeps].flatMap(([agent, points]) => points.map((point) => [agent, point.maxStep, numberOr(point.success), point.tasks, point.dir])),
  };
}

export function conditionTable(results: readonly TaskModelResult[]): Table | undefined {
  const deltas = conditionDeltas(results);
  if (deltas.length === 0) return undefined;
  return {
    id: 'conditions',
    title: 'Conditions against the same agent without one',
    header: ['agent', 'condition', 'K', 'tasks in both', 'success (condition)', 'success (baseline)', 'difference'],
    rows: deltas.map((delta) => [
      delta.agent,
      delta.condition,
      numberOr(delta.maxStep),
      delta.commonTasks,
      numberOr(delta.success),
      numberOr(delta.baseline),
      numberOr(delta.delta),
    ]),
    note: 'Paired on the tasks both runs scored. One run per cell: see the trials layer for intervals before reading a difference as real.',
  };
}
