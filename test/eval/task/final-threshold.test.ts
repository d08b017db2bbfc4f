// A task's `success.final` rule on crafted final-answer evaluation files, as `m3 eval final`
// writes them (taskcompletion.json with a judge failure, no final_proxy.json): a score at or over
// the threshold passes, one under it fails, a missing score is "not evaluated" with the reason
// and in no success denominator; the trials layer applies the same rule; a malformed rule names
// the file and the key.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFinalScores } from '../../../src/eval/task/final-scores.js';
import { runTaskFiles } from '../../../src/eval/task/run.js';
import { checkPrediction, loadTaskRules } from '../../../src/stats/task-rules.js';
import { loadGroundTruth, loadPredictions } from '../../../src/tasks/load.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-final-threshold-'));
const gtFile = path.join(dir, 'gt.json');
const predFile = path.join(dir, 'model_test_mcp_fuzzy.json');
// Where `m3 eval final` writes by default: results/<model>/ beside the predictions.
const resultsDir = path.join(dir, 'model');
const judgesFile = path.join(resultsDir, 'taskcompletion.json');
mkdirSync(resultsDir);
const judged = { metric: 'task_completion', min: 0.8 };

const task = (id: string, final: unknown) => ({ id, question: `question ${id}`, steps: [], final_reply: 'ok', success: { final } });
writeFileSync(
  gtFile,
  JSON.stringify([task('T1', judged), task('T2', judged), task('T3', judged), task('T4', { metric: 'token_f1', min: 0.5 }), task('T5', judged)]),
);
writeFileSync(predFile, JSON.stringify(['T1', 'T2', 'T3', 'T4', 'T5'].map((id) => ({ id, question: `question ${id}`, steps: [], final_reply: 'ok' }))));
const entry = (final: number) => ({ final, judges: [{ name: 'mock:judge', score: final }], info_grounding: { final: 1, judges: [] } });
writeFileSync(
  judgesFile,
  JSON.stringify({
    aggregate: { num_total: 5 },
    pre_id: { T1: entry(0.9), T2: entry(0.5), T4: entry(1), T5: entry(0.8) },
    judge_failures: [{ id: 'T3', metric: 'task_completion', judge: 'mock:judge', reason: 'no \\boxed{...} score in the reply' }],
  }),
);

describe('success.final threshold', () => {
  it('passes at or over the threshold, fails under it, and leaves a missing score not evaluated', async () => {
    const { document } = await runTaskFiles({ gtFile, predFile, outputDir: path.join(dir, 'out') });
    const byId = new Map(document.per_task.map((record) => [record.id, record]));
    expect([...byId].map(([id, record]) => [id, record.success, record.checks[0]?.reason])).toEqual([
      ['T1', true, 'task_completion 0.9 >= 0.8'],
      ['T2', false, 'task_completion 0.5 < 0.8'],
      ['T3', null, `not evaluated: ${judgesFile}: judge mock:judge failed: no \\boxed{...} score in the reply`],
      ['T4', null, `not evaluated: no ${path.join(resultsDir, 'final_proxy.json')} (run m3 eval final --proxy on these predictions)`],
      ['T5', true, 'task_completion 0.8 >= 0.8'],
    ]);
    expect(document.not_evaluated.map((item) => item.id)).toEqual(['T3', 'T4']);
    expect(byId.get('T3')).toMatchObject({
      passed: null,
      completion: null,
      taxonomy: null,
      not_evaluated: [expect.stringContaining('final: task_completion >= 0.8')],
    });
    expect(document.aggregate).toMatchObject({
      tasks: 5,
      not_evaluated: 2,
      task_success_rate: { rate: 2 / 3, numerator: 2, denominator: 3 },
      final_threshold_pass_rate: { rate: 2 / 3, numerator: 2, denominator: 3 },
    });
    expect(document.inputs.final_scores).toEqual({ judges: judgesFile, proxy: path.join(resultsDir, 'final_proxy.json') });
    expect(document.success_rule).toContain('not evaluated');
  });

  it('is the same rule in the trials layer: pass, fail, not evaluated', () => {
    const rules = loadTaskRules({ gtFile, tasksFile: gtFile });
    const scores = loadFinalScores({ judges: judgesFile, proxy: path.join(resultsDir, 'final_proxy.json') });
    const outcomes = loadPredictions(predFile).map((prediction) => {
      const outcome = checkPrediction(rules, prediction, scores);
      return [prediction.id, outcome?.rule, outcome?.passed, outcome?.notEvaluated.length];
    });
    expect(outcomes).toEqual([
      ['T1', 'final', true, 0],
      ['T2', 'final', false, 0],
      ['T3', 'final', null, 1],
      ['T4', 'final', null, 1],
      ['T5', 'final', true, 0],
    ]);
  });

  it('names the file and the key of a malformed rule', () => {
    const bad = path.join(dir, 'bad-gt.json');
    writeFileSync(bad, JSON.stringify([task('T1', judged), task('T2', { metric: 'vibes', min: 0.8 })]));
    expect(() => loadGroundTruth(bad)).toThrow(bad);
    expect(() => loadGroundTruth(bad)).toThrow(/\$\[1\]\.success\.final\.metric/);
  });
});
