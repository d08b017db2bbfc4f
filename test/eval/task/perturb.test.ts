// The task-level metrics in the perturbation suite: the bundled local suite's GT, perturbed with
// the step suite's seeded, nested perturbations (test/support/perturb.ts), written as
// prediction files and scored by the whole task pipeline (runTaskFiles: alignment, call labels,
// checks, taxonomy). Each metric must move the way its definition implies, monotonically in the
// strength, or stay put.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'lossless-json';
import { beforeAll, describe, expect, it } from 'vitest';
import { perturb, toPredictionRecords, type PerturbationKind } from '../../support/perturb.js';
import { loadTrajectories, type Trajectory } from '../../../src/eval/step/trajectory.js';
import { runTaskFiles } from '../../../src/eval/task/run.js';
import type { TaskEvalDocument } from '../../../src/eval/task/output.js';
import { repoRoot } from '../../support/shared-assets.js';

const gtFile = path.join(repoRoot, 'json/m3_local_GT.json');
const strengths = [0, 0.25, 0.5, 0.75];
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-task-perturb-'));

type Metric = 'task_success' | 'completion' | 'operation_accuracy' | 'avg_calls' | 'turn_success' | 'failed_tasks' | 'omitted' | 'redundant' | 'answer_hit';

function metricsOf(document: TaskEvalDocument): Record<Metric, number> {
  const { aggregate, taxonomy } = document;
  return {
    task_success: aggregate.task_success_rate.rate ?? Number.NaN,
    completion: aggregate.completion_rate ?? Number.NaN,
    operation_accuracy: aggregate.operation_accuracy.rate ?? Number.NaN,
    avg_calls: aggregate.avg_calls ?? Number.NaN,
    turn_success: aggregate.dialogue_turn_success_rate.rate ?? Number.NaN,
    failed_tasks: taxonomy.failed_tasks,
    omitted: taxonomy.tasks_with_label.omitted_call,
    redundant: taxonomy.tasks_with_label.redundant_call,
    answer_hit: aggregate.answer_hit_rate.rate ?? Number.NaN,
  };
}

/** Metrics that fall (non-increasing, strictly lower at 0.75), rise, or stay put. */
const expectations: Partial<Record<PerturbationKind, { down: Metric[]; up: Metric[]; same: Metric[] }>> = {
  'drop-calls': {
    down: ['task_success', 'completion', 'operation_accuracy', 'avg_calls'],
    up: ['failed_tasks', 'omitted'],
    same: ['answer_hit', 'turn_success'],
  },
  'duplicate-calls': {
    down: ['task_success', 'completion'],
    up: ['avg_calls', 'failed_tasks', 'redundant'],
    same: ['operation_accuracy', 'omitted', 'answer_hit'],
  },
  'corrupt-arguments': { down: ['task_success', 'completion', 'operation_accuracy'], up: ['failed_tasks'], same: ['avg_calls', 'answer_hit'] },
  'rename-tools': { down: ['task_success', 'completion', 'operation_accuracy'], up: ['failed_tasks'], same: ['avg_calls', 'answer_hit'] },
  // A task without a prediction has no turns: the turn rate is over the turns that happened.
  'drop-tasks': {
    down: ['task_success', 'completion', 'operation_accuracy', 'avg_calls', 'answer_hit'],
    up: ['failed_tasks', 'omitted'],
    same: ['turn_success'],
  },
};

describe('perturbations of the local suite move the task metrics as defined', () => {
  let gt: Map<string, Trajectory>;
  let replies: Map<string, string>;
  let designed: Set<string>;
  beforeAll(() => {
    const loaded = loadTrajectories(gtFile, 'gt');
    const raw = loaded.raw as Array<{ id: string; final_reply?: string; steps: Array<{ calls: Array<{ expect_error?: boolean }> }> }>;
    replies = new Map(raw.map((task) => [String(task.id), task.final_reply ?? '']));
    designed = new Set(
      raw.flatMap((task) => task.steps.flatMap((step, s) => step.calls.flatMap((call, c) => (call.expect_error ? [`${task.id}:${s}:${c}`] : [])))),
    );
    // A prediction carries results: the designed failures fail, every other call returns JSON.
    gt = new Map(
      [...loaded.byId].map(([id, trajectory]) => [
        id,
        {
          ...trajectory,
          calls: trajectory.calls.map((call) => ({
            ...call,
            result: designed.has(`${id}:${call.stepIndex}:${call.callIndexInStep}`) ? '[Tool error] ENOENT: no such file or directory' : '{"status": "done"}',
          })),
        },
      ]),
    );
  });

  async function series(kind: PerturbationKind): Promise<Array<Record<Metric, number>>> {
    const rows: Array<Record<Metric, number>> = [];
    for (const strength of strengths) {
      const cell = path.join(dir, `${kind}-${strength}`);
      mkdirSync(cell, { recursive: true });
      const predFile = path.join(cell, 'perturbed_test_mcp_fuzzy.json');
      const records = toPredictionRecords(perturb(gt, kind, strength, 7)).map((record) => ({ ...record, final_reply: replies.get(String(record.id)) ?? '' }));
      // lossless-json: GT numbers are LosslessNumber values, which JSON.stringify would turn into objects.
      writeFileSync(predFile, stringify(records) ?? '[]');
      const { document } = await runTaskFiles({ gtFile, predFile, outputDir: path.join(cell, 'perturbed') });
      rows.push(metricsOf(document));
    }
    return rows;
  }

  it.each(Object.keys(expectations) as PerturbationKind[])(
    '%s',
    async (kind) => {
      const rows = await series(kind);
      const { down, up, same } = expectations[kind] ?? { down: [], up: [], same: [] };
      const trace = (metric: Metric) => `${kind} ${metric}: ${rows.map((row) => row[metric]).join(', ')}`;
      for (const metric of down) {
        for (let index = 1; index < rows.length; index += 1)
          expect(rows[index]?.[metric], trace(metric)).toBeLessThanOrEqual((rows[index - 1]?.[metric] ?? 0) + 1e-12);
        expect(rows.at(-1)?.[metric], trace(metric)).toBeLessThan(rows[0]?.[metric] ?? 0);
      }
      for (const metric of up) {
        for (let index = 1; index < rows.length; index += 1)
          expect(rows[index]?.[metric], trace(metric)).toBeGreaterThanOrEqual((rows[index - 1]?.[metric] ?? 0) - 1e-12);
        expect(rows.at(-1)?.[metric], trace(metric)).toBeGreaterThan(rows[0]?.[metric] ?? 0);
      }
      for (const metric of same) for (const row of rows) expect(row[metric], trace(metric)).toBeCloseTo(rows[0]?.[metric] ?? 0, 9);
    },
    120_000,
  );

  it('the unperturbed GT with its own replies succeeds on every task but the three whose rules read real tool results (L0010, L0012, L0042)', async () => {
    const [row] = await series('drop-calls').then((rows) => rows.slice(0, 1));
    expect(row?.operation_accuracy).toBe(1);
    expect(row?.answer_hit).toBe(1);
    expect(row?.failed_tasks).toBe(3);
  }, 120_000);
});
