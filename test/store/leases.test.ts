// The run lease's rules, on a real SQLite file: who may take a lease, when it is stale, and
// that only the holder renews or releases it.
import { describe, expect, it } from 'vitest';
import { acquireRunLease, createRun, getRunLease, openStore, releaseRunLease, renewRunLease } from '../../src/store/index.js';
import { tempStoreFile } from './temp-store.js';

const me = { token: 'token-a', pid: 1001, host: 'host-a' };
const other = { token: 'token-b', pid: 1002, host: 'host-a' };
const remote = { token: 'token-c', pid: 1003, host: 'host-b' };
const alive = () => true;
const dead = () => false;

function storeWithRun() {
  const store = openStore(tempStoreFile());
  createRun(store, { runId: 'r', modelSpec: 'replay:gt', modelLabel: 'replay-gt' });
  return store;
}

describe('run leases', () => {
  it('a free run is taken; a live holder refuses another owner, naming pid, host and heartbeat age', () => {
    const store = storeWithRun();
    const start = new Date('2026-01-01T00:00:00Z');
    expect(acquireRunLease(store, 'r', me, { now: start, isAlive: alive })).toBeUndefined();
    expect(getRunLease(store, 'r')).toMatchObject({ runId: 'r', pid: 1001, host: 'host-a', heartbeatAt: start.toISOString() });
    expect(() => acquireRunLease(store, 'r', other, { now: new Date(start.getTime() + 3000), isAlive: alive })).toThrow(
      /run "r" is being written by another m3 process \(pid 1001 on host-a, last heartbeat 3 s ago\)/,
    );
    // The owner itself may take it again (idempotent).
    expect(acquireRunLease(store, 'r', me, { now: start, isAlive: alive })).toBeUndefined();
    store.close();
  });

  it('takes over when the owner is a dead pid on this host, or after staleAfterMs without a heartbeat', () => {
    const store = storeWithRun();
    const start = new Date('2026-01-01T00:00:00Z');
    acquireRunLease(store, 'r', me, { now: start });
    const fromDead = acquireRunLease(store, 'r', other, { now: new Date(start.getTime() + 1000), isAlive: dead });
    expect(fromDead?.reason).toBe('pid 1001 on host-a is not running');
    expect(getRunLease(store, 'r')?.token).toBe('token-b');
    // Another host's pid cannot be checked: only the heartbeat age counts.
    expect(() => acquireRunLease(store, 'r', remote, { now: new Date(start.getTime() + 20_000), isAlive: dead, staleAfterMs: 30_000 })).toThrow(
      /being written/,
    );
    const fromSilent = acquireRunLease(store, 'r', remote, { now: new Date(start.getTime() + 45_000), isAlive: dead, staleAfterMs: 30_000 });
    expect(fromSilent?.reason).toBe('no heartbeat for 44 s');
    store.close();
  });

  it('only the holder renews and releases; a missing run is an error', () => {
    const store = storeWithRun();
    acquireRunLease(store, 'r', me);
    expect(renewRunLease(store, 'r', 'token-b')).toBe(false);
    expect(releaseRunLease(store, 'r', 'token-b')).toBe(false);
    expect(renewRunLease(store, 'r', 'token-a')).toBe(true);
    expect(releaseRunLease(store, 'r', 'token-a')).toBe(true);
    expect(getRunLease(store, 'r')).toBeUndefined();
    expect(() => acquireRunLease(store, 'absent', me)).toThrow(/no run "absent"/);
    store.close();
  });
});
