// The model-response cache of `m3 run --cache`: its own SQLite file (never the run store), with
// its own numbered migrations in src/store/response-cache-migrations/. The SQL lives here;
// src/llm/response-cache-key.ts computes the keys, src/runner/response-cache.ts decides what to
// serve and record.
import { z } from 'zod';
import { fromRepo } from '../config/paths.js';
import { openStore, selectAll, statement, writeTransaction, type Store } from './connection.js';
import { jsonColumn, toJsonColumn, toTimeColumn } from './json-column.js';
import { parseRows } from './rows.js';

const responseOriginSchema = z.enum(['recorded', 'imported']);
type ResponseOrigin = z.output<typeof responseOriginSchema>;

const responseRowSchema = z
  .object({
    request_key: z.string(),
    provider: z.string(),
    model: z.string(),
    request: jsonColumn(z.unknown()),
    response: jsonColumn(z.record(z.string(), z.unknown())),
    origin: responseOriginSchema,
    run_id: z.string().nullable(),
    recorded_at: z.string(),
  })
  .transform((row) => ({
    key: row.request_key,
    provider: row.provider,
    model: row.model,
    request: row.request,
    response: row.response,
    origin: row.origin,
    runId: row.run_id,
    recordedAt: row.recorded_at,
  }));
type ResponseEntry = z.output<typeof responseRowSchema>;

export interface ResponseEntryInput {
  key: string;
  provider: string;
  model: string;
  request: unknown;
  response: Record<string, unknown>;
  origin: ResponseOrigin;
  runId?: string;
  recordedAt?: Date;
}

/** Opens (creating and migrating if needed) a model-response cache file. */
export function openResponseCache(file: string, options: { readonly?: boolean } = {}): Store {
  return openStore(file, { migrationsDir: fromRepo('src', 'store', 'response-cache-migrations'), ...(options.readonly ? { readonly: true } : {}) });
}

/** The entry of a key, if it was recorded at or after `notBefore` (ISO time; expiry). */
export function findResponse(store: Store, key: string, notBefore?: string): ResponseEntry | undefined {
  const rows = selectAll(store, 'SELECT * FROM model_responses WHERE request_key = ? AND recorded_at >= ?', key, notBefore ?? '');
  return parseRows(responseRowSchema, rows, 'model_responses', store.file)[0];
}

const upsertSql = `
  INSERT INTO model_responses (request_key, provider, model, request, response, origin, run_id, recorded_at)
  VALUES (@key, @provider, @model, @request, @response, @origin, @runId, @recordedAt)
  ON CONFLICT (request_key) DO UPDATE SET response = excluded.response, origin = excluded.origin,
    run_id = excluded.run_id, recorded_at = excluded.recorded_at`;

/** Stores an entry; an existing one of the same key is replaced (a newer recording, an import). */
export function putResponse(store: Store, entry: ResponseEntryInput): void {
  writeTransaction(store, `putResponse(${entry.provider}:${entry.model})`, () => {
    statement(store, upsertSql).run({
      key: entry.key,
      provider: entry.provider,
      model: entry.model,
      request: toJsonColumn(entry.request) ?? 'null',
      response: toJsonColumn(entry.response) ?? '{}',
      origin: entry.origin,
      runId: entry.runId ?? null,
      recordedAt: toTimeColumn(entry.recordedAt),
    });
  });
}

/** Every entry in key order: what `m3 model-cache export` writes. */
export function allResponses(store: Store): ResponseEntry[] {
  return parseRows(responseRowSchema, selectAll(store, 'SELECT * FROM model_responses ORDER BY request_key'), 'model_responses', store.file);
}

const statsRowSchema = z.object({ provider: z.string(), model: z.string(), origin: responseOriginSchema, entries: z.number().int(), newest: z.string() });
export type ResponseStatsRow = z.output<typeof statsRowSchema>;

/** Entry counts per provider, model and origin, with the newest recording time. */
export function responseStats(store: Store): ResponseStatsRow[] {
  const rows = selectAll(
    store,
    'SELECT provider, model, origin, COUNT(*) AS entries, MAX(recorded_at) AS newest FROM model_responses GROUP BY provider, model, origin ORDER BY provider, model, origin',
  );
  return parseRows(statsRowSchema, rows, 'model_responses', store.file);
}
