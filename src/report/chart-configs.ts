// Pure chart construction: every figure of the report as a chart.js configuration (data,
// labels, colours, options) and a fixed canvas size. Nothing here touches a canvas, so tests
// check the numbers a chart will show rather than its pixels. The two custom plugins named
// in the options (`valueLabels`, `canvasBackground`) are registered by render-chart.ts.
import type { ChartConfiguration, ChartType } from 'chart.js';
import type { ToolCatalog } from '../eval/call/catalog.js';
import { toolsPerServer } from '../eval/call/catalog.js';
import { proxyMetricNames } from '../eval/final/output.js';
import { allStepMetrics, displayName, leaderboardStepMetrics, type LeaderboardRow } from './leaderboard.js';
import type { ModelResults } from './load-results.js';
import { formatPercent } from '../core/number-format.js';

export interface ValueLabelOptions {
  decimals: number;
  /** Values below this are not labelled (the reference hides labels under 0.05). */
  minValue?: number;
  suffix?: string;
}

declare module 'chart.js' {
  interface PluginOptionsByType<TType extends ChartType> {
    valueLabels?: ValueLabelOptions | false;
    canvasBackground?: { color: string } | false;
  }
}

type FigureConfig = ChartConfiguration<'bar'> | ChartConfiguration<'doughnut'> | ChartConfiguration<'line'>;

export interface FigureSpec {
  /** File stem under save/: `<name>.png` and `<name>.svg`. */
  name: string;
  title: string;
  width: number;
  height: number;
  config: FigureConfig;
}

export const leaderboardColors = { top: '#7b91a2', other: '#bce2ec' } as const;

export const seriesPalette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** Fixed order and colours, so donuts of different models read the same way. */
const callCategoryStyle = [
  { key: 'success', label: 'Success', color: '#59a14f' },
  { key: 'resource_not_found', label: 'Resource not found', color: '#edc948' },
  { key: 'invalid_arguments', label: 'Invalid arguments', color: '#f28e2b' },
  { key: 'unknown_tool', label: 'Unknown tool', color: '#e15759' },
  { key: 'unclassified', label: 'Unclassified', color: '#bab0ac' },
] as const;

export const background = { color: '#ffffff' };
const toChartValue = (value: number | null | undefined): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Axis end that never clips a bar (bug 43: the reference fixed it at 0.55). */
export function scoreAxisMax(values: ReadonlyArray<number | null>): number {
  const finite = values.filter((value): value is number => value !== null && Number.isFinite(value));
  const highest = finite.length === 0 ? 0 : Math.max(...finite);
  return Math.min(1, Math.max(0.1, Math.ceil(highest * 1.15 * 20) / 20));
}

/** What "Average score" averages for these rows (two lines): information grounding only when a judge scored it. */
function averageScoreDefinition(rows: readonly LeaderboardRow[]): string[] {
  const grounded = rows.some((row) => Number.isFinite(row.information_grounding_rate));
  return [
    `Average score = mean of ${leaderboardStepMetrics.join(', ')}${grounded ? ',' : ''}`,
    grounded
      ? 'and information_grounding_rate (judge ensemble), skipping missing values'
      : 'skipping missing values; no judge scores here, so information grounding is not part of it',
  ];
}

export function leaderboardFigure(rows: readonly LeaderboardRow[]): FigureSpec {
  const ranked = rows.filter((row) => Number.isFinite(row.average)).sort((a, b) => b.average - a.average);
  const data = ranked.map((row) => row.average);
  const grounded = ranked.some((row) => Number.isFinite(row.information_grounding_rate));
  return {
    name: 'metrics_mllm_step_eval',
    title: 'Step-level leaderboard (Average score)',
    width: 1000,
    height: Math.max(280, 110 + 42 * ranked.length),
    config: {
      type: 'bar',
      data: {
        labels: ranked.map((row) => row.display),
        datasets: [{ label: 'Average score', data, backgroundColor: ranked.map((_, index) => (index < 3 ? leaderboardColors.top : leaderboardColors.other)) }],
      },
      options: {
        indexAxis: 'y',
        responsive: false,
        animation: false,
        scales: {
          x: { min: 0, max: scoreAxisMax(data), title: { display: true, text: 'Average score' }, border: { dash: [4, 4] } },
          y: { grid: { display: false } },
        },
        plugins: {
          title: { display: true, text: `Step-level leaderboard: mean of the six step metrics${grounded ? ' and information grounding' : ''}` },
          subtitle: { display: true, text: averageScoreDefinition(ranked) },
          legend: { display: false },
          valueLabels: { decimals: 3, minValue: 0.05 },
          canvasBackground: background,
        },
      },
    },
  };
}

function groupedBars(name: string, title: string, labels: string[], series: Array<{ label: string; data: Array<number | null> }>, yTitle: string): FigureSpec {
  return {
    name,
    title,
    width: Math.max(900, 160 + labels.length * 40 * Math.max(1, series.length)),
    height: 560,
    config: {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((item, index) => ({ label: item.label, data: item.data, backgroundColor: seriesPalette[index % seriesPalette.length] })),
      },
      options: {
        responsive: false,
        animation: false,
        scales: { y: { min: 0, max: 1, title: { display: true, text: yTitle } } },
        plugins: { title: { display: true, text: title }, legend: { position: 'bottom' }, canvasBackground: background },
      },
    },
  };
}

export function stepMetricsFigure(rows: readonly LeaderboardRow[]): FigureSpec {
  const ordered = [...rows].reverse();
  return groupedBars(
    'step_metrics_grouped',
    'Step-level metrics per model',
    ordered.map((row) => row.display),
    allStepMetrics.map((metric) => ({ label: metric, data: ordered.map((row) => toChartValue(row.metrics[metric])) })),
    'score (0-1)',
  );
}

/** The CV metrics per model (the reference's perception / grounding / visual reasoning). */
export function cvFigure(models: readonly ModelResults[]): FigureSpec | undefined {
  const evaluated = models.filter((results) => results.cv);
  if (evaluated.length === 0) return undefined;
  const series = [
    { key: 'perception_recall_avg', label: 'Perception recall' },
    { key: 'grounding_arg_sim_avg', label: 'Grounding similarity' },
    { key: 'visual_reasoning_ability', label: 'Visual reasoning ability' },
  ];
  return groupedBars(
    'cv_metrics',
    'CV metrics per model',
    evaluated.map((results) => displayName(results.model)),
    series.map((item) => ({ label: item.label, data: evaluated.map((results) => toChartValue(results.cv?.aggregate[item.key])) })),
    'score (0-1)',
  );
}

export function finalJudgeFigure(models: readonly ModelResults[]): FigureSpec | undefined {
  const judged = models.filter((results) => results.taskCompletion);
  if (judged.length === 0) return undefined;
  const value = (results: ModelResults, key: string) => toChartValue(results.taskCompletion?.aggregate[key]);
  const series = [
    { key: 'completion_rate', label: 'Task completion (scored tasks)' },
    { key: 'completion_rate_all', label: 'Task completion (all GT ids, missing = 0)' },
    { key: 'information_grounding_rate', label: 'Information grounding (scored tasks)' },
    { key: 'information_grounding_rate_all', label: 'Information grounding (all GT ids, missing = 0)' },
  ].filter((item) => judged.some((results) => value(results, item.key) !== null));
  return groupedBars(
    'final_answer_judges',
    'Final answer: LLM judge ensemble scores',
    judged.map((results) => displayName(results.model)),
    series.map((item) => ({ label: item.label, data: judged.map((results) => value(results, item.key)) })),
    'score (0-1)',
  );
}

export function finalProxyFigure(models: readonly ModelResults[]): FigureSpec | undefined {
  const proxied = models.filter((results) => results.proxy);
  if (proxied.length === 0) return undefined;
  return groupedBars(
    'final_answer_proxies',
    'Final-answer PROXIES against the GT final_reply (not judge scores)',
    proxied.map((results) => displayName(results.model)),
    proxyMetricNames.map((metric) => ({ label: `${metric} (proxy)`, data: proxied.map((results) => toChartValue(results.proxy?.aggregate[metric])) })),
    'proxy score (0-1)',
  );
}

function safeFileStem(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
}

export function callDonutFigure(results: ModelResults): FigureSpec | undefined {
  const calls = results.calls;
  if (!calls) return undefined;
  const counts: Record<string, number> = {
    success: calls.success,
    resource_not_found: calls.resource_not_found,
    invalid_arguments: calls.invalid_arguments,
    unknown_tool: calls.unknown_tool,
    unclassified: calls.unclassified ?? 0,
  };
  const shown = callCategoryStyle.filter((style) => style.key !== 'unclassified' || (counts.unclassified ?? 0) > 0);
  const total = shown.reduce((sum, style) => sum + (counts[style.key] ?? 0), 0);
  const tasks = calls.totals?.tasks;
  const illegal = `Illegal calling: ${calls.illegal_calling}${tasks !== undefined ? ` of ${tasks}` : ''} tasks (counted per task, not per call)`;
  return {
    name: `call_categories_${safeFileStem(results.model)}`,
    title: `Call categories: ${displayName(results.model)}`,
    width: 560,
    height: 520,
    config: {
      type: 'doughnut',
      data: {
        labels: shown.map((style) => `${style.label}: ${counts[style.key] ?? 0} (${formatPercent(counts[style.key] ?? 0, { of: total })})`),
        datasets: [
          { label: 'calls', data: shown.map((style) => counts[style.key] ?? 0), backgroundColor: shown.map((style) => style.color), borderColor: '#ffffff' },
        ],
      },
      options: {
        responsive: false,
        animation: false,
        cutout: '50%',
        plugins: {
          title: { display: true, text: `${displayName(results.model)}: ${total} calls` },
          subtitle: { display: true, text: illegal },
          legend: { position: 'bottom' },
          canvasBackground: background,
        },
      },
    },
  };
}

/**
 * Illegal calling has its own chart because its unit (tasks) differs from the donuts' (calls).
 * Each bar reads "k of N tasks" and the axis runs to the task count, so a small count is still
 * visible; when no model had any, the chart says so instead of showing an empty frame.
 */
export function illegalCallingFigure(models: readonly ModelResults[]): FigureSpec | undefined {
  const withCalls = models.filter((results) => results.calls);
  if (withCalls.length === 0) return undefined;
  const counts = withCalls.map((results) => results.calls?.illegal_calling ?? 0);
  const tasks = withCalls.map((results) => results.calls?.totals?.tasks);
  const known = tasks.filter((count): count is number => typeof count === 'number');
  const axisMax = Math.max(1, ...counts, ...known);
  const none = counts.every((count) => count === 0);
  const subtitle = none
    ? `No task had illegal calling: 0 for each of the ${withCalls.length} model(s) (a task counts once if any round had no parseable tool call)`
    : 'a task counts once if any round had no parseable tool call';
  return {
    name: 'call_illegal_calling',
    title: 'Tasks with illegal calling',
    width: 900,
    height: Math.max(260, 120 + 40 * withCalls.length),
    config: {
      type: 'bar',
      data: {
        labels: withCalls.map(
          (results, index) => `${displayName(results.model)}: ${counts[index]}${tasks[index] !== undefined ? ` of ${tasks[index]}` : ''} tasks`,
        ),
        datasets: [{ label: 'tasks with illegal calling', data: counts, backgroundColor: '#9c755f' }],
      },
      options: {
        indexAxis: 'y',
        responsive: false,
        animation: false,
        scales: {
          x: { min: 0, max: axisMax, title: { display: true, text: 'tasks with illegal calling' }, ticks: { precision: 0 } },
        },
        plugins: {
          title: { display: true, text: 'Illegal calling (unit: tasks, not calls)' },
          subtitle: { display: true, text: subtitle },
          legend: { display: false },
          valueLabels: { decimals: 0 },
          canvasBackground: background,
        },
      },
    },
  };
}

export function toolsPerServerFigure(catalog: ToolCatalog): FigureSpec {
  const counts = toolsPerServer(catalog);
  return {
    name: 'mcp_tools_per_server',
    title: 'Tools per MCP server',
    width: Math.max(900, 120 + 44 * counts.length),
    height: 640,
    config: {
      type: 'bar',
      data: {
        // Server names as configured (mcp_servers.json), not title-cased: they are what a user types.
        labels: counts.map((item) => item.server),
        datasets: [{ label: 'Number of tools', data: counts.map((item) => item.count), backgroundColor: '#4e79a7' }],
      },
      options: {
        responsive: false,
        animation: false,
        scales: {
          x: { title: { display: true, text: 'MCP Server' }, ticks: { minRotation: 35, maxRotation: 35, autoSkip: false } },
          y: { min: 0, title: { display: true, text: 'Number of Tools' }, ticks: { precision: 0 }, border: { dash: [4, 4] } },
        },
        plugins: {
          title: { display: true, text: `Tools per MCP server (${catalog.tools.size} tools, ${counts.length} servers)` },
          legend: { display: false },
          valueLabels: { decimals: 0 },
          canvasBackground: background,
        },
      },
    },
  };
}

export function toolCategoryFigure(catalog: ToolCatalog): FigureSpec | undefined {
  const counts = new Map<string, number>();
  for (const entry of catalog.tools.values()) if (entry.category) counts.set(entry.category, (counts.get(entry.category) ?? 0) + 1);
  if (counts.size === 0) return undefined;
  const ordered = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const total = ordered.reduce((sum, [, count]) => sum + count, 0);
  return {
    name: 'mcp_tools_per_category',
    title: 'Tools per category',
    width: 620,
    height: 560,
    config: {
      type: 'doughnut',
      data: {
        labels: ordered.map(([category, count]) => `${category} (${formatPercent(count, { of: total })})`),
        datasets: [
          {
            label: 'tools',
            data: ordered.map(([, count]) => count),
            backgroundColor: ordered.map((_, index) => seriesPalette[index % seriesPalette.length] ?? '#999999'),
            borderColor: '#ffffff',
          },
        ],
      },
      options: {
        responsive: false,
        animation: false,
        cutout: '50%',
        plugins: { title: { display: true, text: 'Share of tools per category' }, legend: { position: 'right' }, canvasBackground: background },
      },
    },
  };
}
