// The run page's task query on a real run (run-builder.ts: store, batch manifest, the real step
// evaluator): text search over ids, questions, answers, tool names and arguments; each filter
// against the count the builder's rules give; failures first; paging; a bad parameter answered
// with a 400 naming it (real HTTP on loopback).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runOf } from '../../src/view/pages.js';
import { indexedRows } from '../../src/view/task-index.js';
import { queryTasks, taskQuerySchema } from '../../src/view/task-query.js';
import { buildRun, cityOf, kindOf, taskIdOf, type BuiltRun } from './run-builder.js';

const count = 120;
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-query-'));
let built: BuiltRun;
let view: ViewServer;
const all = Array.from({ length: count }, (_, n) => n + 1);
const ids = (predicate: (i: number) => boolean) => all.filter(predicate).map(taskIdOf).sort();

beforeAll(async () => {
  built = await buildRun(dir, count);
  view = await startViewServer({ store: built.store, resultsDir: built.resultsDir, port: 0, logger: createLogger('error') });
}, 120_000);

afterAll(async () => {
  await view?.close();
  built?.store.close();
  rmSync(dir, { recursive: true, force: true });
});

function query(params: Record<string, string>) {
  const sources = { store: built.store, resultsDir: built.resultsDir };
  return queryTasks(indexedRows(sources, runOf(sources, built.runId)), taskQuerySchema.parse({ limit: '1000', ...params }));
}
const found = (params: Record<string, string>) =>
  query(params)
    .rows.map((row) => row.taskId)
    .sort();

describe('the run page task query', () => {
  it('searches ids, questions, answers, tool names and arguments', () => {
    expect(found({ q: 'T00042' })).toEqual(['T00042']);
    expect(found({ q: cityOf(44) })).toEqual(['T00044']);
    expect(found({ q: 'get_air_quality' })).toEqual(ids((i) => kindOf(i) === 'wrong_tool'));
    expect(found({ q: 'SUNNY OSLO' })).toEqual(ids((i) => i % 5 === 0 && kindOf(i) === 'wrong_tool'));
    expect(found({ q: 'no such text anywhere' })).toEqual([]);
  });

  it('filters by task success, infrastructure failures, mocked, tier, tool and tool errors without a code', () => {
    const failing = (i: number) => kindOf(i) === 'wrong_tool' || kindOf(i) === 'model_failure';
    expect(found({ outcome: 'fail' })).toEqual(ids(failing));
    expect(found({ outcome: 'pass' })).toEqual(ids((i) => kindOf(i) === 'pass'));
    expect(found({ outcome: 'unevaluated' })).toEqual(ids((i) => kindOf(i) === 'infra_failure'));
    expect(found({ infra: 'only' })).toEqual(ids((i) => kindOf(i) === 'infra_failure'));
    expect(found({ infra: 'exclude' })).toHaveLength(count - ids((i) => kindOf(i) === 'infra_failure').length);
    const called = (i: number) => kindOf(i) === 'pass' || kindOf(i) === 'wrong_tool';
    expect(found({ mocked: 'mocked' })).toEqual(ids((i) => called(i) && i % 11 === 0));
    expect(found({ tier: 'template' })).toEqual(ids((i) => called(i) && i % 11 === 0));
    expect(found({ error: 'tool error (no code)' })).toEqual(ids((i) => called(i) && i % 13 === 0));
    expect(found({ error: 'context_length' })).toEqual(ids((i) => kindOf(i) === 'model_failure'));
    expect(found({ tool: 'weather/get_forecast' })).toEqual(ids((i) => kindOf(i) === 'pass' && i % 3 === 0));
    expect(found({ status: 'infra_failure', outcome: 'fail' })).toEqual([]);
    expect(query({}).facets.error).toEqual(['context_length', 'tool error (no code)', 'upstream_network']);
  });

  it('puts failures first, then the unevaluated, then passes, each by task id', () => {
    const order = query({}).rows.map((row) => row.taskId);
    const failing = ids((i) => kindOf(i) === 'wrong_tool' || kindOf(i) === 'model_failure');
    const unevaluated = ids((i) => kindOf(i) === 'infra_failure');
    expect(order).toEqual([...failing, ...unevaluated, ...ids((i) => kindOf(i) === 'pass')]);
  });

  it('pages over the matching rows', async () => {
    const response = await fetch(new URL(`/api/runs/${built.runId}/tasks?offset=100&limit=50&sort=task&dir=desc`, view.url));
    const body = (await response.json()) as { total: number; matched: number; rows: Array<{ taskId: string }> };
    expect(body.total).toBe(count);
    expect(body.matched).toBe(count);
    expect(body.rows.map((row) => row.taskId)).toEqual(all.map(taskIdOf).reverse().slice(100, 150));
  });

  it('answers a bad parameter with a 400 that names it', async () => {
    const response = await fetch(new URL(`/api/runs/${built.runId}/tasks?outcome=maybe`, view.url));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^task query: outcome: /);
  });
});
