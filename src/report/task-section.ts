// The task-level part of `m3 report`: reads every results/<dir>/task_eval.json, builds the
// tables (task_metrics.csv and friends in save/ too) and the figures, for build-report.ts to
// render as one section. Nothing here when no task-level evaluation was run.
import type { FigureSpec } from './chart-configs.js';
import { toCsv } from './leaderboard.js';
import type { Table } from './tables.js';
import { taxonomyFigure, sweepFigure } from './task-figures.js';
import { loadTaskResults } from './task-results.js';
import { conditionTable, efficiencyTable, sweepTable, taskMetricsTable, taskTierTable, taxonomyTable } from './task-tables.js';

export interface TaskSection {
  tables: Table[];
  figures: FigureSpec[];
  /** CSV files for save/: name -> text (one per table). */
  csv: Array<{ name: string; text: string }>;
  notes: string[];
}

const csvNames: Record<string, string> = {
  'task-metrics': 'task_metrics.csv',
  'task-tiers': 'task_tiers.csv',
  'error-taxonomy': 'error_taxonomy.csv',
  'resource-efficiency': 'resource_efficiency.csv',
  'max-step-sweep': 'accuracy_vs_max_step.csv',
  conditions: 'condition_effects.csv',
};

export function buildTaskSection(resultsDir: string, models?: readonly string[]): TaskSection {
  const results = loadTaskResults(resultsDir, models);
  const tables = [
    taskMetricsTable(results),
    taskTierTable(results),
    taxonomyTable(results),
    efficiencyTable(results),
    sweepTable(results),
    conditionTable(results),
  ].filter((table): table is Table => table !== undefined);
  const figures = [taxonomyFigure(results), sweepFigure(results)].filter((figure): figure is FigureSpec => figure !== undefined);
  const csv = tables.map((table) => ({ name: csvNames[table.id] ?? `${table.id}.csv`, text: toCsv(table.header, table.rows) }));
  const rules = [
    ...new Set(results.map((result) => (result.data as { success_rule?: string }).success_rule).filter((rule): rule is string => typeof rule === 'string')),
  ];
  return { tables, figures, csv, notes: rules.map((rule) => `Task success rule: ${rule}.`) };
}
