// Plain-text and Markdown renderings of the trial statistics: every headline number with its
// interval, the settings that produced the intervals, and the success rule, so a table read on
// its own says what it counts.
import type { Table } from '../report/tables.js';
import type { BootstrapSettings, Interval } from './bootstrap.js';
import type { CellPerformance } from './cell-performance.js';
import type { CellSummary } from './cell-summary.js';
import { GRADER_VERSIONS } from '../results/grader-versions.js';
import { SUCCESS_RULE } from './task-success.js';

function fixed(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : ' n/a ';
}

export function formatInterval(interval: Interval): string {
  return `${fixed(interval.estimate)} [${fixed(interval.low)}, ${fixed(interval.high)}]`;
}

export function settingsLine(settings: BootstrapSettings): string {
  return `${Math.round(settings.level * 100)}% CI: percentile bootstrap over tasks (and over trials inside a task when k > 1), ${settings.resamples} resamples, seed ${settings.seed}; grader ${GRADER_VERSIONS.step}, ${GRADER_VERSIONS.success}, ${GRADER_VERSIONS.stats}`;
}

function rows(summaries: readonly CellSummary[]): string[][] {
  return summaries.map((summary) => {
    const recall = summary.metrics.recall;
    return [
      summary.label,
      String(summary.tasks),
      String(summary.trials),
      formatInterval(summary.passAt1),
      formatInterval(summary.passAtK),
      formatInterval(summary.passHatK),
      fixed(summary.avgAtK),
      formatInterval(recall.interval),
      formatInterval(summary.metrics.precision.interval),
      `${fixed(recall.acrossTrials.min)}..${fixed(recall.acrossTrials.max)} sd ${fixed(recall.acrossTrials.std)}`,
    ];
  });
}

/** `step 7 tasks; rules 2 tasks (t1, t2)`: which rule decided how many tasks (ids named for the task-rule ones). */
function rulesCount(summary: CellSummary): string {
  const byRule = new Map<string, string[]>();
  for (const [taskId, rule] of Object.entries(summary.successRules)) byRule.set(rule, [...(byRule.get(rule) ?? []), taskId]);
  return [...byRule]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, ids]) => `${rule} ${ids.length} task(s)${rule === 'step' ? '' : ` (${ids.join(', ')})`}`)
    .join('; ');
}

function ruleNotes(summaries: readonly CellSummary[]): string[] {
  return summaries.flatMap((summary) => [
    `${summary.label}: success_rule ${rulesCount(summary) || 'none (no scored task)'}`,
    ...summary.rulesUnreadable.map((problem) => `${summary.label}: WARNING task checks not read (${problem}); those tasks were judged by the step rule`),
  ]);
}

// Every column names what it counts: tasks (with a valid trial) vs trials per task, and that each
// number pools all k trials of a task (recall, precision: mean over tasks of the trial means).
const header = [
  'cell',
  'tasks',
  'k (trials/task)',
  'pass@1 (all trials)',
  'pass@k',
  'pass^k',
  'avg@k',
  'recall (task mean, all trials)',
  'precision (task mean, all trials)',
  'recall per trial (min..max)',
];

/** What the table's numbers pool, said under it (text and report). */
const TRIALS_POOLING_NOTE =
  'every number pools all k trials of each task (episodes = tasks x trials); success per task and trial by the success rule; the per-prediction-file tables give each trial alone';

export function formatTrialsTable(summaries: readonly CellSummary[], settings: BootstrapSettings): string {
  const table = [header, ...rows(summaries)];
  const widths = header.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  const lines = table.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const notes = [
    ...ruleNotes(summaries),
    ...summaries
      .filter((summary) => summary.unevaluated.length > 0)
      .map(
        (summary) =>
          `${summary.label}: not evaluated (run m3 eval step --pred <trial file> --output-dir <results>/<trial label>): ${summary.unevaluated.join(', ')}`,
      ),
    ...summaries.flatMap((summary) =>
      summary.notEvaluated.map((entry) => `${summary.label}: success NOT EVALUATED, trial left out of the pass rates: ${entry}`),
    ),
    ...summaries
      .filter((summary) => summary.overwrittenBy)
      .map((summary) => `${summary.label}: WARNING its files were rewritten by batch ${summary.overwrittenBy}; the numbers above are that batch's`),
  ];
  return [
    ...lines,
    '',
    TRIALS_POOLING_NOTE,
    `success rule: ${SUCCESS_RULE}`,
    settingsLine(settings),
    'infrastructure failures are not trials: they are in no denominator',
    ...notes,
  ].join('\n');
}

/** The trials table for m3 report (Markdown and HTML render it like every other table). */
export function trialsTable(summaries: readonly CellSummary[], settings: BootstrapSettings, batchId: string): Table {
  return {
    id: 'trials',
    title: `Pass rates with ${Math.round(settings.level * 100)}% confidence intervals (batch ${batchId})`,
    header,
    rows: rows(summaries),
    note: `${TRIALS_POOLING_NOTE}. Success rule: ${SUCCESS_RULE}. ${ruleNotes(summaries).join('. ')}. ${settingsLine(settings)}. Infrastructure failures are not trials and are in no denominator.`,
  };
}

const money = (value: number | null) => (value === null ? 'n/a' : `$${value.toFixed(4)}`);

const performanceHeader = [
  'cell',
  'trial',
  'attempts',
  'median s',
  'median rounds',
  'median calls',
  'mean in tok',
  'mean out tok',
  'image tok',
  'cost',
  'cost/passed',
];

function performanceRows(cells: readonly CellPerformance[]): string[][] {
  return cells.flatMap((cell) =>
    [cell.overall, ...cell.perTrial].map((row) => [
      cell.label,
      row.trial === null ? 'all' : String(row.trial),
      String(row.attempts),
      Number.isFinite(row.medianDurationMs) ? (row.medianDurationMs / 1000).toFixed(2) : 'n/a',
      fixed(row.medianRounds).trim(),
      fixed(row.medianToolCalls).trim(),
      Number.isFinite(row.meanInputTokens) ? Math.round(row.meanInputTokens).toString() : 'n/a',
      Number.isFinite(row.meanOutputTokens) ? Math.round(row.meanOutputTokens).toString() : 'n/a',
      row.meanImageTokens === null ? 'not recorded' : Math.round(row.meanImageTokens).toString(),
      money(row.costUsd),
      money(row.costPerPassedUsd),
    ]),
  );
}

/** The price each cell's costs were computed with, and when that price was last checked. */
function priceNotes(cells: readonly CellPerformance[]): string[] {
  return cells.map((cell) => {
    if (cell.price === undefined) return `${cell.label}: price not recorded by this run (it predates price records); cost n/a unless the store holds it`;
    return cell.price === null ? `${cell.label}: no price known for the model (cost n/a; M3_PRICE_TABLE adds one)` : `${cell.label}: price ${cell.price}`;
  });
}

const performanceNote =
  'performance per valid trial (infrastructure failures left out), from the run store; cost/passed = cost / passed (task, trial) pairs under each task success rule; image tok: estimated image tokens per model request (vendor formulas, src/media/vision-tokens.ts; not recorded: a run before the estimate, or a vendor without a formula)';

/** Performance per cell and per trial, a table of its own: never mixed into the correctness numbers. */
export function formatPerformanceTable(cells: readonly CellPerformance[]): string {
  const table = [performanceHeader, ...performanceRows(cells)];
  const widths = performanceHeader.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  return [
    ...table.map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    ),
    performanceNote,
    ...priceNotes(cells),
  ].join('\n');
}

/** The performance table for m3 report, beside (never inside) the trials table. */
export function performanceTable(cells: readonly CellPerformance[], batchId: string): Table {
  return {
    id: 'trials-performance',
    title: `Performance per cell and trial (batch ${batchId})`,
    header: performanceHeader,
    rows: performanceRows(cells),
    note: `${performanceNote}. ${priceNotes(cells).join('. ')}.`,
  };
}
