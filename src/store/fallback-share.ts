// How much of a run the tool fallback layer served, per model: the share of tool calls and of
// tasks that received mocked returns, over the episodes whose predictions are scored (status ok
// or model_failure; infrastructure failures and requeued attempts never reach predictions).
// The viewer's count, which must follow runs still in flight; every other output counts from the
// prediction file (src/results/mocked-share.ts), and test/fallback/mixed-run.test.ts checks that
// both give the same numbers for a finished run.
import { z } from 'zod';
import { type Store, selectAll } from './connection.js';
import { parseRows } from './rows.js';

interface FallbackShare {
  model: string;
  calls: number;
  mockedCalls: number;
  tasks: number;
  mockedTasks: number;
  /** Served calls per tier. */
  byTier: Record<string, number>;
}

const totalsRowSchema = z.object({
  model: z.string(),
  calls: z.number().int(),
  mocked_calls: z.number().int(),
  tasks: z.number().int(),
  mocked_tasks: z.number().int(),
});
const tierRowSchema = z.object({ model: z.string(), tier: z.string(), calls: z.number().int() });

const scored = `e.run_id = ? AND e.status IN ('ok', 'model_failure')`;

export function fallbackShare(store: Store, runId: string): FallbackShare[] {
  const totals = parseRows(
    totalsRowSchema,
    selectAll(
      store,
      `SELECT e.model AS model, COUNT(c.id) AS calls, COUNT(c.fallback_tier) AS mocked_calls,
          COUNT(DISTINCT e.task_id) AS tasks,
          COUNT(DISTINCT CASE WHEN c.fallback_tier IS NOT NULL THEN e.task_id END) AS mocked_tasks
        FROM episodes e LEFT JOIN tool_calls c ON c.episode_id = e.id
        WHERE ${scored} GROUP BY e.model ORDER BY e.model`,
      runId,
    ),
    'tool_calls',
    store.file,
  );
  const tiers = parseRows(
    tierRowSchema,
    selectAll(
      store,
      `SELECT e.model AS model, c.fallback_tier AS tier, COUNT(*) AS calls
        FROM episodes e JOIN tool_calls c ON c.episode_id = e.id
        WHERE ${scored} AND c.fallback_tier IS NOT NULL GROUP BY e.model, c.fallback_tier`,
      runId,
    ),
    'tool_calls',
    store.file,
  );
  return totals.map((row) => ({
    model: row.model,
    calls: row.calls,
    mockedCalls: row.mocked_calls,
    tasks: row.tasks,
    mockedTasks: row.mocked_tasks,
    byTier: Object.fromEntries(tiers.filter((tier) => tier.model === row.model).map((tier) => [tier.tier, tier.calls])),
  }));
}
