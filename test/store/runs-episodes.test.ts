import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors/index.js';
import {
  createRun,
  episodesForRun,
  finishEpisode,
  finishRun,
  finishedTaskIds,
  getEpisode,
  getRun,
  listRuns,
  openStore,
  recordModelCall,
  reopenRun,
  runSummary,
  startEpisode,
  type Store,
} from '../../src/store/index.js';
import type { PredictionRecord } from '../../src/tasks/schemas.js';
import { tempStoreFile } from './temp-store.js';

function freshStore(): Store {
  return openStore(tempStoreFile());
}

function run(store: Store, runId = 'run-1', startedAt = new Date('2025-01-02T03:04:05.000Z')) {
  return createRun(store, {
    runId,
    modelSpec: 'openai:gpt-4o',
    modelLabel: 'gpt-4o',
    startedAt,
    configHash: 'c0ffee',
    gitCommit: 'abc123',
    packageVersions: { openai: '6.30.1', '@modelcontextprotocol/sdk': '1.32.2' },
    switches: { M3_TASK_TIMEOUT: 1800, M3_MERGE_PREPARE_WORK: true },
    toolsHash: 'f00d',
    toolSurface: { 'vision-ocr': 'aa11', weather: 'bb22' },
    manifest: { assets: [{ path: 'media/a.jpg', sha256: '00ff' }] },
    seed: 7,
    taskFile: 'json/tasks_fuzzy.json',
    gtFile: 'json/test_mcp_GT.json',
  });
}

const prediction: PredictionRecord = {
  id: 't1',
  image: 'media/t1.jpg',
  type: 'ocr',
  question: 'What does the sign say?',
  steps: [{ step: 1, calls: [{ name: 'vision-ocr/read_text', arguments: { path: 'media/t1.jpg' }, result: 'STOP' }] }],
  num_step: 1,
  max_num_concurrent: 1,
  final_reply: 'The sign says STOP.',
  dialogue: [{ prepare: '', work: { tool_calls: [{ name: 'vision-ocr/read_text', arguments: { path: 'media/t1.jpg' } }] }, end: 'yes' }],
};

describe('runs', () => {
  it('stores every provenance field and reads it back typed', () => {
    const store = freshStore();
    const created = run(store);
    expect(created).toMatchObject({
      runId: 'run-1',
      status: 'running',
      startedAt: '2025-01-02T03:04:05.000Z',
      finishedAt: null,
      packageVersions: { openai: '6.30.1' },
      switches: { M3_TASK_TIMEOUT: 1800, M3_MERGE_PREPARE_WORK: true },
      toolSurface: { 'vision-ocr': 'aa11', weather: 'bb22' },
      manifest: { assets: [{ path: 'media/a.jpg', sha256: '00ff' }] },
      seed: 7,
      gtFile: 'json/test_mcp_GT.json',
    });
    const finished = finishRun(store, 'run-1', 'finished', new Date('2025-01-02T04:00:00.000Z'));
    expect(finished.status).toBe('finished');
    expect(finished.finishedAt).toBe('2025-01-02T04:00:00.000Z');
    expect(reopenRun(store, 'run-1')).toMatchObject({ status: 'running', finishedAt: null });
    expect(getRun(store, 'missing')).toBeUndefined();
    store.close();
  });

  it('rejects a duplicate run id and bad input with messages that say what to do', () => {
    const store = freshStore();
    run(store);
    expect(() => run(store)).toThrow(/run id "run-1" already exists; choose another M3_RUN_ID/);
    expect(() => createRun(store, { runId: ' ', modelSpec: 'a:b', modelLabel: 'b' })).toThrow(/createRun: at \$\.runId: expected a non-empty run id/);
    expect(() => finishRun(store, 'nope', 'failed')).toThrow(/finishRun: no run "nope"/);
    expect(() => finishRun(store, 'run-1', 'running' as never)).toThrow(StoreError);
    store.close();
  });

  it('lists runs newest first with filters', () => {
    const store = freshStore();
    run(store, 'old', new Date('2024-01-01T00:00:00Z'));
    run(store, 'new', new Date('2025-06-01T00:00:00Z'));
    createRun(store, { runId: 'other', modelSpec: 'anthropic:claude', modelLabel: 'claude', startedAt: new Date('2025-03-01T00:00:00Z') });
    finishRun(store, 'old', 'finished');
    expect(listRuns(store).map((r) => r.runId)).toEqual(['new', 'other', 'old']);
    expect(listRuns(store, { modelLabel: 'gpt-4o' }).map((r) => r.runId)).toEqual(['new', 'old']);
    expect(listRuns(store, { status: 'finished' }).map((r) => r.runId)).toEqual(['old']);
    expect(listRuns(store, { limit: 1 }).map((r) => r.runId)).toEqual(['new']);
    store.close();
  });
});

describe('episodes', () => {
  it('numbers attempts per (task, model, trial) and refuses an episode of an unknown run', () => {
    const store = freshStore();
    run(store);
    const first = startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'openai:gpt-4o' });
    const second = startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'openai:gpt-4o' });
    const otherTrial = startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'openai:gpt-4o', trial: 2 });
    const otherModel = startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'anthropic:claude' });
    expect([first, second, otherTrial, otherModel].map((id) => getEpisode(store, id)?.attempt)).toEqual([1, 2, 1, 1]);
    expect(getEpisode(store, first)?.status).toBe('running');
    expect(() => startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'openai:gpt-4o', attempt: 2 })).toThrow(/attempt 2 already exists/);
    expect(() => startEpisode(store, { runId: 'ghost', taskId: 't1', model: 'm' })).toThrow(/run "ghost" does not exist; call createRun\(\) first/);
    store.close();
  });

  it('finishes once, with the prediction record and totals, and checks the failure kind', () => {
    const store = freshStore();
    run(store);
    const id = startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'openai:gpt-4o' });
    expect(() => finishEpisode(store, id, { status: 'timeout' })).toThrow(/status "timeout" needs failureKind/);
    expect(() => finishEpisode(store, id, { status: 'ok', failureKind: 'infra' })).toThrow(/contradicts status "ok"/);
    expect(() => finishEpisode(store, id, { status: 'ok', prediction: { id: 't1', steps: 'none' } })).toThrow(/finishEpisode\(\d+\): at \$\.prediction\.steps/);
    finishEpisode(store, id, {
      status: 'ok',
      rounds: 1,
      toolCallCount: 1,
      usage: { inputTokens: 1200, outputTokens: 80, cachedTokens: 1000 },
      costUsd: 0.0042,
      prediction,
      finishedAt: new Date('2025-01-02T03:05:00.000Z'),
    });
    const done = getEpisode(store, id);
    if (!done) throw new Error('episode missing');
    expect(done).toMatchObject({ status: 'ok', failureKind: null, rounds: 1, costUsd: 0.0042, finishedAt: '2025-01-02T03:05:00.000Z' });
    expect(done.usage).toEqual({ inputTokens: 1200, outputTokens: 80, cachedTokens: 1000 });
    expect(done.prediction).toEqual(prediction);
    expect(() => finishEpisode(store, id, { status: 'model_failure' })).toThrow(/already finished with status "ok"/);
    expect(() => finishEpisode(store, 9999, { status: 'ok' })).toThrow(/no episode 9999/);
    expect(getEpisode(store, id)?.status).toBe('ok');
    store.close();
  });

  it('finishedTaskIds: model verdicts count, infra failures and interrupted episodes do not', () => {
    const store = freshStore();
    run(store);
    const model = 'openai:gpt-4o';
    const finish = (
      taskId: string,
      status: 'ok' | 'model_failure' | 'infra_failure' | 'timeout' | 'running',
      extra: { failureKind?: 'model' | 'infra'; trial?: number; model?: string } = {},
    ) => {
      const id = startEpisode(store, { runId: 'run-1', taskId, model: extra.model ?? model, trial: extra.trial ?? 1 });
      if (status !== 'running') finishEpisode(store, id, { status, ...(extra.failureKind ? { failureKind: extra.failureKind } : {}) });
    };
    finish('ok-task', 'ok');
    finish('bad-answer', 'model_failure');
    finish('looped', 'timeout', { failureKind: 'model' });
    finish('server-hung', 'timeout', { failureKind: 'infra' });
    finish('server-died', 'infra_failure');
    finish('killed', 'running');
    finish('retried', 'infra_failure');
    finish('retried', 'ok');
    finish('trial-two-only', 'ok', { trial: 2 });
    finish('other-model', 'ok', { model: 'anthropic:claude' });
    expect(finishedTaskIds(store, 'run-1', model)).toEqual(['bad-answer', 'looped', 'ok-task', 'retried']);
    expect(finishedTaskIds(store, 'run-1', model, { trial: 2 })).toEqual(['trial-two-only']);
    expect(finishedTaskIds(store, 'run-1', 'anthropic:claude')).toEqual(['other-model']);
    expect(finishedTaskIds(store, 'other-run', model)).toEqual([]);
    expect(episodesForRun(store, 'run-1', { taskId: 'retried' }).map((e) => [e.attempt, e.status])).toEqual([
      [1, 'infra_failure'],
      [2, 'ok'],
    ]);
    expect(episodesForRun(store, 'run-1', { status: 'running' }).map((e) => e.taskId)).toEqual(['killed']);
    expect(episodesForRun(store, 'run-1', { model: 'anthropic:claude' })).toHaveLength(1);
    store.close();
  });

  it('runSummary counts statuses, failure kinds, tokens, cost and retried model calls per model', () => {
    const store = freshStore();
    run(store);
    const usage = (n: number) => ({ inputTokens: n * 100, outputTokens: n * 10, cachedTokens: n });
    const a = startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'm-a' });
    finishEpisode(store, a, { status: 'ok', rounds: 2, toolCallCount: 3, usage: usage(1), costUsd: 0.5 });
    const b = startEpisode(store, { runId: 'run-1', taskId: 't2', model: 'm-a' });
    finishEpisode(store, b, { status: 'timeout', failureKind: 'infra', rounds: 1, usage: usage(2) });
    const c = startEpisode(store, { runId: 'run-1', taskId: 't1', model: 'm-b' });
    finishEpisode(store, c, { status: 'model_failure', errorCode: 'provider_invalid_request', usage: usage(3), costUsd: 0.25 });
    startEpisode(store, { runId: 'run-1', taskId: 't3', model: 'm-b' });
    const attempts = [
      { attempt: 1, startedAt: 1, latencyMs: 5, ok: false, errorClass: 'rate_limit' as const, waitMs: 100 },
      { attempt: 2, startedAt: 2, latencyMs: 5, ok: true },
    ];
    recordModelCall(store, { episodeId: a, round: 1, purpose: 'work', attempts });
    recordModelCall(store, { episodeId: a, round: 2, purpose: 'work', attempts: attempts.slice(1) });
    recordModelCall(store, { episodeId: c, round: 1, purpose: 'work', attempts });
    const summary = runSummary(store, 'run-1');
    expect(summary).toMatchObject({
      runId: 'run-1',
      episodes: 4,
      tasks: 3,
      byStatus: { ok: 1, model_failure: 1, infra_failure: 0, timeout: 1, running: 1 },
      failures: { model: 1, infra: 1 },
      usage: { inputTokens: 600, outputTokens: 60, cachedTokens: 6 },
      costUsd: 0.75,
      rounds: 3,
      toolCalls: 3,
      modelCalls: 3,
      retriedModelCalls: 2,
    });
    expect(summary.models.map((m) => [m.model, m.episodes, m.tasks, m.modelCalls, m.retriedModelCalls, m.failures])).toEqual([
      ['m-a', 2, 2, 2, 1, { model: 0, infra: 1 }],
      ['m-b', 2, 2, 1, 1, { model: 1, infra: 0 }],
    ]);
    expect(() => runSummary(store, 'nope')).toThrow(/runSummary: no run "nope"/);
    store.close();
  });
});
