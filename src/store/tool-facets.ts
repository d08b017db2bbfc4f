// Per episode of a run, what its tool calls touched: the canonical tools called, the fallback
// tiers that served any of them, how many were mocked and which tool error codes came back. The
// run viewer filters its task table on these (server used, tier, mocked or not, error class).
import { z } from 'zod';
import { type Store, selectAll } from './connection.js';
import { parseRows } from './rows.js';

interface EpisodeToolFacets {
  episodeId: number;
  /** Distinct canonical tool names, sorted. */
  tools: string[];
  /** Distinct fallback tiers that served a call, sorted. */
  tiers: string[];
  mockedCalls: number;
  /** Distinct tool error codes, sorted. */
  errorCodes: string[];
  /** Tool calls that failed without an error code (the viewer's error filter lists them apart). */
  uncodedErrors: number;
}

const rowSchema = z.object({
  episode_id: z.number().int(),
  canonical_name: z.string(),
  fallback_tier: z.string().nullable(),
  error_code: z.string().nullable(),
  is_error: z.number().int(),
});

/** Facets of every episode of the run that made at least one tool call, keyed by episode id. */
export function toolFacetsForRun(store: Store, runId: string): Map<number, EpisodeToolFacets> {
  const rows = parseRows(
    rowSchema,
    selectAll(
      store,
      `SELECT c.episode_id, c.canonical_name, c.fallback_tier, c.error_code, c.is_error
        FROM tool_calls c JOIN episodes e ON e.id = c.episode_id WHERE e.run_id = ?`,
      runId,
    ),
    'tool_calls',
    store.file,
  );
  const sets = new Map<number, { tools: Set<string>; tiers: Set<string>; mocked: number; codes: Set<string>; uncoded: number }>();
  for (const row of rows) {
    const entry = sets.get(row.episode_id) ?? { tools: new Set(), tiers: new Set(), mocked: 0, codes: new Set(), uncoded: 0 };
    sets.set(row.episode_id, entry);
    entry.tools.add(row.canonical_name);
    if (row.fallback_tier) {
      entry.tiers.add(row.fallback_tier);
      entry.mocked += 1;
    }
    if (row.error_code) entry.codes.add(row.error_code);
    else if (row.is_error) entry.uncoded += 1;
  }
  const sorted = (values: Set<string>) => [...values].sort();
  return new Map(
    [...sets].map(([episodeId, entry]) => [
      episodeId,
      {
        episodeId,
        tools: sorted(entry.tools),
        tiers: sorted(entry.tiers),
        mockedCalls: entry.mocked,
        errorCodes: sorted(entry.codes),
        uncodedErrors: entry.uncoded,
      },
    ]),
  );
}
