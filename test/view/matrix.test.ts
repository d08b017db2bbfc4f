// The tasks × runs matrix (issue 33 item 3) on two real runs of one task set (run-builder.ts;
// the second with the step evaluation of a prediction file where every task is answered right):
// per cell the success under the one rule and the mean recall, disagreeing tasks first. A
// cell's link opening the task in that run is followed in Chromium by browser-find.test.ts, on
// its run of the same builder (one browser for both).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrixPage } from '../../src/view/matrix-page.js';
import { buildRun, kindOf, taskIdOf, type BuiltRun } from './run-builder.js';

const count = 30;
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-matrix-'));
let built: BuiltRun;

beforeAll(async () => {
  built = await buildRun(dir, count);
}, 120_000);

afterAll(() => {
  built?.store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the tasks × runs matrix', () => {
  it('gives each cell the success by the one rule and the recall, failures before passes', () => {
    const matrix = matrixPage({ store: built.store, resultsDir: built.resultsDir }, [built.runId]);
    expect(matrix.runs).toEqual([{ runId: built.runId, model: 'm', condition: 'baseline', trials: 1 }]);
    expect(matrix.tasks).toHaveLength(count);
    const byId = new Map(matrix.tasks.map((task) => [task.taskId, task.cells[0]]));
    for (let i = 1; i <= count; i += 1) {
      const cell = byId.get(taskIdOf(i))!;
      const kind = kindOf(i);
      // An infrastructure failure is no trial (not decided); the step evaluation, given no run
      // manifest listing it, scored the missing prediction as an empty trajectory (recall 0).
      if (kind === 'infra_failure') expect(cell).toMatchObject({ decided: 0, recall: 0, status: 'infra_failure' });
      else expect(cell).toMatchObject({ decided: 1, passed: kind === 'pass' ? 1 : 0, recall: kind === 'pass' ? 1 : 0 });
    }
    // One run cannot disagree with itself: tasks it fails (rank 1) come before the rest (rank 2).
    const ranks = matrix.tasks.map((task) => task.rank);
    expect(ranks).toEqual([...ranks].sort());
    expect(matrix.tasks[0]!.cells[0]!.passed).toBe(0);
  });

  it('refuses more runs than it shows, naming the limit', () => {
    expect(() =>
      matrixPage(
        { store: built.store, resultsDir: built.resultsDir },
        Array.from({ length: 13 }, () => built.runId),
      ),
    ).toThrow(/at most 12 runs, got 13/);
  });
});
