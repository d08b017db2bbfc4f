// One writer per run: two real `m3 run --resume` processes on the same run id. The first holds
// the run's lease, so the second is refused with a clear message instead of running the same
// tasks again; a lease left by a SIGKILLed owner is taken over, and the attempts it left
// `running` are closed as interrupted. Tasks wait on a gate file, so the test decides exactly
// how long the first process is busy.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { episodesForRun, getRunLease, type RunLease, type Store } from '../../src/store/index.js';
import { killGroup, readStore, startM3, waitFor, writeGateSuite, type M3Child } from '../support/m3-child.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-lease-'));
const suite = writeGateSuite(dir, 6);
const resultsDir = path.join(dir, 'results');
const storeFile = path.join(dir, 'store.sqlite');
const runId = 'lease.replay-gt';
const children: M3Child[] = [];

function startRun(extra: string[]): M3Child {
  const started = startM3([
    'run',
    '--tasks',
    suite.tasksFile,
    '--config',
    suite.configFile,
    '--run-dir',
    resultsDir,
    '--store',
    storeFile,
    '--run-id',
    'lease',
    '--concurrency',
    '2',
    ...extra,
  ]);
  children.push(started);
  return started;
}

const withStore = <T>(read: (store: Store) => T): T | undefined => readStore(storeFile, read);
const leaseNow = (): RunLease | undefined => withStore((store) => getRunLease(store, runId));
const runningEpisodes = (): number => withStore((store) => episodesForRun(store, runId, { status: 'running' }).length) ?? 0;

afterAll(() => children.forEach(killGroup));

describe('the run lease', () => {
  it('takes over a SIGKILLed owner, refuses a concurrent --resume, and runs every task once', async () => {
    // 1. An owner that holds the lease with two attempts in flight, then dies by SIGKILL.
    const killed = startRun(['--overwrite']);
    const firstLease = await waitFor('the first lease', () => leaseNow(), killed);
    expect(firstLease.pid).toBe(killed.pid);
    await waitFor('attempts in flight', () => (runningEpisodes() >= 2 ? true : undefined), killed);
    killGroup(killed);
    await killed.exit;
    expect(leaseNow()?.pid).toBe(killed.pid); // the stale lease stays behind

    // 2. A resume takes the stale lease over and closes the dead owner's attempts.
    const owner = startRun(['--resume']);
    await waitFor('the takeover', () => (leaseNow()?.pid === owner.pid ? true : undefined), owner);

    // 3. A second, concurrent resume of the same run is refused while the owner works.
    const intruder = startRun(['--resume']);
    expect((await intruder.exit).code, intruder.output()).toBe(2);
    expect(intruder.output()).toContain(`run "${runId}" is being written by another m3 process (pid ${owner.pid}`);
    expect(leaseNow()?.pid).toBe(owner.pid);

    // 4. Open the gate: the owner finishes every task exactly once and gives the lease up.
    writeFileSync(suite.gate, 'open');
    expect((await owner.exit).code, owner.output()).toBe(0);
    expect(owner.output()).toContain(`took over the lease of pid ${killed.pid}`);
    expect(leaseNow()).toBeUndefined();

    const ids = (JSON.parse(readFileSync(path.join(resultsDir, 'replay-gt_test_mcp_fuzzy.json'), 'utf8')) as Array<{ id: string }>).map((record) => record.id);
    expect(ids.sort()).toEqual([...suite.taskIds].sort());
    const episodes = withStore((store) => episodesForRun(store, runId)) ?? [];
    const ok = episodes.filter((episode) => episode.status === 'ok').map((episode) => episode.taskId);
    expect(ok.sort()).toEqual([...suite.taskIds].sort());
    expect(episodes.filter((episode) => episode.status === 'running')).toEqual([]);
    const interrupted = episodes.filter((episode) => episode.errorCode === 'interrupted');
    expect(interrupted.length).toBeGreaterThanOrEqual(2);
    expect(interrupted.every((episode) => episode.status === 'infra_failure')).toBe(true);
  }, 240_000);
});
