// Ctrl-C during `m3 run`, on a real CLI child process: the first SIGINT stops gracefully (the
// attempts in flight are recorded as interrupted, nothing stays `running`, the prediction file
// is written, the lease is released, the message says how to resume, exit 130) and a resume
// then finishes every task once; a second SIGINT while the stop is still closing servers exits
// at once.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { episodesForRun, getRun, getRunLease } from '../../src/store/index.js';
import { killGroup, readStore, startM3, waitFor, writeGateSuite, type M3Child } from '../support/m3-child.js';

const children: M3Child[] = [];
afterAll(() => children.forEach(killGroup));

function setUp(serverEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-interrupt-'));
  const suite = writeGateSuite(dir, 5, serverEnv);
  const resultsDir = path.join(dir, 'results');
  const storeFile = path.join(dir, 'store.sqlite');
  const start = (extra: string[]) => {
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
      'int',
      '--concurrency',
      '2',
      ...extra,
    ]);
    children.push(started);
    return started;
  };
  const running = () => readStore(storeFile, (store) => (episodesForRun(store, 'int.replay-gt', { status: 'running' }).length >= 2 ? true : undefined));
  return { suite, resultsDir, storeFile, start, running };
}

function runState(storeFile: string) {
  const state = readStore(storeFile, (store) => ({
    run: getRun(store, 'int.replay-gt'),
    lease: getRunLease(store, 'int.replay-gt'),
    episodes: episodesForRun(store, 'int.replay-gt'),
  }));
  if (!state) throw new Error(`${storeFile} is not readable`);
  return state;
}

describe('m3 run and Ctrl-C', () => {
  it('stops gracefully on the first SIGINT and resumes to every task exactly once', async () => {
    const { suite, resultsDir, storeFile, start, running } = setUp();
    const first = start(['--overwrite']);
    await waitFor('two attempts in flight', running, first);
    process.kill(first.pid, 'SIGINT');
    const ended = await first.exit;
    expect(ended.code, first.output()).toBe(130);
    expect(first.output()).toContain('SIGINT: stopping');
    expect(first.output()).toMatch(/run int\.replay-gt stopped by SIGINT: 0 task\(s\) finished, 2 interrupted, 3 not started/);
    expect(first.output()).toContain('Resume with the same command plus --resume --run-id int');

    const predictionFile = path.join(resultsDir, 'replay-gt_test_mcp_fuzzy.json');
    expect(JSON.parse(readFileSync(predictionFile, 'utf8'))).toEqual([]);
    const afterStop = runState(storeFile);
    expect(afterStop.run?.status).toBe('interrupted');
    expect(afterStop.lease).toBeUndefined();
    expect(afterStop.episodes.map((episode) => [episode.status, episode.errorCode])).toEqual([
      ['infra_failure', 'interrupted'],
      ['infra_failure', 'interrupted'],
    ]);

    writeFileSync(suite.gate, 'open');
    const resumed = start(['--resume']);
    expect((await resumed.exit).code, resumed.output()).toBe(0);
    const ids = (JSON.parse(readFileSync(predictionFile, 'utf8')) as Array<{ id: string }>).map((record) => record.id);
    expect(ids.sort()).toEqual([...suite.taskIds].sort());
    const afterResume = runState(storeFile);
    expect(afterResume.run?.status).toBe('finished');
    expect(
      afterResume.episodes
        .filter((episode) => episode.status === 'ok')
        .map((episode) => episode.taskId)
        .sort(),
    ).toEqual([...suite.taskIds].sort());
    expect(afterResume.episodes.filter((episode) => episode.status === 'running')).toEqual([]);
  }, 180_000);

  it('exits at once on a second SIGINT while the stop is still closing the servers', async () => {
    // The stubborn gate server ignores stdin's end and SIGTERM, so closing it takes seconds.
    const { start, running } = setUp({ GATE_STUBBORN: '1' });
    const child = start(['--overwrite']);
    await waitFor('two attempts in flight', running, child);
    process.kill(child.pid, 'SIGINT');
    // Both attempts recorded as interrupted: the batch is over and the servers are closing.
    await waitFor('the interrupted attempts', () => (child.output().split('infra_failure: stopped by SIGINT').length > 2 ? true : undefined), child);
    process.kill(child.pid, 'SIGINT');
    const ended = await child.exit;
    expect(ended.code, child.output()).toBe(130);
    expect(child.output()).toContain('second SIGINT: exiting now');
  }, 180_000);
});
