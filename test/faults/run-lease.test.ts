// One writer per run: two real `m3 run --resume` processes on the same run id. The first holds
// the run's lease, so the second is refused with a clear message instead of running the same
// tasks again; a lease left by a SIGKILLed owner is taken over, and the attempts it left
// `running` are closed as interrupted. Tasks wait on a gate file, so the test decides exactly
// how long the first process is busy.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodesForRun, getRunLease, openStore, type RunLease } from '../../src/store/index.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-lease-'));
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(dir, 'tasks.json');
const resultsDir = path.join(dir, 'results');
const storeFile = path.join(dir, 'store.sqlite');
const gate = path.join(dir, 'gate-open');
const runId = 'lease.replay-gt';
const taskIds = Array.from({ length: 6 }, (_, i) => `task-${i}`);

writeFileSync(configFile, JSON.stringify({ servers: { gate: { command: 'node', args: ['--import', 'tsx', 'test/support/fixture-servers/gate.ts'] } } }));
writeFileSync(
  tasksFile,
  JSON.stringify(taskIds.map((id) => ({ id, question: `wait for ${id}`, steps: [{ step: 1, calls: [{ name: 'gate/wait', arguments: { file: gate } }] }], final_reply: `done ${id}` }))),
);

interface Started {
  child: ChildProcess;
  exit: Promise<number | null>;
  output: () => string;
}

function startRun(extra: string[]): Started {
  const args = ['--import', 'tsx', 'src/cli/main.ts', 'run', '--tasks', tasksFile, '--config', configFile, '--results-dir', resultsDir, '--store', storeFile, '--run-id', 'lease', '--concurrency', '2', ...extra];
  const child = spawn(process.execPath, args, { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit, output: () => output };
}

function leaseNow(): RunLease | undefined {
  if (!existsSync(storeFile)) return undefined;
  try {
    const store = openStore(storeFile, { readonly: true });
    try {
      return getRunLease(store, runId);
    } finally {
      store.close();
    }
  } catch {
    return undefined; // not migrated yet
  }
}

async function waitFor<T>(what: string, probe: () => T | undefined, started: Started): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const runningEpisodes = () => {
  const store = openStore(storeFile, { readonly: true });
  try {
    return episodesForRun(store, runId, { status: 'running' }).length;
  } finally {
    store.close();
  }
};

describe('the run lease', () => {
  it('takes over a SIGKILLed owner, refuses a concurrent --resume, and runs every task once', async () => {
    // 1. An owner that holds the lease with two attempts in flight, then dies by SIGKILL.
    const killed = startRun(['--overwrite']);
    const firstLease = await waitFor('the first lease', () => leaseNow(), killed);
    expect(firstLease.pid).toBe(killed.child.pid);
    await waitFor('attempts in flight', () => (runningEpisodes() >= 2 ? true : undefined), killed);
    process.kill(-killed.child.pid!, 'SIGKILL');
    await killed.exit;
    expect(leaseNow()?.pid).toBe(killed.child.pid); // the stale lease stays behind

    // 2. A resume takes the stale lease over and closes the dead owner's attempts.
    const owner = startRun(['--resume']);
    await waitFor('the takeover', () => (leaseNow()?.pid === owner.child.pid ? true : undefined), owner);

    // 3. A second, concurrent resume of the same run is refused while the owner works.
    const intruder = startRun(['--resume']);
    const intruderCode = await intruder.exit;
    expect(intruderCode, intruder.output()).toBe(2);
    expect(intruder.output()).toContain(`run "${runId}" is being written by another m3 process (pid ${owner.child.pid}`);
    expect(leaseNow()?.pid).toBe(owner.child.pid);

    // 4. Open the gate: the owner finishes every task exactly once and gives the lease up.
    writeFileSync(gate, 'open');
    expect(await owner.exit, owner.output()).toBe(0);
    expect(owner.output()).toContain(`took over the lease of pid ${killed.child.pid}`);
    expect(leaseNow()).toBeUndefined();

    const ids = (JSON.parse(readFileSync(path.join(resultsDir, 'replay-gt_test_mcp_fuzzy.json'), 'utf8')) as Array<{ id: string }>).map((record) => record.id);
    expect(ids.sort()).toEqual([...taskIds].sort());
    const store = openStore(storeFile, { readonly: true });
    try {
      const episodes = episodesForRun(store, runId);
      const ok = episodes.filter((episode) => episode.status === 'ok').map((episode) => episode.taskId);
      expect(ok.sort()).toEqual([...taskIds].sort());
      expect(episodes.filter((episode) => episode.status === 'running')).toEqual([]);
      const interrupted = episodes.filter((episode) => episode.errorCode === 'interrupted');
      expect(interrupted.length).toBeGreaterThanOrEqual(2);
      expect(interrupted.every((episode) => episode.status === 'infra_failure')).toBe(true);
    } finally {
      store.close();
    }
  }, 240_000);
});
