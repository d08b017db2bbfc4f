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
}

export function formatCell(value: Cell): string {
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return '—';
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

export function leaderboardTable(rows: readonly LeaderboardRow[]): Table {
  const best = [...rows].reverse();
  return {
    id: 'leaderboard',
    title: 'Step-level leaderboard',
    header: ['model', 'Average score', ...leaderboardStepMetrics, 'completion_rate', 'information_grounding_rate'],
    rows: best.map((row) => [row.display, row.average, ...leaderboardStepMetrics.map((name) => row.metrics[name]), row.completion_rate, row.information_grounding_rate]),
    note: 'Average score = mean of the six step metrics and information_grounding_rate, skipping missing values (completion_rate is not included, as in the reference).',
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
  const keys = ['num_total', 'num_scored', 'completion_rate', 'completion_rate_all', 'information_grounding_rate', 'information_grounding_rate_all', 'num_missing_predictions', 'num_judge_failures'];
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
    rows: proxied.map(({ model, aggregate }) => [displayName(model), aggregate.num_total, aggregate.num_scored, ...proxyMetricNames.map((name) => aggregate[name] ?? Number.NaN)]),
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
