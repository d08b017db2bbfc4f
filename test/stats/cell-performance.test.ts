// Performance beside correctness: per cell and per trial, from a real SQLite run store, the
// medians, token means, cost and cost per passed task, with infrastructure failures and earlier
// attempts left out, the price entry (and its checkedAt date) printed with every cost, and the
// estimated image tokens per model request from the store (migration 011).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchResults, CellResults, TrialOutcome } from '../../src/stats/batch-results.js';
import { batchPerformance } from '../../src/stats/cell-performance.js';
import { formatPerformanceTable, performanceTable } from '../../src/stats/format.js';
import { createRun, finishEpisode, openStore, recordModelCall, startEpisode } from '../../src/store/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-performance-'));
const at = (seconds: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, seconds));

interface Attempt {
  task: string;
  trial: number;
  seconds: number;
  rounds: number;
  calls: number;
  input: number;
  output: number;
  cost: number;
  status?: 'ok' | 'model_failure' | 'infra_failure';
  /** Estimated image tokens of each model request of the attempt. */
  imageTokens?: number[];
}

function writeStore(file: string, runId: string, attempts: readonly Attempt[]) {
  const store = openStore(file);
  try {
    createRun(store, { runId, modelSpec: 'openai:gpt-4o', modelLabel: 'gpt-4o' });
    for (const attempt of attempts) {
      const id = startEpisode(store, { runId, taskId: attempt.task, model: 'openai:gpt-4o', trial: attempt.trial, startedAt: at(0) });
      for (const [round, tokens] of (attempt.imageTokens ?? []).entries()) {
        recordModelCall(store, {
          episodeId: id,
          round,
          purpose: 'work',
          imagePayload: { count: tokens > 0 ? 1 : 0, bytes: tokens * 10, estimatedTokens: tokens },
        });
      }
      finishEpisode(store, id, {
        status: attempt.status ?? 'ok',
        finishedAt: at(attempt.seconds),
        rounds: attempt.rounds,
        toolCallCount: attempt.calls,
        usage: { inputTokens: attempt.input, outputTokens: attempt.output, cachedTokens: 0 },
        costUsd: attempt.cost,
      });
    }
  } finally {
    store.close();
  }
}

const outcome = (trial: number, passed: boolean): TrialOutcome => ({ trial, passed, rule: 'step', metrics: {}, toolCalls: 0 });

function batchOf(price: unknown): BatchResults {
  const file = path.join(dir, 'b.batch.json');
  writeFileSync(path.join(dir, 'gpt-4o.trial-1.manifest.json'), JSON.stringify({ runId: 'b.gpt-4o', price }));
  const cell: CellResults = {
    label: 'gpt-4o',
    model: 'openai:gpt-4o',
    condition: 'baseline',
    runId: 'b.gpt-4o',
    trials: 2,
    // t1 passes in both trials, t2 only in trial 2.
    tasks: new Map([
      ['t1', [outcome(1, true), outcome(2, true)]],
      ['t2', [outcome(1, false), outcome(2, true)]],
    ]),
    unevaluated: [],
    notEvaluated: [],
    graderVersions: ['step-1'],
    taskSetHash: null,
    rulesUnreadable: [],
  };
  const trial = (t: number) => ({ trial: t, seed: t, label: `gpt-4o.trial-${t}`, predictions: `p${t}.json`, manifest: `gpt-4o.trial-${t}.manifest.json` });
  return {
    file,
    cells: [cell],
    manifest: {
      kind: 'm3bench-batch',
      version: 1,
      batchId: 'b',
      startedAt: at(0).toISOString(),
      finishedAt: null,
      tasksFile: 'tasks.json',
      gtFile: null,
      trials: 2,
      conditions: ['baseline'],
      seed: 1,
      store: 'store.sqlite',
      cells: [{ model: 'openai:gpt-4o', modelLabel: 'gpt-4o', condition: 'baseline', label: 'gpt-4o', runId: 'b.gpt-4o', trials: [trial(1), trial(2)] }],
    },
  };
}

writeStore(path.join(dir, 'store.sqlite'), 'b.gpt-4o', [
  { task: 't1', trial: 1, seconds: 2, rounds: 1, calls: 1, input: 100, output: 10, cost: 0.01, imageTokens: [85, 0] },
  // An earlier attempt of t2 trial 1 (requeued): only the last attempt counts.
  { task: 't2', trial: 1, seconds: 50, rounds: 9, calls: 9, input: 9000, output: 900, cost: 5, status: 'model_failure', imageTokens: [9999] },
  { task: 't2', trial: 1, seconds: 4, rounds: 3, calls: 5, input: 300, output: 30, cost: 0.03, imageTokens: [170] },
  { task: 't1', trial: 2, seconds: 6, rounds: 2, calls: 2, input: 200, output: 20, cost: 0.02, imageTokens: [255] },
  { task: 't2', trial: 2, seconds: 8, rounds: 4, calls: 6, input: 400, output: 40, cost: 0.04, imageTokens: [340, 0] },
  // An infrastructure failure is not a trial: in no figure.
  { task: 't3', trial: 2, seconds: 99, rounds: 9, calls: 9, input: 9999, output: 999, cost: 9, status: 'infra_failure', imageTokens: [9999] },
]);

describe('batchPerformance', () => {
  it('gives medians, means, cost and cost per passed task per cell and per trial from the store', () => {
    const [cell] = batchPerformance(batchOf('gpt-4o: $2.5 in / $10 out / $1.25 cached per 1M tokens, checked 2026-11-29 (built-in table)'));
    expect(cell?.overall).toMatchObject({ trial: null, attempts: 4, medianDurationMs: 5000, medianRounds: 2.5, medianToolCalls: 3.5, passed: 3 });
    expect(cell?.overall.meanInputTokens).toBe(250);
    expect(cell?.overall.meanOutputTokens).toBe(25);
    expect(cell?.overall.costUsd).toBeCloseTo(0.1, 12);
    expect(cell?.overall.costPerPassedUsd).toBeCloseTo(0.1 / 3, 12);
    // Per model request over the valid attempts: (85 + 0 + 170 + 255 + 340 + 0) / 6; earlier attempts and infra left out.
    expect(cell?.overall.meanImageTokens).toBeCloseTo(850 / 6, 9);
    expect(cell?.perTrial.map((row) => row.meanImageTokens)).toEqual([85, (255 + 340) / 3]);
    expect(cell?.perTrial.map((row) => [row.trial, row.attempts, row.medianDurationMs, row.passed])).toEqual([
      [1, 2, 3000, 1],
      [2, 2, 7000, 2],
    ]);
    expect(cell?.perTrial[0]?.costPerPassedUsd).toBeCloseTo(0.04, 12);
    expect(cell?.perTrial[1]?.costPerPassedUsd).toBeCloseTo(0.03, 12);
  });

  it('prints every cost with the price entry and its checked date, in text and in the report table', () => {
    const performance = batchPerformance(batchOf('gpt-4o: $2.5 in / $10 out / $1.25 cached per 1M tokens, checked 2026-11-29 (built-in table)'));
    const text = formatPerformanceTable(performance);
    expect(text).toMatch(/^gpt-4o\s+all\s+4\s+5\.00\s+2\.500\s+3\.500\s+250\s+25\s+142\s+\$0\.1000\s+\$0\.0333$/m);
    expect(text).toMatch(/^gpt-4o\s+2\s+2\s+7\.00\s+3\.000\s+4\.000\s+300\s+30\s+198\s+\$0\.0600\s+\$0\.0300$/m);
    expect(text).toContain('gpt-4o: price gpt-4o: $2.5 in / $10 out / $1.25 cached per 1M tokens, checked 2026-11-29 (built-in table)');
    const table = performanceTable(performance, 'b');
    expect(table.rows).toHaveLength(3);
    expect(table.note).toContain('checked 2026-11-29');
    expect(formatPerformanceTable(batchPerformance(batchOf(null)))).toContain('gpt-4o: no price known for the model');
    expect(formatPerformanceTable(batchPerformance(batchOf(undefined)))).toContain('gpt-4o: price not recorded by this run');
  });
});
