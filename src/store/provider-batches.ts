// The provider batch jobs of `m3 run --batch` (migration 017): which vendor job holds which
// request of a run, so a run killed while a job is pending can be resumed without sending those
// requests again. The SQL lives here; src/llm/batch/collector.ts decides what to submit and when.
import { z } from 'zod';
import { type Store, selectAll, statement, writeTransaction } from './connection.js';
import { parseRows } from './rows.js';

const providerBatchStates = ['pending', 'ended', 'expired', 'failed', 'canceled'] as const;
export type ProviderBatchState = (typeof providerBatchStates)[number];

export interface ProviderBatchInput {
  runId: string;
  provider: string;
  model: string;
  vendorBatchId: string;
  /** Each request of the job: the vendor's custom id and the request key it answers. */
  requests: ReadonlyArray<{ customId: string; key: string }>;
}

/** Records a submitted job and its requests (state pending). */
export function recordProviderBatch(store: Store, input: ProviderBatchInput): void {
  const now = new Date().toISOString();
  writeTransaction(store, `recordProviderBatch(${input.vendorBatchId})`, () => {
    const row = statement(
      store,
      `INSERT INTO provider_batches (run_id, provider, model, vendor_batch_id, state, submitted_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
    ).run(input.runId, input.provider, input.model, input.vendorBatchId, now, now);
    const insert = statement(store, 'INSERT INTO provider_batch_requests (batch_row_id, custom_id, request_key) VALUES (?, ?, ?)');
    for (const request of input.requests) insert.run(row.lastInsertRowid, request.customId, request.key);
  });
}

/** A job's state as last polled, with the vendor's words for it (`detail`). */
export function updateProviderBatch(store: Store, runId: string, vendorBatchId: string, state: ProviderBatchState, detail: string): void {
  writeTransaction(store, `updateProviderBatch(${vendorBatchId})`, () => {
    statement(store, 'UPDATE provider_batches SET state = ?, detail = ?, updated_at = ? WHERE run_id = ? AND vendor_batch_id = ?').run(
      state,
      detail,
      new Date().toISOString(),
      runId,
      vendorBatchId,
    );
  });
}

/** How one request of a job was answered: by the job, or by the ordinary (synchronous) path. */
export function settleProviderBatchRequest(store: Store, runId: string, vendorBatchId: string, customId: string, outcome: 'answered' | 'fallback'): void {
  writeTransaction(store, `settleProviderBatchRequest(${vendorBatchId})`, () => {
    statement(
      store,
      `UPDATE provider_batch_requests SET outcome = ?
       WHERE custom_id = ? AND batch_row_id = (SELECT id FROM provider_batches WHERE run_id = ? AND vendor_batch_id = ?)`,
    ).run(outcome, customId, runId, vendorBatchId);
  });
}

const pendingRowSchema = z
  .object({ vendor_batch_id: z.string(), custom_id: z.string(), request_key: z.string() })
  .transform((row) => ({ vendorBatchId: row.vendor_batch_id, customId: row.custom_id, key: row.request_key }));
export type PendingBatchRequest = z.output<typeof pendingRowSchema>;

/** Requests of this run's jobs for this model that are still waiting for their job (what a resume picks up). */
export function pendingProviderBatchRequests(store: Store, runId: string, provider: string, model: string): PendingBatchRequest[] {
  const rows = selectAll(
    store,
    `SELECT b.vendor_batch_id, r.custom_id, r.request_key FROM provider_batch_requests r
     JOIN provider_batches b ON b.id = r.batch_row_id
     WHERE b.run_id = ? AND b.provider = ? AND b.model = ? AND r.outcome IS NULL AND b.state = 'pending'
     ORDER BY r.id`,
    runId,
    provider,
    model,
  );
  return parseRows(pendingRowSchema, rows, 'provider_batch_requests', store.file);
}

const jobRowSchema = z
  .object({
    vendor_batch_id: z.string(),
    state: z.enum(providerBatchStates),
    detail: z.string().nullable(),
    requests: z.number().int(),
    answered: z.number().int(),
  })
  .transform((row) => ({ vendorBatchId: row.vendor_batch_id, state: row.state, detail: row.detail, requests: row.requests, answered: row.answered }));

/**
 * A run's jobs with their request counts, oldest first.
 * @internal Exported for its tests.
 */
export function providerBatchesOf(store: Store, runId: string): Array<z.output<typeof jobRowSchema>> {
  const rows = selectAll(
    store,
    `SELECT b.vendor_batch_id, b.state, b.detail, COUNT(r.id) AS requests, COALESCE(SUM(r.outcome = 'answered'), 0) AS answered
     FROM provider_batches b LEFT JOIN provider_batch_requests r ON r.batch_row_id = b.id
     WHERE b.run_id = ? GROUP BY b.id ORDER BY b.id`,
    runId,
  );
  return parseRows(jobRowSchema, rows, 'provider_batches', store.file);
}
