// The viewer's data on a real SQLite store and real evaluation files in a temp results folder:
// the per-episode tool facets the run page filters on, the run and runs pages (mocked share,
// progress of a run in flight, judge scores, pass by the success rule) and the intervals and
// paired difference read through the batch manifest, checked against numbers worked by hand.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, finishEpisode, finishRun, openStore, recordToolCalls, startEpisode, toolFacetsForRun, type Store } from '../../src/store/index.js';
import { pairedDifference, runIntervals } from '../../src/view/cell-stats.js';
import { comparePage, runPage, runsPage, runsStamp } from '../../src/view/pages.js';
import { taskPage } from '../../src/view/task-page.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-data-'));
const resultsDir = path.join(dir, 'results');
let store: Store;
const episodeIds: Record<string, number> = {};

const tasks = ['t1', 't2', 't3', 't4'];
// Per task (recall, precision) of the two runs: A passes t1 t2 t3, B passes t1 only.
const scores: Record<string, Record<string, [number, number]>> = {
  a: { t1: [1, 1], t2: [1, 1], t3: [1, 1], t4: [0.5, 1] },
  b: { t1: [1, 1], t2: [0.5, 0.5], t3: [1, 0.5], t4: [0, 0] },
};

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

function perId(id: string, [recall, precision]: [number, number]) {
  return {
    id,
    total_gt_calls: 2,
    total_pred_calls: 2,
    matched: Math.round(recall * 2),
    recall,
    precision,
    avg_sim_all_cov: recall,
    avg_sim_strong_cov: recall,
    step_coherence_cov: 1,
    order_consistency_cov: 1,
    merge_purity_cov: 1,
    details: {},
  };
}

function writeOutputs(label: string): void {
  writeJson(
    path.join(resultsDir, `${label}_test_mcp_fuzzy.json`),
    tasks.map((id) => ({ id, question: 'q', steps: [], final_reply: `reply ${id}` })),
  );
  writeJson(path.join(resultsDir, label, 'results_eval.json'), {
    aggregate: { recall: 0.5, precision: 0.5, avg_sim_all_cov: 0.5 },
    per_id: tasks.map((id) => perId(id, scores[label]![id]!)),
  });
}

function seedRun(label: 'a' | 'b'): void {
  // Run A recorded its tool surface in the manifest; run B predates it (read as m3bench).
  const surface = label === 'a' ? { toolsHash: 'cd'.repeat(32), manifest: { toolSurface: { name: 'reference', hash: 'cd'.repeat(32) } } } : {};
  createRun(store, { runId: `run-${label}`, modelSpec: `replay:${label}`, modelLabel: label, batchId: 'batch-1', condition: 'baseline', ...surface });
  for (const taskId of tasks) {
    const id = startEpisode(store, { runId: `run-${label}`, taskId, model: `replay:${label}` });
    episodeIds[`${label}/${taskId}`] = id;
    finishEpisode(store, id, { status: 'ok', toolCallCount: 2, usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 } });
  }
  finishRun(store, `run-${label}`, 'finished');
}

beforeAll(() => {
  store = openStore(path.join(resultsDir, 'm3bench.sqlite'));
  seedRun('a');
  seedRun('b');
  // t1 of run A: a real weather call, and a map call served by the template tier; t2: a fixture.
  recordToolCalls(store, [
    { episodeId: episodeIds['a/t1']!, round: 1, callIndex: 0, canonicalName: 'weather/get_weather', arguments: {}, resultText: 'sunny' },
    {
      episodeId: episodeIds['a/t1']!,
      round: 1,
      callIndex: 1,
      canonicalName: 'google-maps/geocode',
      arguments: {},
      resultText: '{"mocked":true}',
      fallback: { tier: 'template', originalErrorCode: 'upstream_network' },
    },
    {
      episodeId: episodeIds['a/t2']!,
      round: 1,
      callIndex: 0,
      canonicalName: 'amazon/search_products',
      arguments: {},
      resultText: 'x',
      fallback: { tier: 'fixture', originalErrorCode: 'missing_key' },
    },
    {
      episodeId: episodeIds['a/t3']!,
      round: 1,
      callIndex: 0,
      canonicalName: 'math/add',
      arguments: {},
      resultText: 'bad',
      isError: true,
      errorCode: 'invalid_arguments',
    },
  ]);
  for (const label of ['a', 'b']) writeOutputs(label);
  writeJson(path.join(resultsDir, 'a', 'taskcompletion.json'), {
    pre_id: { t1: { final: 0.8, judges: [{ name: 'judge-1', score: 0.8, raw: 8 }] } },
    judge_failures: [{ id: 't2', metric: 'task_completion', judge: 'judge-1', reason: 'no usable score' }],
  });
  const cell = (label: string) => ({
    model: `replay:${label}`,
    modelLabel: label,
    condition: 'baseline',
    label,
    runId: `run-${label}`,
    trials: [{ trial: 1, seed: null, label, predictions: `${label}_test_mcp_fuzzy.json`, manifest: `${label}_test_mcp_fuzzy.manifest.json` }],
  });
  writeJson(path.join(resultsDir, 'batch-1.batch.json'), {
    kind: 'm3bench-batch',
    version: 1,
    batchId: 'batch-1',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    tasksFile: 'tasks.json',
    gtFile: null,
    trials: 1,
    conditions: ['baseline'],
    seed: null,
    store: 'm3bench.sqlite',
    cells: [cell('a'), cell('b')],
  });
});
afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('viewer data', () => {
  it('collects per episode the tools, tiers, mocked calls and tool error codes', () => {
    const facets = toolFacetsForRun(store, 'run-a');
    expect(facets.get(episodeIds['a/t1']!)).toEqual({
      episodeId: episodeIds['a/t1'],
      tools: ['google-maps/geocode', 'weather/get_weather'],
      tiers: ['template'],
      mockedCalls: 1,
      errorCodes: [],
      uncodedErrors: 0,
    });
    expect(facets.get(episodeIds['a/t2']!)?.tiers).toEqual(['fixture']);
    expect(facets.get(episodeIds['a/t3']!)?.errorCodes).toEqual(['invalid_arguments']);
    expect(facets.has(episodeIds['a/t4']!)).toBe(false);
    expect(toolFacetsForRun(store, 'run-b').size).toBe(0);
  });

  it('gives the run page its facets, judge scores and pass by the success rule', () => {
    const { run, tasks: rows } = runPage({ store, resultsDir }, 'run-a');
    expect(run.toolSurface).toEqual({ name: 'reference', hash: 'cd'.repeat(32) });
    expect(runPage({ store, resultsDir }, 'run-b').run.toolSurface).toEqual({ name: 'm3bench', hash: null });
    const byId = new Map(rows.map((row) => [row.taskId, row]));
    expect(byId.get('t1')).toMatchObject({ servers: ['google-maps', 'weather'], tiers: ['template'], mockedCalls: 1, judgeScore: 0.8, passed: true });
    expect(byId.get('t3')).toMatchObject({ toolErrorCodes: ['invalid_arguments'], judgeScore: null, passed: true });
    expect(byId.get('t4')?.passed).toBe(false);
    // The table's passes are the ones the run's pass@1 counts (one rule for both).
    const intervals = run.intervals as { passAt1: { estimate: number }; tasks: number };
    expect(rows.filter((row) => row.passed).length).toBe(Math.round(intervals.passAt1.estimate * intervals.tasks));
    // Two of the run's four calls were served by the fallback layer.
    expect(run.mocked).toEqual({ calls: 4, mockedCalls: 2, share: 0.5, byTier: { template: 1, fixture: 1 } });
    expect(run).toMatchObject({ condition: 'baseline', trials: 1, batchId: 'batch-1', progress: null });
  });

  it('states the intervals of a run from its batch cell, and why when there is none', () => {
    const intervals = runIntervals(resultsDir, 'run-a');
    if ('missing' in intervals) throw new Error(intervals.missing);
    expect(intervals.passAt1.estimate).toBeCloseTo(3 / 4, 12);
    expect(intervals.recall.estimate).toBeCloseTo(3.5 / 4, 12);
    expect(intervals.passAt1.low).toBeLessThanOrEqual(0.75);
    expect(intervals.passAt1.high).toBe(1);
    expect(runIntervals(resultsDir, 'run-x')).toEqual({ missing: expect.stringContaining('run-x') });
  });

  it('compares two runs: B - A paired difference, the sign test and the flips', () => {
    const paired = pairedDifference(resultsDir, 'run-a', resultsDir, 'run-b');
    if ('missing' in paired) throw new Error(paired.missing);
    // pass: A 3/4, B 1/4; B is worse on t2 and t3, tied on t1 and t4.
    expect(paired.pass.difference.estimate).toBeCloseTo(-0.5, 12);
    expect(paired.pass.signTest).toMatchObject({ wins: 0, losses: 2, ties: 2, pValue: 0.5 });
    expect(paired.recall.difference.estimate).toBeCloseTo((2.5 - 3.5) / 4, 12);
    const page = comparePage({ store, resultsDir }, 'run-a', 'run-b');
    expect(page.rows.filter((row) => row.flip === 'broken').map((row) => row.taskId)).toEqual(['t2', 't3']);
  });

  it('shows the progress of a run in flight, and the run list stamp changes with a new run and with its end', () => {
    const before = runsStamp({ store, resultsDir }).stamp;
    expect(runsPage({ store, resultsDir }).stamp).toBe(before);
    createRun(store, { runId: 'run-live', modelSpec: 'replay:a', modelLabel: 'live' });
    const started = runsStamp({ store, resultsDir }).stamp;
    expect(started).not.toBe(before);
    expect(runsStamp({ store, resultsDir }).stamp).toBe(started);
    const done = startEpisode(store, { runId: 'run-live', taskId: 't1', model: 'replay:a' });
    finishEpisode(store, done, { status: 'ok' });
    startEpisode(store, { runId: 'run-live', taskId: 't2', model: 'replay:a' });
    const live = runsPage({ store, resultsDir }).runs.find((run) => run.runId === 'run-live');
    expect(live?.progress).toMatchObject({ finished: 1, running: 1 });
    expect(live?.intervals).toEqual({ missing: expect.stringContaining('run-live') });
    expect(runsStamp({ store, resultsDir }).stamp).toBe(started);
    finishRun(store, 'run-live', 'failed');
    expect(runsStamp({ store, resultsDir }).stamp).not.toBe(started);
  });

  it('reads each trial of a k = 2 run from its own evaluation folder', () => {
    createRun(store, { runId: 'run-k2', modelSpec: 'replay:c', modelLabel: 'c', trials: 2 });
    for (const trial of [1, 2]) {
      const id = startEpisode(store, { runId: 'run-k2', taskId: 't1', model: 'replay:c', trial });
      finishEpisode(store, id, { status: 'ok' });
      writeJson(path.join(resultsDir, `c.trial-${trial}`, 'results_eval.json'), { aggregate: {}, per_id: [perId('t1', trial === 1 ? [1, 1] : [0.5, 1])] });
    }
    writeJson(path.join(resultsDir, 'c.trial-2', 'taskcompletion.json'), { pre_id: { t1: { final: 0.3, judges: [] } } });
    const rows = runPage({ store, resultsDir }, 'run-k2').tasks;
    // No batch manifest names this run, so task success is not known (null, never guessed from the
    // step layer); the step layer's exact match is shown under its own name.
    expect(rows.map((row) => [row.taskId, row.trial, row.step?.recall, row.allGtCallsMatched, row.passed])).toEqual([
      ['t1', 1, 1, true, null],
      ['t1', 2, 0.5, false, null],
    ]);
    expect(taskPage({ store, resultsDir }, 'run-k2', 't1', 2).final.judges?.final).toBe(0.3);
    expect(taskPage({ store, resultsDir }, 'run-k2', 't1', 1).final.judges).toBeNull();
    expect(() => taskPage({ store, resultsDir }, 'run-k2', 't1', 3)).toThrow(/trial 3/);
  });
});
