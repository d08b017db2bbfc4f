// `m3 eval task` as a real child process on the local suite: the GT's own trajectories (with
// results) as predictions, one task recorded by the run manifest as an infrastructure failure
// (in no denominator, listed apart), one without a prediction (scored as omitted), and one
// whose JSON answer holds the expected values in the wrong form, which no rule can explain:
// the optional judge (the wire-level mock LLM) labels it, with its reply as evidence.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPredictionRecords } from '../../support/perturb.js';
import { loadTrajectories } from '../../../src/eval/step/trajectory.js';
import { startMockLlm, type MockLlm } from '../../support/mock-llm/index.js';
import { repoRoot } from '../../support/shared-assets.js';
import { runM3 } from '../../report/run-m3.js';

const gtFile = path.join(repoRoot, 'json/m3_local_GT.json');
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-eval-task-'));
const predFile = path.join(dir, 'local-check_test_mcp_fuzzy.json');
let mock: MockLlm;

beforeAll(async () => {
  mock = await startMockLlm();
  const raw = JSON.parse(readFileSync(gtFile, 'utf8')) as Array<{
    id: string;
    final_reply: string;
    steps: Array<{ calls: Array<{ expect_error?: boolean }> }>;
  }>;
  const replies = new Map(raw.map((task) => [task.id, task.final_reply]));
  const designed = new Set(
    raw.flatMap((task) => task.steps.flatMap((step, s) => step.calls.flatMap((call, c) => (call.expect_error ? [`${task.id}:${s}:${c}`] : [])))),
  );
  // Results as a prediction carries them: the designed failures fail, every other call returns JSON.
  const gt = new Map(
    [...loadTrajectories(gtFile, 'gt').byId].map(([id, trajectory]) => [
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
  const records = toPredictionRecords(gt)
    .filter((record) => record.id !== 'L0001' && record.id !== 'L0002')
    .map((record) => ({ ...record, id: String(record.id), final_reply: replies.get(String(record.id)) ?? '' }));
  // L0006 asks for {"count": 3, ...}: the count as a string fails the rule, yet 3 is in the reply
  // and so is every fact the GT expects there ("3 QR codes"): no rule can say why it failed.
  const l0006 = records.find((record) => record.id === 'L0006');
  if (l0006) l0006.final_reply = '{"count": "3", "codes": ["BOX-01", "BOX-02", "BOX-03"], "summary": "3 QR codes"}';
  writeFileSync(predFile, stringify(records) ?? '[]');
  writeFileSync(
    predFile.replace(/\.json$/, '.manifest.json'),
    JSON.stringify({
      runId: 'r1.local-check',
      model: 'replay:gt',
      options: { maxStep: 6 },
      failures: [{ taskId: 'L0001', status: 'infra_failure', code: 'server_unavailable', message: 'math did not start', attempts: 2 }],
    }),
  );
});
afterAll(async () => {
  await mock?.close();
});

describe('m3 eval task', () => {
  it('excludes infrastructure failures, scores a missing prediction as omitted, and asks the judge only about what rules cannot label', async () => {
    mock.enqueue({ text: '**information_synthesis**' });
    const result = await runM3(['eval', 'task', '--gt', gtFile, '--pred', predFile, '--judge', 'openai:mock-model'], {
      OPENAI_BASE_URL: mock.openAiBaseUrl,
      OPENAI_API_KEY: 'sk-test-openai-key-000000000000',
      M3_LLM_MAX_RETRIES: '0',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('1 task(s) ended as infrastructure failures and are excluded from every denominator: L0001');
    const document = JSON.parse(readFileSync(path.join(dir, 'local-check', 'task_eval.json'), 'utf8'));
    expect(document.excluded).toEqual({ count: 1, infra_failures: [{ id: 'L0001', code: 'server_unavailable', status: 'infra_failure' }] });
    expect(document.run).toEqual({ run_id: 'r1.local-check', model: 'replay:gt', max_step: 6, condition: null });
    expect(document.per_task.map((task: { id: string }) => task.id)).not.toContain('L0001');
    expect(document.coverage).toMatchObject({ gt_ids: 44, scored: 43, missing_predictions: ['L0002'] });

    const byId = new Map(document.per_task.map((task: { id: string }) => [task.id, task]));
    expect(byId.get('L0002')).toMatchObject({ success: false, missing_prediction: true, taxonomy: { primary: 'omitted_call', source: 'rules' } });
    const judged = byId.get('L0006') as {
      success: boolean;
      checks: Array<{ passed: boolean }>;
      taxonomy: { primary: string; source: string; labels: Array<{ label: string; evidence: { rule: string; detail: string } }> };
    };
    expect(judged.success).toBe(false);
    expect(judged.checks.map((check) => check.passed)).toEqual([false, true, true]);
    expect(judged.taxonomy).toMatchObject({ primary: 'information_synthesis', source: 'judge' });
    expect(judged.taxonomy.labels.map((item) => [item.label, item.evidence.rule])).toEqual([
      ['undetermined', 'no_rule_applies'],
      ['information_synthesis', 'llm_judge'],
    ]);
    expect(judged.taxonomy.labels[1]?.evidence.detail).toContain('**information_synthesis**');
    expect(document.taxonomy.judged).toBe(1);
    // One judge request: the failed check and the reply went to it, nothing about the other tasks.
    const requests = mock.generations();
    expect(requests).toHaveLength(1);
    const body = JSON.stringify(requests[0]?.body);
    expect(body).toContain('json -> get(count) =');
    expect(body).toContain('\\\\\\"count\\\\\\": \\\\\\"3\\\\\\"');
    // Three tasks read real tool results (L0010, L0012, L0042), which these placeholder results do
    // not hold; with L0002 and L0006 that is five failures.
    expect(document.aggregate.task_success_rate).toEqual({ rate: 38 / 43, numerator: 38, denominator: 43 });
    expect(readFileSync(path.join(dir, 'local-check', 'task_eval.csv'), 'utf8').split('\r\n')[0]).toContain('id');
  }, 180_000);
});
