// Per-run totals for progress lines, reports and the CLI: episodes by status, failures split
// into model and infrastructure, token and cost sums, and how many model calls needed retries.
import { z } from 'zod';
import { StoreError } from '../errors/index.js';
import { type Store, selectAll } from './connection.js';
import { parseRows } from './rows.js';
import { getRun } from './runs.js';
import { episodeStatusSchema, failureKindSchema, type EpisodeStatus } from './schemas.js';

type StatusCounts = Record<EpisodeStatus, number>;

interface EpisodeTotals {
  episodes: number;
  /** Distinct task ids with at least one episode. */
  tasks: number;
  byStatus: StatusCounts;
  failures: { model: number; infra: number };
  usage: { inputTokens: number; outputTokens: number; cachedTokens: number };
  /** USD paid (batch replies at the batch price, cache-served ones at $0). */
  costUsd: number;
  /** USD the model-response cache and batch pricing saved against the list price. */
  savedUsd: number;
  rounds: number;
  toolCalls: number;
  modelCalls: number;
  /** Model calls that took more than one attempt. */
  retriedModelCalls: number;
}

export interface RunSummary extends EpisodeTotals {
  runId: string;
  /** The same totals per episode model, sorted by model. */
  models: Array<EpisodeTotals & { model: string }>;
}

const groupRowSchema = z.object({
  model: z.string(),
  status: episodeStatusSchema,
  failure_kind: failureKindSchema.nullable(),
  episodes: z.number().int(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_tokens: z.number(),
  cost_usd: z.number(),
  saved_usd: z.number(),
  rounds: z.number(),
  tool_calls: z.number(),
});

const perModelRowSchema = z.object({
  model: z.string(),
  tasks: z.number().int(),
  model_calls: z.number().int(),
  retried_model_calls: z.number().int(),
});

function emptyTotals(): EpisodeTotals {
  return {
    episodes: 0,
    tasks: 0,
    byStatus: { ok: 0, model_failure: 0, infra_failure: 0, timeout: 0, running: 0 },
    failures: { model: 0, infra: 0 },
    usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
    costUsd: 0,
    savedUsd: 0,
    rounds: 0,
    toolCalls: 0,
    modelCalls: 0,
    retriedModelCalls: 0,
  };
}

function addGroup(totals: EpisodeTotals, row: z.output<typeof groupRowSchema>): void {
  totals.episodes += row.episodes;
  totals.byStatus[row.status] += row.episodes;
  if (row.failure_kind) totals.failures[row.failure_kind] += row.episodes;
  totals.usage.inputTokens += row.input_tokens;
  totals.usage.outputTokens += row.output_tokens;
  totals.usage.cachedTokens += row.cached_tokens;
  totals.costUsd += row.cost_usd;
  totals.savedUsd += row.saved_usd;
  totals.rounds += row.rounds;
  totals.toolCalls += row.tool_calls;
}

/** Totals for one run, overall and per model. */
export function runSummary(store: Store, runId: string): RunSummary {
  if (!getRun(store, runId)) throw new StoreError(`runSummary: no run "${runId}" in run store ${store.file}; check the run id`);
  const groups = parseRows(
    groupRowSchema,
    selectAll(
      store,
      `SELECT model, status, failure_kind, COUNT(*) AS episodes,
          SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
          SUM(cached_tokens) AS cached_tokens, TOTAL(cost_usd) AS cost_usd, TOTAL(saved_usd) AS saved_usd,
          SUM(rounds) AS rounds, SUM(tool_call_count) AS tool_calls
        FROM episodes WHERE run_id = ? GROUP BY model, status, failure_kind`,
      runId,
    ),
    'episodes',
    store.file,
  );
  const perModel = parseRows(
    perModelRowSchema,
    selectAll(
      store,
      `SELECT e.model AS model, COUNT(DISTINCT e.task_id) AS tasks, COUNT(c.id) AS model_calls,
          COUNT(CASE WHEN json_array_length(c.attempts) > 1 THEN 1 END) AS retried_model_calls
        FROM episodes e LEFT JOIN model_calls c ON c.episode_id = e.id
        WHERE e.run_id = ? GROUP BY e.model`,
      runId,
    ),
    'episodes',
    store.file,
  );
  const byModel = new Map<string, EpisodeTotals>();
  const overall = emptyTotals();
  for (const row of groups) {
    const totals = byModel.get(row.model) ?? emptyTotals();
    byModel.set(row.model, totals);
    addGroup(totals, row);
    addGroup(overall, row);
  }
  for (const row of perModel) {
    const totals = byModel.get(row.model) ?? emptyTotals();
    totals.tasks = row.tasks;
    totals.modelCalls = row.model_calls;
    totals.retriedModelCalls = row.retried_model_calls;
    overall.modelCalls += row.model_calls;
    overall.retriedModelCalls += row.retried_model_calls;
  }
  overall.tasks = (selectAll(store, 'SELECT COUNT(DISTINCT task_id) AS tasks FROM episodes WHERE run_id = ?', runId)[0] as { tasks: number }).tasks;
  const models = [...byModel.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([model, totals]) => ({ model, ...totals }));
  return { runId, ...overall, models };
}
