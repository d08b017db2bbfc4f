// The runs list answers without running the bootstrap (issue 33 leftovers): the viewer's first
// answer for a run says its intervals are being computed (in a worker thread,
// src/view/interval-jobs.ts); once done, every answer carries the kept intervals, equal to a direct
// computation (src/view/cell-stats.ts, as `m3 summary`); when the run's files change, the old
// figure is only ever shown marked outdated while the new one is computed.
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { runIntervals } from '../../src/view/cell-stats.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { buildRun, type BuiltRun } from './run-builder.js';

interface Answer {
  state?: string;
  computedAt?: string;
  missing?: string;
  outdated?: { outdated: boolean; passAt1: unknown } | null;
  [key: string]: unknown;
}

// Hang guard for the worker thread's start (tsx compiles its modules) and the bootstrap on a loaded machine.
const computeGuard = { timeout: 240_000, interval: 200 };

describe('the run viewer computes intervals off the request path', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-intervals-'));
  let built: BuiltRun;
  let view: ViewServer;

  const get = async <T>(route: string): Promise<T> => {
    const response = await fetch(new URL(route, view.url));
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const runsListIntervals = async () => (await get<{ runs: Array<{ runId: string; intervals: Answer }> }>('/api/runs')).runs[0]?.intervals;
  const runIntervalsAnswer = () => get<Answer>(`/api/runs/${built.runId}/intervals`);

  beforeAll(async () => {
    built = await buildRun(dir, 120, 'interval-run');
    view = await startViewServer({ store: built.store, resultsDir: built.resultsDir, port: 0, logger: createLogger('error') });
  }, 180_000);

  afterAll(async () => {
    await view?.close();
    built?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers "computing" first, then the kept intervals, equal to a direct computation', async () => {
    const first = await runsListIntervals();
    expect(first).toMatchObject({ state: 'computing', outdated: null });
    expect(first?.startedAt).toEqual(expect.any(String));
    await expect.poll(async () => (await runsListIntervals())?.state, computeGuard).toBe('ready');
    const ready = await runIntervalsAnswer();
    // Through JSON, as the page receives it (a NaN bound would be null on both sides).
    const direct = JSON.parse(JSON.stringify(runIntervals(built.resultsDir, built.runId))) as Answer;
    expect(direct.missing).toBeUndefined();
    expect(ready).toEqual({ ...direct, state: 'ready', computedAt: expect.any(String) });
    // Kept: asked again, the same computation answers (its time stamp unchanged).
    expect((await runsListIntervals())?.computedAt).toBe(ready.computedAt);
  });

  it('recomputes when the run files change, showing the earlier figure only as outdated', async () => {
    const before = await runIntervalsAnswer();
    expect(before.state).toBe('ready');
    const stepFile = path.join(built.resultsDir, 'm', 'results_eval.json');
    const later = new Date(Date.now() + 60_000);
    utimesSync(stepFile, later, later);
    const changed = await runIntervalsAnswer();
    expect(changed.state).toBe('computing');
    expect(changed.outdated).toMatchObject({ outdated: true, passAt1: before.passAt1 });
    await expect.poll(async () => (await runIntervalsAnswer()).state, computeGuard).toBe('ready');
    const after = await runIntervalsAnswer();
    expect(after.computedAt).not.toBe(before.computedAt);
    expect(after.passAt1).toEqual(before.passAt1);
  });

  it('says why when a run has nothing to compute from, at once', async () => {
    const response = await fetch(new URL('/api/runs/no-such-run/intervals', view.url));
    expect(response.status).toBe(404);
  });
});
