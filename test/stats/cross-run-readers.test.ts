// Readers of batches (`m3 compare`, `m3 gate`, `m3 trends`, `m3 summary --json`, `m3 eval batch`)
// refuse to score one run's predictions with another run's evaluation outputs, and to compare
// cells scored against different ground truths, naming both sides and the field that differs. One
// `m3 run` of the oracle over the math server, scored by `m3 eval batch` (which records what
// it evaluated); the other folders are copies of it, changed the way a later run or a re-scoring
// would change them. The commands run in this process (test/support/m3-in-process.ts: the CLI's
// program, its printing and exit status); the refusals are the point, not the node process.
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvaluationInputs } from '../../src/results/evaluation-inputs.js';
import type { TrendLine } from '../../src/stats/trends.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-cross-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gtFile = path.join(dir, 'gt.json');
const otherGt = path.join(dir, 'gt-other.json');
const configFile = path.join(dir, 'servers.json');
const results = path.join(dir, 'results');
const add = (a: number, b: number) => ({ name: 'math/add', arguments: { firstNumber: a, secondNumber: b } });
const tasks = [1, 2, 3].map((n) => ({
  id: `p${n}`,
  type: 'arith',
  question: `Add ${n} and ${n + 1}.`,
  steps: [{ step: 1, calls: [add(n, n + 1)] }],
  final_reply: `${2 * n + 1}`,
}));

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const editJson = (file: string, edit: (value: Record<string, unknown>) => void) => {
  const value = readJson(file);
  edit(value);
  writeFileSync(file, JSON.stringify(value));
};

/** A later copy of batch `a` named `id` (its own batch id and start time; same run id unless `runId`). */
function copyBatch(id: string, startedAt: string, runId?: string): string {
  const target = path.join(results, id);
  cpSync(path.join(results, 'a'), target, { recursive: true });
  renameSync(path.join(target, 'a.batch.json'), path.join(target, `${id}.batch.json`));
  editJson(path.join(target, `${id}.batch.json`), (batch) => {
    Object.assign(batch, { batchId: id, startedAt });
    if (runId) for (const cell of batch.cells as Array<Record<string, unknown>>) cell.runId = runId;
  });
  editJson(path.join(target, 'replay-gt_test_mcp_fuzzy.manifest.json'), (manifest) => Object.assign(manifest, { batchId: id }, runId ? { runId } : {}));
  return target;
}

beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  writeFileSync(gtFile, JSON.stringify(tasks));
  // The same tasks, one reference answer worded differently: another ground truth (sha256).
  writeFileSync(otherGt, JSON.stringify(tasks.map((task, index) => (index === 0 ? { ...task, final_reply: 'three' } : task))));
  const run = await runM3InProcess(
    ['run', '--model', 'replay:gt', '--tasks', gtFile, '--gt', gtFile, '--config', configFile, '--run-dir', path.join(results, 'a'), '--run-id', 'a'],
    { M3_WORKSPACE_MODE: 'isolated' },
  );
  expect(run.code, run.output).toBe(0);
  const scored = await runM3InProcess(['eval', 'batch', path.join(results, 'a', 'a.batch.json')]);
  expect(scored.code, scored.output).toBe(0);
}, 300_000);

describe('readers refuse outputs of another run or another ground truth', { timeout: 300_000 }, () => {
  it('m3 eval batch records what it evaluated: the run id, the prediction file and GT sha256', () => {
    const inputs = readEvaluationInputs(readJson(path.join(results, 'a', 'replay-gt', 'results_eval.json')));
    expect(inputs).toMatchObject({ run_id: 'a.replay-gt', predictions: 'replay-gt_test_mcp_fuzzy.json', layer: 'step', grader_version: 'step-1' });
    expect(inputs?.gt_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('compare and gate refuse a cell whose step output evaluated other predictions (rewritten after scoring)', async () => {
    const b = copyBatch('b', '2099-01-01T00:00:00.000Z');
    // The prediction file changed after its step output was written (a resumed or rewritten run).
    const predictions = path.join(b, 'replay-gt_test_mcp_fuzzy.json');
    writeFileSync(predictions, JSON.stringify((JSON.parse(readFileSync(predictions, 'utf8')) as unknown[]).slice(0, 2)));
    const expected = new RegExp(
      `${path.join(b, 'replay-gt', 'results_eval.json')} evaluated replay-gt_test_mcp_fuzzy.json of run a\\.replay-gt, not ${predictions} of run a\\.replay-gt \\(predictions_sha256: [0-9a-f]{12} vs [0-9a-f]{12}\\)`,
    );
    const compare = await runM3InProcess(['compare', path.join(results, 'a'), b]);
    expect(compare.code).not.toBe(0);
    expect(compare.output).toMatch(expected);
    const gate = await runM3InProcess(['gate', '--baseline', path.join(results, 'a'), '--candidate', b]);
    expect(gate.code).toBe(2);
    expect(gate.output).toMatch(expected);
    const summary = await runM3InProcess(['summary', '--results-dir', b, '--json']);
    expect(summary.code).not.toBe(0);
    expect(summary.output).toMatch(expected);
    rmSync(b, { recursive: true });
  });

  it("refuses a cell of run c whose step output is run a's", async () => {
    const c = copyBatch('c', '2099-01-01T00:00:00.000Z', 'c.replay-gt');
    const compare = await runM3InProcess(['compare', path.join(results, 'a'), c]);
    expect(compare.code).not.toBe(0);
    expect(compare.output).toContain(
      `${path.join(c, 'replay-gt', 'results_eval.json')} evaluated replay-gt_test_mcp_fuzzy.json of run a.replay-gt, not ${path.join(c, 'replay-gt_test_mcp_fuzzy.json')} of run c.replay-gt (run_id: a.replay-gt vs c.replay-gt)`,
    );
    rmSync(c, { recursive: true });
  });

  it('compare refuses cells scored against different ground truths; trends splits the line there', async () => {
    const d = copyBatch('d', '2099-01-02T00:00:00.000Z');
    const rescored = await runM3InProcess(['eval', 'batch', path.join(d, 'd.batch.json'), '--gt', otherGt]);
    expect(rescored.code, rescored.output).toBe(0);
    const compare = await runM3InProcess(['compare', path.join(results, 'a'), d]);
    expect(compare.code).not.toBe(0);
    expect(compare.output).toMatch(/are not comparable: ground truths differ \(replay-gt: gt sha256 [0-9a-f]{12}; replay-gt: gt sha256 [0-9a-f]{12}\)/);
    const allowed = await runM3InProcess(['compare', path.join(results, 'a'), d, '--allow-mismatch']);
    expect(allowed.code, allowed.output).toBe(0);
    expect(allowed.output).toContain('comparing anyway: ground truths differ');

    const trends = await runM3InProcess(['trends', '--results', results, '--json']);
    expect(trends.code, trends.output).toBe(0);
    const { lines } = JSON.parse(trends.stdout) as { lines: TrendLine[] };
    expect(lines[0]?.segments.map((segment) => segment.points.map((point) => point.batchId))).toEqual([['a'], ['d']]);
    const joined = await runM3InProcess(['trends', '--results', results, '--join']);
    expect(joined.stdout).toMatch(/joined across a boundary \(--join\) at d: ground truth [0-9a-f]{12} -> [0-9a-f]{12}/);
    rmSync(d, { recursive: true });
  });

  it('m3 eval batch refuses a trial whose files another batch rewrote, naming both batches', async () => {
    const e = copyBatch('e', '2099-01-03T00:00:00.000Z');
    const manifest = path.join(e, 'replay-gt_test_mcp_fuzzy.manifest.json');
    editJson(manifest, (value) => Object.assign(value, { batchId: 'later' }));
    const scored = await runM3InProcess(['eval', 'batch', path.join(e, 'e.batch.json')]);
    expect(scored.code).not.toBe(0);
    expect(scored.output).toContain(`cell replay-gt trial 1 belongs to batch e, but ${manifest} was written by batch later (batchId differs)`);
    rmSync(e, { recursive: true });
  });
});
