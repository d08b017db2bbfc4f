// The state-check rates in the perturbation suite. The step perturbations derive predictions
// from the GT, which carry no run state; here the radar suite's GT (every task states
// `state_checks`) is replayed unchanged as predictions, and a seeded, nested fraction of its
// state checks is recorded as failed in `state_results`, as a run that left the wrong state
// would record them. Scored by the whole task pipeline (runTaskFiles): the state rates must fall
// monotonically with the strength, and with them task success and completion (a task's share of
// checks that held); what the steps decide (operation accuracy, calls) must stay put.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { STATE_RESULTS_FIELD } from '../../../src/eval/state/episode-state.js';
import { describeStateCheck, stateChecksOf } from '../../../src/tasks/state-check.js';
import { perturb, toPredictionRecords, unitDraw } from '../../support/perturb.js';
import { loadTrajectories } from '../../../src/eval/step/trajectory.js';
import { runTaskFiles } from '../../../src/eval/task/run.js';
import { repoRoot } from '../../support/shared-assets.js';

const gtFile = path.join(repoRoot, 'json/m3_radar_GT.json');
const strengths = [0, 0.25, 0.5, 0.75, 1];
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-state-perturb-'));
const seed = 11;

type Raw = { id: string; final_reply?: string } & Record<string, unknown>;

async function scoredAt(strength: number) {
  const raw = JSON.parse(readFileSync(gtFile, 'utf8')) as Raw[];
  const checks = new Map(raw.map((task) => [task.id, stateChecksOf(task, task.id) ?? []]));
  const replies = new Map(raw.map((task) => [task.id, task.final_reply ?? '']));
  const records = toPredictionRecords(perturb(loadTrajectories(gtFile, 'gt').byId, 'drop-calls', 0, seed)).map((record) => {
    const id = String(record.id);
    // The same draw per check at every strength: the failed checks at 0.5 include those at 0.25.
    const results = (checks.get(id) ?? []).map((check, index) => {
      const failed = unitDraw('state', seed, id, index) < strength;
      return { check: describeStateCheck(check), passed: !failed, found: failed ? 0 : 1, reason: failed ? 'expected exactly 1, found 0' : 'found 1' };
    });
    return { ...record, final_reply: replies.get(id) ?? '', [STATE_RESULTS_FIELD]: results };
  });
  const cell = path.join(dir, `state-${strength}`);
  mkdirSync(cell, { recursive: true });
  const predFile = path.join(cell, 'perturbed_test_mcp_fuzzy.json');
  writeFileSync(predFile, stringify(records) ?? '[]');
  const { document } = await runTaskFiles({ gtFile, predFile, outputDir: path.join(cell, 'perturbed') });
  const { aggregate } = document;
  return {
    state_tasks: aggregate.state_pass_rate.rate ?? Number.NaN,
    state_checks: aggregate.state_check_pass_rate.rate ?? Number.NaN,
    state_evaluated: aggregate.state_pass_rate.denominator,
    task_success: aggregate.task_success_rate.rate ?? Number.NaN,
    completion: aggregate.completion_rate ?? Number.NaN,
    operation_accuracy: aggregate.operation_accuracy.rate ?? Number.NaN,
    avg_calls: aggregate.avg_calls ?? Number.NaN,
  };
}

describe('failed state checks in the predictions move the state rates as defined', () => {
  it('lowers the state rates, task success and completion monotonically, and leaves the step metrics alone', async () => {
    const rows: Array<Awaited<ReturnType<typeof scoredAt>>> = [];
    for (const strength of strengths) rows.push(await scoredAt(strength));
    const trace = (metric: keyof (typeof rows)[number] & string) => `${metric}: ${rows.map((row) => row[metric]).join(', ')}`;
    expect(rows[0]?.state_tasks, trace('state_tasks')).toBe(1);
    expect(rows[0]?.state_checks, trace('state_checks')).toBe(1);
    expect(rows.at(-1)?.state_tasks, trace('state_tasks')).toBe(0);
    expect(rows.at(-1)?.task_success, trace('task_success')).toBe(0);
    expect(rows[0]?.task_success, trace('task_success')).toBeGreaterThan(0.5);
    for (const [index, row] of rows.entries()) {
      expect(row.state_evaluated, trace('state_evaluated')).toBe(22);
      if (index === 0) continue;
      const before = rows[index - 1] as (typeof rows)[number];
      for (const metric of ['state_tasks', 'state_checks', 'task_success', 'completion'] as const)
        expect(row[metric], trace(metric)).toBeLessThanOrEqual(before[metric] + 1e-12);
      for (const metric of ['operation_accuracy', 'avg_calls'] as const) expect(row[metric], trace(metric)).toBeCloseTo(rows[0]?.[metric] ?? 0, 9);
    }
    expect(rows.at(-1)?.completion, trace('completion')).toBeLessThan(rows[0]?.completion ?? 0);
    expect(rows[2]?.state_checks, trace('state_checks')).toBeLessThan(1);
    expect(rows[2]?.state_checks, trace('state_checks')).toBeGreaterThan(0);
  }, 120_000);
});
