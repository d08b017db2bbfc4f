// The run page's task table as a query: text search, filters, sort (failures first by default)
// and one page of rows, with the facets the filters offer and the counts the charts draw, all
// computed on the server so a 10,000-episode run sends one page, not every row. The page keeps
// the same parameters in its URL (#/run/<id>?q=...&outcome=fail), so a view is a link.
import { z } from 'zod';
import type { IndexedRow } from './task-index.js';
import type { TaskRow } from './pages.js';

const choice = z.string().trim().min(1).default('all');
const bound = z
  .string()
  .trim()
  .default('')
  .refine((value) => value === '' || Number.isFinite(Number(value)), 'expected a number');

const sortKeys = ['failures', 'task', 'status', 'error', 'rounds', 'tools', 'tokens', 'recall', 'precision', 'judge', 'matched', 'pass'] as const;

export const taskQuerySchema = z.object({
  q: z.string().trim().max(500).default(''),
  outcome: z.enum(['all', 'pass', 'fail', 'unevaluated']).default('all'),
  status: choice,
  end: choice,
  infra: z.enum(['all', 'only', 'exclude']).default('all'),
  mocked: z.enum(['all', 'mocked', 'real']).default('all'),
  error: choice,
  tier: choice,
  server: choice,
  tool: choice,
  metric: z.enum(['recall', 'precision', 'judge']).default('recall'),
  min: bound,
  max: bound,
  sort: z.enum(sortKeys).default('failures'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export type TaskQuery = z.output<typeof taskQuerySchema>;

/** A tool error that came back without an error code, as the error filter names it. */
const UNCODED_TOOL_ERROR = 'tool error (no code)';

const errorClassesOf = (row: TaskRow): string[] =>
  [row.errorCode, ...row.toolErrorCodes, row.uncodedToolErrors > 0 ? UNCODED_TOOL_ERROR : null].filter((value): value is string => Boolean(value));

const metricOf: Record<TaskQuery['metric'], (row: TaskRow) => number | null | undefined> = {
  recall: (row) => row.step?.recall,
  precision: (row) => row.step?.precision,
  judge: (row) => row.judgeScore,
};

const failed = (row: TaskRow) => row.passed === false || row.status === 'model_failure';

function matchesFilters(row: TaskRow, query: TaskQuery): boolean {
  if (query.outcome === 'pass' && row.passed !== true) return false;
  if (query.outcome === 'fail' && !failed(row)) return false;
  if (query.outcome === 'unevaluated' && (row.passed !== null || failed(row))) return false;
  if (query.status !== 'all' && row.status !== query.status) return false;
  if (query.end !== 'all' && (row.endStatus ?? 'none') !== query.end) return false;
  if (query.infra === 'only' && row.failureKind !== 'infra') return false;
  if (query.infra === 'exclude' && row.failureKind === 'infra') return false;
  if (query.mocked === 'mocked' && row.mockedCalls === 0) return false;
  if (query.mocked === 'real' && row.mockedCalls > 0) return false;
  const errors = errorClassesOf(row);
  if (query.error !== 'all' && !(query.error === 'none' ? errors.length === 0 : errors.includes(query.error))) return false;
  if (query.tier === 'none' && row.tiers.length > 0) return false;
  if (query.tier !== 'all' && query.tier !== 'none' && !row.tiers.includes(query.tier)) return false;
  if (query.server !== 'all' && !row.servers.includes(query.server)) return false;
  if (query.tool !== 'all' && !row.tools.includes(query.tool)) return false;
  return inMetricRange(metricOf[query.metric](row), query);
}

function inMetricRange(value: number | null | undefined, query: TaskQuery): boolean {
  if (query.min === '' && query.max === '') return true;
  if (typeof value !== 'number') return false;
  if (query.min !== '' && value < Number(query.min)) return false;
  return !(query.max !== '' && value > Number(query.max));
}

// Failures first: failed, then not evaluated, then passed; within each, task id and trial.
const outcomeRank = (row: TaskRow) => (failed(row) ? 0 : row.passed === null ? 1 : 2);
const sortValue: Record<TaskQuery['sort'], (row: TaskRow) => string | number | boolean | null | undefined> = {
  failures: outcomeRank,
  task: (row) => row.taskId,
  status: (row) => row.status,
  error: (row) => errorClassesOf(row).join(' ') || null,
  rounds: (row) => row.rounds,
  tools: (row) => row.toolCalls,
  tokens: (row) => row.tokens,
  recall: (row) => row.step?.recall,
  precision: (row) => row.step?.precision,
  judge: (row) => row.judgeScore,
  matched: (row) => row.allGtCallsMatched,
  pass: (row) => row.passed,
};

function compare(query: TaskQuery) {
  const value = sortValue[query.sort];
  const direction = query.dir === 'desc' ? -1 : 1;
  return (a: TaskRow, b: TaskRow) => {
    const [x, y] = [value(a), value(b)];
    // Unknown values sort last in either direction.
    const primary = x === y ? 0 : x === null || x === undefined ? 1 : y === null || y === undefined ? -1 : (x < y ? -1 : 1) * direction;
    return primary || a.taskId.localeCompare(b.taskId) || a.trial - b.trial;
  };
}

function facetsOf(rows: readonly TaskRow[]) {
  const distinct = (values: Array<string | null | undefined>) => [...new Set(values.filter((value): value is string => Boolean(value)))].sort();
  return {
    status: distinct(rows.map((row) => row.status)),
    end: distinct(rows.map((row) => row.endStatus ?? 'none')),
    error: distinct(rows.flatMap(errorClassesOf)),
    tier: distinct(rows.flatMap((row) => row.tiers)),
    server: distinct(rows.flatMap((row) => row.servers)),
    tool: distinct(rows.flatMap((row) => row.tools)),
  };
}

/** Per-task recall and precision in five bins, and tasks by status, over every row of the run. */
function chartsOf(rows: readonly TaskRow[]) {
  const bins = ['[0, 0.2)', '[0.2, 0.4)', '[0.4, 0.6)', '[0.6, 0.8)', '[0.8, 1]'];
  const histogram = (values: Array<number | undefined>) => {
    const counts = bins.map(() => 0);
    for (const value of values) if (typeof value === 'number') counts[Math.min(4, Math.floor(value * 5))]! += 1;
    return counts;
  };
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  return { bins, recall: histogram(rows.map((row) => row.step?.recall)), precision: histogram(rows.map((row) => row.step?.precision)), byStatus };
}

export function queryTasks(indexed: readonly IndexedRow[], query: TaskQuery) {
  const words = query.q.toLowerCase().split(/\s+/).filter(Boolean);
  const found = indexed.filter((entry) => words.every((word) => entry.text.includes(word)) && matchesFilters(entry.row, query)).map((entry) => entry.row);
  found.sort(compare(query));
  const all = indexed.map((entry) => entry.row);
  return {
    total: all.length,
    matched: found.length,
    offset: query.offset,
    limit: query.limit,
    rows: found.slice(query.offset, query.offset + query.limit),
    facets: facetsOf(all),
    charts: chartsOf(all),
  };
}
