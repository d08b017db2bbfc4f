// Every evaluation output carries the mocked share and the placeholder count of the predictions it
// scored (`m3bench_mocked`, src/results/mocked-share.ts) beside its scores, and `m3 eval final`
// records its inputs like the other layers. An offline-like prediction file (a call served by the
// fallback layer, a task on placeholder images) is labelled so; a clean one carries zeros. At the
// call level a mocked return is counted apart, never as a success. The
// `m3 eval` commands run in this process (test/support/m3-in-process.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateCalls } from '../../src/eval/call/evaluate.js';
import { loadPredictions } from '../../src/tasks/load.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-mocked-labels-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const gtFile = path.join(repoRoot, 'test/fixtures/tasks/math-gt.json');

type Call = Record<string, unknown>;
type Task = Record<string, unknown> & { id: string; steps: Array<{ calls: Call[] }> };

/** The GT's own calls as predictions (each with a plain result), optionally marked offline. */
function predictions(label: string, offline: boolean): string {
  const tasks = JSON.parse(readFileSync(gtFile, 'utf8')) as Task[];
  for (const task of tasks) for (const step of task.steps) for (const call of step.calls) call.result = '{"result": 5}';
  if (offline) {
    const first = tasks[0]?.steps[0]?.calls[0];
    if (first) first.fallback = { tier: 'template', original_error_code: 'server_unavailable' };
    (tasks[1] as Task).placeholder_images = ['media/missing.png'];
  }
  const file = path.join(work, `${label}_test_mcp_fuzzy.json`);
  writeFileSync(file, JSON.stringify(tasks));
  return file;
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

async function evaluateAll(label: string, pred: string): Promise<Record<string, Record<string, unknown>>> {
  const dir = path.join(work, label);
  const commands: Array<[string, string[], string]> = [
    ['step', ['eval', 'step', '--gt', gtFile, '--pred', pred, '--output-dir', path.join(dir, 'step')], path.join(dir, 'step', 'results_eval.json')],
    ['cv', ['eval', 'cv', '--gt', gtFile, '--pred', pred, '--output-dir', path.join(dir, 'cv')], path.join(dir, 'cv', 'results_cv_eval.json')],
    ['call', ['eval', 'call', '--pred', pred, '--out', path.join(dir, 'callanalysis.json')], path.join(dir, 'callanalysis.json')],
    ['final', ['eval', 'final', '--gt', gtFile, '--pred', pred, '--proxy-out', path.join(dir, 'final_proxy.json')], path.join(dir, 'final_proxy.json')],
    [
      'task',
      [
        'eval',
        'task',
        '--gt',
        gtFile,
        '--pred',
        pred,
        '--out',
        path.join(dir, 'task'),
        '--step-results',
        path.join(dir, 'step', 'results_eval.json'),
        '--calls',
        path.join(dir, 'callanalysis.json'),
      ],
      path.join(dir, 'task', 'task_eval.json'),
    ],
  ];
  const outputs: Record<string, Record<string, unknown>> = {};
  for (const [layer, args, file] of commands) {
    const result = await runM3InProcess(args);
    expect(result.code, result.output).toBe(0);
    outputs[layer] = read(file);
  }
  return outputs;
}

describe('mocked share and placeholder count in every evaluation output', () => {
  it('labels an offline-like run with its mocked calls and placeholder tasks, and a clean run with zeros', async () => {
    const offline = await evaluateAll('offline', predictions('offline', true));
    const clean = await evaluateAll('clean', predictions('clean', false));
    for (const layer of ['step', 'cv', 'call', 'final', 'task']) {
      // math-gt: 3 calls in task 1, 1 call in task 2.
      expect(offline[layer]?.m3bench_mocked, layer).toMatchObject({
        calls: 4,
        mocked_calls: 1,
        mocked_call_share: 0.25,
        tasks: 2,
        mocked_tasks: 1,
        placeholder_tasks: 1,
        placeholder_task_share: 0.5,
        by_tier: { template: 1 },
      });
      expect(clean[layer]?.m3bench_mocked, layer).toMatchObject({ calls: 4, mocked_calls: 0, mocked_call_share: 0, placeholder_tasks: 0, by_tier: {} });
      expect(offline[layer]?.m3bench_inputs, layer).toMatchObject({ layer, predictions: 'offline_test_mcp_fuzzy.json' });
    }
    expect(offline.final?.m3bench_inputs).toMatchObject({ grader_version: 'final-1', gt_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect([offline.call?.success, offline.call?.mocked]).toEqual([3, 1]);
    expect([clean.call?.success, clean.call?.mocked]).toEqual([4, 0]);
  }, 300_000);

  it('counts a mocked return apart from the categories at the call level, never as a success', async () => {
    const analysis = await evaluateCalls(loadPredictions(predictions('unit', true)));
    const mocked = analysis.per_call.filter((record) => record.label === 'mocked');
    expect(mocked.map((record) => [record.id, record.step, record.index, record.rule])).toEqual([['math-0001', 1, 0, 'fallback_served']]);
    expect([analysis.success, analysis.mocked, analysis.unclassified, analysis.totals.calls]).toEqual([3, 1, 0, 4]);
  });
});
