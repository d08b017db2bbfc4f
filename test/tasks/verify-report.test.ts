// Renderings of `m3 tasks verify` / `m3 tasks list`, and `m3 tasks list` over the bundled suite
// (no servers needed), run in this process (test/support/m3-in-process.ts: what it prints is the point).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSuiteSummary, formatVerifyReport, summariseSuite } from '../../src/tasks/verify-report.js';
import { loadSuite } from '../../src/tasks/verify-static.js';
import type { VerifyReport } from '../../src/tasks/verify.js';
import { repoRoot } from '../support/shared-assets.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const gtFile = path.join(repoRoot, 'json', 'm3_local_GT.json');
const tasksFile = path.join(repoRoot, 'json', 'm3_local_tasks.json');

describe('formatVerifyReport', () => {
  const report: VerifyReport = {
    gtFile: 'gt.json',
    tasksFile: 'tasks.json',
    suiteProblems: ['ids only in gt.json: T3'],
    tasks: [
      { id: 'T1', tier: 'basic', type: 'ocr', calls: 1, facts: 2, factsHeld: 2, status: 'passed', problems: [], durationMs: 10 },
      {
        id: 'T2',
        tier: 'exception',
        type: 'scan',
        calls: 12,
        facts: 3,
        factsHeld: 1,
        status: 'failed',
        problems: ['fact 2 (step 1 call 0 number 3): expected 3, got 4', 'fact 3 (...): x'],
        durationMs: 20,
      },
    ],
    passed: false,
    durationMs: 1500,
  };

  it('prints a table, then every problem prefixed with its task, then the totals', () => {
    expect(formatVerifyReport(report)).toBe(
      [
        'task  tier       calls  facts  status  first problem',
        'T1    basic          1    2/2  ok',
        'T2    exception     12    1/3  FAILED  fact 2 (step 1 call 0 number 3): expected 3, got 4',
        '',
        'T2 (exception, scan) FAILED:',
        '  - T2: fact 2 (step 1 call 0 number 3): expected 3, got 4',
        '  - T2: fact 3 (...): x',
        '',
        'suite problems:',
        '  - ids only in gt.json: T3',
        '',
        '1/2 task(s) passed, 3/5 fact(s) held, 1.5 s — verification FAILED (gt.json, tasks.json)',
        '',
      ].join('\n'),
    );
  });
});

describe('summariseSuite on the bundled suite', () => {
  it('counts tasks, calls and facts per tier and type, consistent with the GT file', () => {
    const suite = loadSuite(gtFile, tasksFile);
    const summary = summariseSuite(suite);
    expect(summary.tasks).toBe(suite.gt.length);
    expect(Object.values(summary.byTier).reduce((sum, count) => sum + count, 0)).toBe(summary.tasks);
    expect(Object.keys(summary.byTier).sort()).toEqual(['basic', 'chain', 'conditional', 'exception', 'parallel']);
    expect(summary.calls).toBe(suite.gt.reduce((sum, task) => sum + task.steps.flatMap((step) => step.calls).length, 0));
    expect(formatSuiteSummary(summary)).toContain(`${summary.tasks} task(s), ${summary.calls} call(s), ${summary.facts} fact(s)`);
  });

  it('is printed by `m3 tasks list --json`', async () => {
    const { code, stdout, stderr } = await runM3InProcess(['tasks', 'list', '--json']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual(summariseSuite(loadSuite(gtFile, tasksFile)));
  });
});
