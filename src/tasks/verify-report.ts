// Text renderings for `m3 tasks verify` (a table plus every problem, each naming its task) and
// `m3 tasks list` (counts per tier and type). Pure functions: the CLI decides where they go.
import type { LoadedSuite } from './verify-static.js';
import type { VerifyReport } from './verify.js';
import { clip } from '../core/number-format.js';

function table(header: string[], rows: string[][], rightAligned: ReadonlySet<number> = new Set()): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const render = (row: string[]) =>
    row
      .map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [render(header), ...rows.map(render)];
}

export function formatVerifyReport(report: VerifyReport): string {
  const rows = report.tasks.map((task) => [
    task.id,
    task.tier ?? '-',
    String(task.calls),
    `${task.factsHeld}/${task.facts}`,
    task.status === 'passed' ? 'ok' : 'FAILED',
    task.problems[0] ? clip(task.problems[0], 100, { markerInLimit: true }) : '',
  ]);
  const lines = table(['task', 'tier', 'calls', 'facts', 'status', 'first problem'], rows, new Set([2, 3]));
  const failed = report.tasks.filter((task) => task.status === 'failed');
  for (const task of failed) {
    lines.push('', `${task.id} (${task.tier ?? 'no tier'}, ${task.type ?? 'no type'}) FAILED:`);
    for (const problem of task.problems) lines.push(`  - ${task.id}: ${problem}`);
  }
  if (report.suiteProblems.length > 0) {
    lines.push('', 'suite problems:');
    for (const problem of report.suiteProblems) lines.push(`  - ${problem}`);
  }
  const passed = report.tasks.length - failed.length;
  const facts = report.tasks.reduce((sum, task) => sum + task.facts, 0);
  const held = report.tasks.reduce((sum, task) => sum + task.factsHeld, 0);
  lines.push(
    '',
    `${passed}/${report.tasks.length} task(s) passed, ${held}/${facts} fact(s) held, ${(report.durationMs / 1000).toFixed(1)} s` +
      (report.passed ? '' : ` — verification FAILED (${report.gtFile}, ${report.tasksFile})`),
  );
  return `${lines.join('\n')}\n`;
}

export interface SuiteSummary {
  tasks: number;
  calls: number;
  facts: number;
  byTier: Record<string, number>;
  byType: Record<string, number>;
}

export function summariseSuite(suite: LoadedSuite): SuiteSummary {
  const byTier: Record<string, number> = {};
  const byType: Record<string, number> = {};
  for (const task of suite.gt) {
    const tier = task.tier ?? '(none)';
    const type = task.type ?? '(none)';
    byTier[tier] = (byTier[tier] ?? 0) + 1;
    byType[type] = (byType[type] ?? 0) + 1;
  }
  return {
    tasks: suite.gt.length,
    calls: suite.gt.reduce((sum, task) => sum + task.steps.reduce((steps, step) => steps + step.calls.length, 0), 0),
    facts: suite.gt.reduce((sum, task) => sum + (task.facts?.length ?? 0), 0),
    byTier,
    byType,
  };
}

export function formatSuiteSummary(summary: SuiteSummary): string {
  const sorted = (counts: Record<string, number>) => Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const lines = [
    `${summary.tasks} task(s), ${summary.calls} call(s), ${summary.facts} fact(s)`,
    '',
    ...table(
      ['tier', 'tasks'],
      sorted(summary.byTier).map(([tier, count]) => [tier, String(count)]),
      new Set([1]),
    ),
    '',
    ...table(
      ['type', 'tasks'],
      sorted(summary.byType).map(([type, count]) => [type, String(count)]),
      new Set([1]),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
