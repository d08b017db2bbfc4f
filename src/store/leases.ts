// The run lease: at most one process writes a run at a time. Acquiring runs under the write
// lock (BEGIN IMMEDIATE), so two processes racing for the same run cannot both win; the owner
// renews its heartbeat and releases the lease when it ends. A lease is stale, and taken over,
// when its owner is a process on this host that no longer exists, or when it has not renewed
// for `staleAfterMs` (an owner on another host, or a reused pid).
import { z } from 'zod';
import { isProcessAlive } from '../config/process-alive.js';
import { StoreError } from '../errors/index.js';
import { type Store, selectAll, statement, writeTransaction } from './connection.js';
import { parseRows } from './rows.js';

export interface LeaseOwner {
  /** Random per process and run; only the holder of the token renews or releases. */
  token: string;
  pid: number;
  host: string;
}

export interface RunLease extends LeaseOwner {
  runId: string;
  heartbeatAt: string;
}

export interface AcquireLeaseOptions {
  /** A heartbeat older than this makes a lease stale (default 30 s). */
  staleAfterMs?: number;
  now?: Date;
  /** Whether a pid on this host still runs (default: signal 0). */
  isAlive?: (pid: number) => boolean;
}

/** Why an earlier holder lost its lease to us. */
export interface LeaseTakeover {
  previous: RunLease;
  reason: string;
}

const defaultLeaseStaleAfterMs = 30_000;

const leaseRowSchema = z
  .object({ run_id: z.string(), lease_token: z.string(), lease_pid: z.number().int(), lease_host: z.string(), lease_heartbeat_at: z.string() })
  .transform((row): RunLease => ({ runId: row.run_id, token: row.lease_token, pid: row.lease_pid, host: row.lease_host, heartbeatAt: row.lease_heartbeat_at }));

/** The live or stale lease of a run; undefined when nobody holds it. */
export function getRunLease(store: Store, runId: string): RunLease | undefined {
  const rows = selectAll(
    store,
    'SELECT run_id, lease_token, lease_pid, lease_host, lease_heartbeat_at FROM runs WHERE run_id = ? AND lease_token IS NOT NULL',
    runId,
  );
  return parseRows(leaseRowSchema, rows, 'runs', store.file)[0];
}

function staleReason(lease: RunLease, owner: LeaseOwner, options: AcquireLeaseOptions, now: Date): string | undefined {
  const ageMs = now.getTime() - Date.parse(lease.heartbeatAt);
  if (lease.host === owner.host && !(options.isAlive ?? isProcessAlive)(lease.pid)) return `pid ${lease.pid} on ${lease.host} is not running`;
  const staleAfterMs = options.staleAfterMs ?? defaultLeaseStaleAfterMs;
  if (ageMs > staleAfterMs) return `no heartbeat for ${Math.round(ageMs / 1000)} s`;
  return undefined;
}

function heldMessage(lease: RunLease, now: Date): string {
  const ageSec = Math.max(0, Math.round((now.getTime() - Date.parse(lease.heartbeatAt)) / 1000));
  return (
    `run "${lease.runId}" is being written by another m3 process (pid ${lease.pid} on ${lease.host}, last heartbeat ${ageSec} s ago); ` +
    'two writers would run its tasks twice. Wait for that process to finish or stop it, then resume; ' +
    'a lease whose owner died is taken over automatically'
  );
}

/**
 * Throws the StoreError naming the holder when someone else holds a live lease on the run;
 * returns the stale lease `owner` would take over, if any. Reading only: a command checks this
 * before it starts servers, so a second writer is refused at once.
 */
export function checkRunLease(store: Store, runId: string, owner: LeaseOwner, options: AcquireLeaseOptions = {}): LeaseTakeover | undefined {
  const now = options.now ?? new Date();
  const previous = getRunLease(store, runId);
  if (!previous || previous.token === owner.token) return undefined;
  const reason = staleReason(previous, owner, options, now);
  if (!reason) throw new StoreError(heldMessage(previous, now));
  return { previous, reason };
}

/**
 * Takes the lease of an existing run for `owner`. Returns the takeover when a stale lease was
 * replaced, undefined when the run was free (or already ours); throws a StoreError naming the
 * live holder otherwise.
 */
export function acquireRunLease(store: Store, runId: string, owner: LeaseOwner, options: AcquireLeaseOptions = {}): LeaseTakeover | undefined {
  const now = options.now ?? new Date();
  return writeTransaction(store, `acquireRunLease(${runId})`, () => {
    const exists = selectAll(store, 'SELECT 1 FROM runs WHERE run_id = ?', runId).length > 0;
    if (!exists) throw new StoreError(`acquireRunLease: no run "${runId}" in run store ${store.file}; create the run first`);
    const takeover = checkRunLease(store, runId, owner, { ...options, now });
    statement(store, 'UPDATE runs SET lease_token = ?, lease_pid = ?, lease_host = ?, lease_heartbeat_at = ? WHERE run_id = ?').run(
      owner.token,
      owner.pid,
      owner.host,
      now.toISOString(),
      runId,
    );
    return takeover;
  });
}

/** Renews the heartbeat; false when the lease is no longer ours (another process took it over). */
export function renewRunLease(store: Store, runId: string, token: string, now: Date = new Date()): boolean {
  const result = writeTransaction(store, `renewRunLease(${runId})`, () =>
    statement(store, 'UPDATE runs SET lease_heartbeat_at = ? WHERE run_id = ? AND lease_token = ?').run(now.toISOString(), runId, token),
  );
  return result.changes > 0;
}

/** Gives the lease up; false when it was not ours any more. */
export function releaseRunLease(store: Store, runId: string, token: string): boolean {
  const result = writeTransaction(store, `releaseRunLease(${runId})`, () =>
    statement(
      store,
      'UPDATE runs SET lease_token = NULL, lease_pid = NULL, lease_host = NULL, lease_heartbeat_at = NULL WHERE run_id = ? AND lease_token = ?',
    ).run(runId, token),
  );
  return result.changes > 0;
}
