// The report's tables as data (title, header, rows), rendered to Markdown here and to HTML in
// html.ts, so both always show the same numbers.
import type { ToolCatalog } from '../eval/call/catalog.js';
import { toolsPerServer } from '../eval/call/catalog.js';
import { proxyMetricNames } from '../eval/final/output.js';
import { displayName, leaderboardStepMetrics, type LeaderboardRow } from './leaderboard.js';
import type { ModelResults } from './load-results.js';

export type Cell = string | number;

export interface Table {
  id: string;
  title: string;
  header: string[];
  rows: Cell[][];
  note?: string;
  /** In HTML, this column's cells link to `prefix` + the cell text (URI-encoded). */
  link?: { column: number; prefix: string };
}

export function formatCell(value: Cell): string {
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return '—';
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

/**
 * The reference aggregate keys, named with how they pool (results_eval.json keeps the bare keys):
 * recall and precision over all calls of the run, the rest GT-call-weighted over tasks.
 */
function pooledName(key: (typeof leaderboardStepMetrics)[number]): string {
  return key === 'recall' || key === 'precision' ? `${key} (calls)` : `${key} (GT-call weighted)`;
}

export function leaderboardTable(rows: readonly LeaderboardRow[]): Table {
  const best = [...rows].reverse();
  return {
    id: 'leaderboard',
    title: 'Step-level leaderboard',
    header: [
      'model',
      'Average score',
      ...leaderboardStepMetrics.map(pooledName),
      'order_consistency_fixed (corrected)',
      'recall_success (corrected)',
      'coverage (scored / GT ids)',
      'completion_rate',
      'information_grounding_rate',
      'infra failures (not scored)',
      'encoder',
    ],
    rows: best.map((row) => [
      row.display,
      row.average,
      ...leaderboardStepMetrics.map((name) => row.metrics[name]),
      row.corrected.order_consistency_fixed,
      row.corrected.recall_success,
      row.corrected.coverage,
      row.completion_rate,
      row.information_grounding_rate,
      row.infraFailures,
      row.paperEncoder ? `${row.encoder} (paper's)` : `${row.encoder} (NOT the paper's)`,
    ]),
    note:
      'Average score = mean of the six step metrics and information_grounding_rate, skipping missing values (completion_rate is not included, as in the reference). ' +
      'Columns marked (corrected) are m3bench corrections shown beside the reference keys, never instead of them: order_consistency_fixed scores a task without cross-step GT call pairs by its recall, recall_success does not count a match whose predicted call errored. ' +
      'Coverage is the share of GT ids with a prediction; infrastructure failures are left out of every score and counted apart. ' +
      'recall (calls) and precision (calls) pool every GT / predicted call of the run; the (GT-call weighted) metrics are task means weighted by GT calls; the trials table gives the task means. Each row is one prediction file (one trial).',
  };
}

/** Why the reference order consistency is below 1 even for the oracle. */
export const orderConsistencyExplanation =
  'order_consistency_cov (the reference key) multiplies the order score by the share of cross-step GT call pairs matched; a task whose GT has a single step has no such pair and scores 0, however perfect the trajectory. ' +
  'So the oracle (replay:gt, the ground truth itself) gets 0.856 on the local suite and 0.935 on the published GT. order_consistency_fixed scores those tasks by their recall and is 1.0 for the oracle.';

export function cvTable(models: readonly ModelResults[]): Table | undefined {
  const evaluated = models.filter((results) => results.cv);
  if (evaluated.length === 0) return undefined;
  const keys = [
    'perception_recall_avg',
    'grounding_arg_sim_avg',
    'visual_reasoning_ability',
    'num_perception_tasks',
    'num_grounding_tasks',
    'num_vision_tasks',
  ];
  return {
    id: 'cv',
    title: "CV metrics (the reference's 2026 evaluate_cv_issues.py)",
    header: ['model', ...keys, 'mode', 'encoder'],
    rows: evaluated.map((results) => [
      displayName(results.model),
      ...keys.map((key) => results.cv?.aggregate[key] ?? Number.NaN),
      results.cv?.mode ?? 'unknown',
      `${results.cv?.encoder?.id ?? 'unknown'}${results.cv?.encoder?.paperEncoder ? " (paper's)" : " (NOT the paper's)"}`,
    ]),
    note: 'Perception recall and grounding similarity average over the tasks that have such GT calls; visual reasoning ability over tasks with vision and planning calls (— when none). The reference computes them with BAAI/bge-small-en-v1.5.',
  };
}

export function roundsTable(rows: readonly LeaderboardRow[]): Table {
  return {
    id: 'rounds',
    title: 'Rounds and tool calls per task',
    header: ['model', 'avg_Rounds', 'avg_tool_calls'],
    rows: [...rows].reverse().map((row) => [row.display, row.avg_Rounds, row.avg_tool_calls]),
  };
}

export function callTable(models: readonly ModelResults[]): Table | undefined {
  const withCalls = models.flatMap((results) => (results.calls ? [{ model: results.model, calls: results.calls }] : []));
  if (withCalls.length === 0) return undefined;
  return {
    id: 'calls',
    title: 'Call-level categories',
    header: ['model', 'calls', 'success', 'resource_not_found', 'invalid_arguments', 'unknown_tool', 'unclassified', 'illegal_calling (tasks)', 'tasks'],
    rows: withCalls.map(({ model, calls }) => {
      const classified = calls.success + calls.resource_not_found + calls.invalid_arguments + calls.unknown_tool;
      const unclassified = calls.unclassified ?? 0;
      return [
        displayName(model),
        calls.totals?.calls ?? classified + unclassified,
        calls.success,
        calls.resource_not_found,
        calls.invalid_arguments,
        calls.unknown_tool,
        unclassified,
        calls.illegal_calling,
        calls.totals?.tasks ?? Number.NaN,
      ];
    }),
    note: 'Categories count calls; illegal calling counts tasks (a task counts once if any round produced no parseable tool call).',
  };
}

export function finalJudgeTable(models: readonly ModelResults[]): Table | undefined {
  const judged = models.filter((results) => results.taskCompletion);
  if (judged.length === 0) return undefined;
  const keys = [
    'num_total',
    'num_scored',
    'completion_rate',
    'completion_rate_all',
    'information_grounding_rate',
    'information_grounding_rate_all',
    'num_missing_predictions',
    'num_judge_failures',
  ];
  return {
    id: 'final-judges',
    title: 'Final answer: judge ensemble',
    header: ['model', ...keys],
    rows: judged.map((results) => [displayName(results.model), ...keys.map((key) => results.taskCompletion?.aggregate[key] ?? Number.NaN)]),
    note: '`_all` rates average over every GT id with 0 for missing predictions and judge failures; the plain rates average over scored tasks only (reference behaviour).',
  };
}

export function finalProxyTable(models: readonly ModelResults[]): Table | undefined {
  const proxied = models.flatMap((results) => (results.proxy ? [{ model: results.model, aggregate: results.proxy.aggregate }] : []));
  if (proxied.length === 0) return undefined;
  return {
    id: 'final-proxies',
    title: 'Final answer: deterministic proxies (not judge scores)',
    header: ['model', 'num_total', 'num_scored', ...proxyMetricNames],
    rows: proxied.map(({ model, aggregate }) => [
      displayName(model),
      aggregate.num_total,
      aggregate.num_scored,
      ...proxyMetricNames.map((name) => aggregate[name] ?? Number.NaN),
    ]),
    note: 'Token F1, ROUGE-L, number recall and entity recall of the final reply against the GT final_reply. Proxies only: never compare them with judge scores.',
  };
}

export function toolsTable(catalog: ToolCatalog): Table {
  return {
    id: 'tools',
    title: 'Tools per MCP server',
    header: ['server', 'tools'],
    rows: toolsPerServer(catalog).map((item) => [item.server, item.count]),
    note: `From ${catalog.source}.`,
  };
}

function escapeMarkdown(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function toMarkdown(table: Table): string {
  const lines = [
    `## ${table.title}`,
    '',
    `| ${table.header.map(escapeMarkdown).join(' | ')} |`,
    `| ${table.header.map((_, index) => (index === 0 ? '---' : '---:')).join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.map((cell) => escapeMarkdown(formatCell(cell))).join(' | ')} |`),
  ];
  if (table.note) lines.push('', table.note);
  return `${lines.join('\n')}\n`;
}
