// The record-replay cache of the tool fallback layer: its own SQLite file (never the run store),
// with its own numbered migrations in src/store/cache-migrations/. The SQL lives here, as all
// SQL does; src/fallback/ computes the keys and decides what to record and serve.
import { z } from 'zod';
import { fromRepo } from '../config/paths.js';
import { redactText } from '../log/redact.js';
import { openStore, selectAll, statement, writeTransaction, type Store } from './connection.js';
import { jsonColumn, toJsonColumn, toTextColumn, toTimeColumn } from './json-column.js';
import { parseRows } from './rows.js';
import { parseInput } from './schemas.js';

export const cacheSourceSchema = z.enum(['real', 'fixture', 'simulated']);
export type CacheSource = z.output<typeof cacheSourceSchema>;

const cacheEntryInputSchema = z.strictObject({
  server: z.string().min(1),
  tool: z.string().min(1),
  argumentsKey: z.string().min(1),
  toolsHash: z.string().default(''),
  arguments: z.unknown(),
  resultText: z.string(),
  source: cacheSourceSchema,
  /** When the result was obtained; now by default. */
  recordedAt: z.date().optional(),
});
export type CacheEntryInput = z.input<typeof cacheEntryInputSchema>;

const cacheRowSchema = z
  .object({
    server: z.string(),
    tool: z.string(),
    arguments_key: z.string(),
    tools_hash: z.string(),
    arguments: jsonColumn(z.unknown()),
    result_text: z.string(),
    source: cacheSourceSchema,
    recorded_at: z.string(),
  })
  .transform((row) => ({
    server: row.server,
    tool: row.tool,
    argumentsKey: row.arguments_key,
    toolsHash: row.tools_hash,
    arguments: row.arguments,
    resultText: row.result_text,
    source: row.source,
    recordedAt: row.recorded_at,
  }));
export type CacheEntry = z.output<typeof cacheRowSchema>;

function cacheMigrationsDir(): string {
  return fromRepo('src', 'store', 'cache-migrations');
}

/** Opens (creating and migrating if needed) a fallback cache file. */
export function openFallbackCache(file: string, options: { readonly?: boolean } = {}): Store {
  return openStore(file, { migrationsDir: cacheMigrationsDir(), ...(options.readonly ? { readonly: true } : {}) });
}

const selectOneSql = `SELECT * FROM cache_entries WHERE server = ? AND tool = ? AND arguments_key = ? AND tools_hash = ?`;
const insertSql = `
  INSERT INTO cache_entries (server, tool, arguments_key, tools_hash, arguments, result_text, source, recorded_at)
  VALUES (@server, @tool, @argumentsKey, @toolsHash, @arguments, @resultText, @source, @recordedAt)`;
const replaceSql = `
  UPDATE cache_entries SET arguments = @arguments, result_text = @resultText, source = @source, recorded_at = @recordedAt
  WHERE server = @server AND tool = @tool AND arguments_key = @argumentsKey AND tools_hash = @toolsHash`;

export type PutOutcome = 'inserted' | 'replaced' | 'unchanged' | 'kept';

/**
 * Stores an entry. With `replace`, an existing entry of the same key is overwritten (a newer
 * real recording, an imported set that must win); without it the existing one is kept (a
 * simulated return never displaces a recorded one).
 */
export function putCacheEntry(store: Store, input: CacheEntryInput, options: { replace: boolean }): PutOutcome {
  const entry = parseInput(cacheEntryInputSchema, input, 'putCacheEntry');
  const params = {
    server: entry.server,
    tool: entry.tool,
    argumentsKey: entry.argumentsKey,
    toolsHash: entry.toolsHash,
    arguments: toJsonColumn(entry.arguments ?? null) ?? 'null',
    resultText: toTextColumn(entry.resultText) ?? '',
    source: entry.source,
    recordedAt: toTimeColumn(entry.recordedAt),
  };
  return writeTransaction(store, `putCacheEntry(${entry.server}/${entry.tool})`, () => {
    const [existing] = parseRows(
      cacheRowSchema,
      selectAll(store, selectOneSql, entry.server, entry.tool, entry.argumentsKey, entry.toolsHash),
      'cache_entries',
      store.file,
    );
    if (!existing) {
      statement(store, insertSql).run(params);
      return 'inserted';
    }
    if (existing.resultText === params.resultText && existing.source === params.source) return 'unchanged';
    if (!options.replace) return 'kept';
    statement(store, replaceSql).run(params);
    return 'replaced';
  });
}

export function findCacheEntry(store: Store, key: { server: string; tool: string; argumentsKey: string; toolsHash: string }): CacheEntry | undefined {
  const rows = selectAll(store, selectOneSql, key.server, key.tool, key.argumentsKey, key.toolsHash);
  return parseRows(cacheRowSchema, rows, 'cache_entries', store.file)[0];
}

/** The newest entries of one tool from a given source (the simulator's examples). */
export function cacheEntriesOfTool(store: Store, server: string, tool: string, source: CacheSource, limit: number): CacheEntry[] {
  const rows = selectAll(
    store,
    'SELECT * FROM cache_entries WHERE server = ? AND tool = ? AND source = ? ORDER BY recorded_at DESC, id DESC LIMIT ?',
    server,
    tool,
    source,
    limit,
  );
  return parseRows(cacheRowSchema, rows, 'cache_entries', store.file);
}

const storedRowSchema = z.object({ id: z.number().int(), arguments_key: z.string(), arguments: z.string(), result_text: z.string() });

/**
 * Brings every entry in line with the secrets registered now (src/log/redact.ts): an entry whose
 * key is not `keyOf` its arguments (a file written before keys were taken of redacted arguments),
 * or whose arguments or result still hold a secret (one registered after it was written), is
 * rewritten redacted; one whose new key another entry already holds is dropped, the other kept.
 */
export function scrubCacheEntries(store: Store, keyOf: (args: unknown) => string): { rewritten: number; dropped: number } {
  const rows = parseRows(storedRowSchema, selectAll(store, 'SELECT id, arguments_key, arguments, result_text FROM cache_entries'), 'cache_entries', store.file);
  const counts = { rewritten: 0, dropped: 0 };
  for (const row of rows) {
    const parsed = JSON.parse(row.arguments) as unknown;
    const key = keyOf(parsed);
    // redactText only detects here; a rewrite serialises the parsed value through toJsonColumn.
    const argumentsText = redactText(row.arguments) === row.arguments ? row.arguments : (toJsonColumn(parsed) ?? 'null');
    const resultText = toTextColumn(row.result_text) ?? '';
    if (key === row.arguments_key && argumentsText === row.arguments && resultText === row.result_text) continue;
    writeTransaction(store, 'scrubCacheEntries', () => {
      const taken = selectAll(
        store,
        'SELECT id FROM cache_entries WHERE id <> ? AND arguments_key = ? AND (server, tool, tools_hash) = (SELECT server, tool, tools_hash FROM cache_entries WHERE id = ?)',
        row.id,
        key,
        row.id,
      );
      if (taken.length > 0) {
        statement(store, 'DELETE FROM cache_entries WHERE id = ?').run(row.id);
        counts.dropped += 1;
      } else {
        statement(store, 'UPDATE cache_entries SET arguments_key = ?, arguments = ?, result_text = ? WHERE id = ?').run(key, argumentsText, resultText, row.id);
        counts.rewritten += 1;
      }
    });
  }
  // Rewritten pages can leave the old bytes in free space: rebuild the file without them.
  if (counts.rewritten + counts.dropped > 0) statement(store, 'VACUUM').run();
  return counts;
}

/** Every entry in a stable order (server, tool, key, hash): what `m3 cache export` writes. */
export function allCacheEntries(store: Store): CacheEntry[] {
  const rows = selectAll(store, 'SELECT * FROM cache_entries ORDER BY server, tool, arguments_key, tools_hash');
  return parseRows(cacheRowSchema, rows, 'cache_entries', store.file);
}

const statsRowSchema = z.object({ server: z.string(), tool: z.string(), source: cacheSourceSchema, entries: z.number().int(), newest: z.string() });
export type CacheStatsRow = z.output<typeof statsRowSchema>;

/** Entry counts per server, tool and source, with the newest recording time. */
export function cacheStats(store: Store): CacheStatsRow[] {
  const rows = selectAll(
    store,
    'SELECT server, tool, source, COUNT(*) AS entries, MAX(recorded_at) AS newest FROM cache_entries GROUP BY server, tool, source ORDER BY server, tool, source',
  );
  return parseRows(statsRowSchema, rows, 'cache_entries', store.file);
}
