// Robustness conditions end to end: one `m3 run` runs the oracle that retries (replay:gt?retry=1)
// on the math server under the clean setup and under faults, distractors and injections as cells
// of one batch; the step layer scores every cell; `m3 robustness` reports the paired differences
// and each condition's rates; the marks are in the prediction files of the conditioned cells
// only. The commands run in this process (test/support/m3-in-process.ts: the CLI's program, its
// printing and exit status), the math server as a real child.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { PREDICTION_CONDITION_FIELD } from '../../src/core/tool-result-contract.js';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { openStore } from '../../src/store/index.js';
import { taskPage } from '../../src/view/task-page.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-robustness-'));
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(dir, 'tasks.json');
const gtFile = path.join(dir, 'gt.json');
const results = path.join(dir, 'results');
const batchFile = path.join(results, 'robust.batch.json');
const add = (a: number, b: number) => ({ name: 'math/add', arguments: { firstNumber: a, secondNumber: b } });
const gt = Array.from({ length: 8 }, (_, index) => ({
  id: `r${index + 1}`,
  type: 'arith',
  question: `Add the numbers of task ${index + 1}.`,
  steps: Array.from({ length: 2 }, (_, step) => ({ step: step + 1, calls: [add(index + step, 3 * step + 1)] })),
  final_reply: `done ${index + 1}`,
}));

beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  writeFileSync(gtFile, JSON.stringify(gt));
  writeFileSync(tasksFile, JSON.stringify(gt.map((task) => ({ id: task.id, type: task.type, prompt: task.question, question: task.question }))));
  const outcome = await runM3InProcess(
    [
      'run',
      '--model',
      'replay:gt?retry=1',
      '--tasks',
      tasksFile,
      '--gt',
      gtFile,
      '--config',
      configFile,
      '--run-dir',
      results,
      '--store',
      path.join(dir, 'store.sqlite'),
      '--run-id',
      'robust',
      '--seed',
      '5',
      '--condition',
      'baseline',
      '--condition',
      'faults=0.5',
      '--condition',
      'distractors=6',
      '--condition',
      'inject=v1',
      '--concurrency',
      '2',
    ],
    { M3_WORKSPACE_MODE: 'isolated' },
  );
  expect(outcome.code, outcome.output).toBe(0);
  for (const cell of loadBatchManifest(batchFile).cells)
    for (const trial of cell.trials)
      await runStepFiles({
        gtFile,
        predFile: path.resolve(results, trial.predictions),
        outputDir: path.join(results, trial.label),
        embedder: createEmbedder(),
        mode: 'default',
        thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
      });
}, 300_000);

function marks(label: string): Array<{ kind: string }> {
  const cell = loadBatchManifest(batchFile).cells.find((entry) => entry.label === label);
  const file = path.resolve(results, cell?.trials[0]?.predictions ?? 'missing');
  const records = JSON.parse(readFileSync(file, 'utf8')) as Array<{ steps: Array<{ calls: Array<Record<string, unknown>> }> }>;
  return records.flatMap((record) =>
    record.steps.flatMap((step) =>
      step.calls.flatMap((call) => (call[PREDICTION_CONDITION_FIELD] ? [call[PREDICTION_CONDITION_FIELD] as { kind: string }] : [])),
    ),
  );
}

async function robustness(condition: string): Promise<{ code: number | null; output: string; report: Record<string, unknown> }> {
  const outcome = await runM3InProcess(['robustness', `${batchFile}#replay-gt-retry-1`, `${batchFile}#replay-gt-retry-1+${condition}`, '--json']);
  return { ...outcome, report: outcome.code === 0 ? (JSON.parse(outcome.stdout) as Record<string, unknown>) : {} };
}

describe('m3 run --condition faults / distractors / inject, then m3 robustness', () => {
  it('names each cell by its condition and marks the changed calls only in the conditioned cells', () => {
    const labels = loadBatchManifest(batchFile).cells.map((cell) => cell.label);
    expect(labels).toEqual(['replay-gt-retry-1', 'replay-gt-retry-1+faults=0.5', 'replay-gt-retry-1+distractors=6', 'replay-gt-retry-1+inject=v1']);
    expect(marks('replay-gt-retry-1')).toEqual([]);
    expect(marks('replay-gt-retry-1+faults=0.5').every((mark) => mark.kind === 'injected_fault')).toBe(true);
    expect(marks('replay-gt-retry-1+faults=0.5').length).toBeGreaterThan(0);
    // The oracle never calls a distractor; its injections are planted in every successful result.
    expect(marks('replay-gt-retry-1+distractors=6')).toEqual([]);
    expect(marks('replay-gt-retry-1+inject=v1').length).toBe(16);
    // The store marks the same calls (tool_calls.condition_mark), per cell run.
    const db = new Database(path.join(dir, 'store.sqlite'), { readonly: true });
    const marked = (label: string) => {
      const runId = loadBatchManifest(batchFile).cells.find((cell) => cell.label === label)?.runId;
      const rows = db
        .prepare('SELECT c.condition_mark AS mark FROM tool_calls c JOIN episodes e ON e.id = c.episode_id WHERE e.run_id = ? AND c.condition_mark IS NOT NULL')
        .all(runId) as Array<{ mark: string }>;
      return rows.map((row) => (JSON.parse(row.mark) as { kind: string }).kind);
    };
    expect(marked('replay-gt-retry-1')).toEqual([]);
    expect(marked('replay-gt-retry-1+inject=v1')).toEqual(Array.from({ length: 16 }, () => 'injection'));
    expect(marked('replay-gt-retry-1+faults=0.5').length).toBe(marks('replay-gt-retry-1+faults=0.5').length);
    db.close();
  });

  it("shows the viewer's task page the injection on each call it changed", () => {
    const store = openStore(path.join(dir, 'store.sqlite'), { readonly: true });
    try {
      const runId = loadBatchManifest(batchFile).cells.find((cell) => cell.label === 'replay-gt-retry-1+inject=v1')?.runId ?? '';
      const page = taskPage({ store, resultsDir: results }, runId, 'r1', 1);
      const marked = page.toolCalls.map((call) => (call as { condition?: { kind: string; canary?: string } | null }).condition);
      expect(marked).toHaveLength(2);
      for (const mark of marked) expect(mark).toMatchObject({ kind: 'injection', canary: expect.stringMatching(/^ZQ-[0-9A-F]{8}$/) });
    } finally {
      store.close();
    }
  });

  it('reports the fault recovery of the retrying oracle and the calls it added, with intervals', async () => {
    const { code, output, report } = await robustness('faults=0.5');
    expect(code, output).toBe(0);
    const rates = report.rates as Array<{ name: string; tasks: number; interval: { estimate: number; low: number; high: number } }>;
    const recovery = rates.find((entry) => entry.name === 'exception-recovery rate');
    expect(recovery?.interval.estimate).toBeGreaterThan(0.5);
    expect(recovery?.interval.low).toBeLessThanOrEqual(recovery?.interval.estimate ?? 0);
    const deltas = report.deltas as Array<{ name: string; comparison: { difference: { estimate: number }; tasks: number } }>;
    expect(deltas.find((entry) => entry.name === 'tool calls added')?.comparison.difference.estimate).toBeGreaterThan(0);
    expect(deltas.find((entry) => entry.name === 'task success')?.comparison.tasks).toBe(8);
  }, 120_000);

  it("m3 compare of the clean and a conditioned cell adds the condition's rates with their intervals", async () => {
    const outcome = await runM3InProcess(['compare', `${batchFile}#replay-gt-retry-1`, `${batchFile}#replay-gt-retry-1+faults=0.5`]);
    expect(outcome.code, outcome.output).toBe(0);
    expect(outcome.stdout).toMatch(/replay-gt-retry-1 .* on pass/);
    expect(outcome.stdout).toMatch(/exception-recovery rate: \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] over \d+ task\(s\)/);
    const plain = await runM3InProcess(['compare', `${batchFile}#replay-gt-retry-1`, `${batchFile}#replay-gt-retry-1`, '--json']);
    expect(plain.code, plain.output).toBe(0);
    expect(JSON.parse(plain.stdout).robustness).toBeUndefined();
  }, 120_000);

  it('m3 summary lists each robustness cell against the clean cell, in text and --json', async () => {
    const text = await runM3InProcess(['summary', '--batch', batchFile, '--results', results]);
    expect(text.code, text.output).toBe(0);
    expect(text.stdout).toMatch(
      /robustness replay-gt-retry-1\+faults=0\.5 vs replay-gt-retry-1: task success -?\d\.\d{3} \[.*\] \(conditioned - clean\); exception-recovery rate/,
    );
    expect(text.stdout).toMatch(/robustness replay-gt-retry-1\+inject=v1 vs replay-gt-retry-1: .*attack success rate 0\.000/);
    const json = await runM3InProcess(['summary', '--batch', batchFile, '--results', results, '--json']);
    expect(json.code, json.output).toBe(0);
    const reports = JSON.parse(json.stdout).robustness as Array<{ conditioned: string }>;
    expect(reports.map((report) => report.conditioned)).toEqual([
      'replay-gt-retry-1+faults=0.5',
      'replay-gt-retry-1+distractors=6',
      'replay-gt-retry-1+inject=v1',
    ]);
  }, 120_000);

  it('reports no attack success for the oracle, which ignores planted instructions, and prints the definitions', async () => {
    const { report } = await robustness('inject=v1');
    const rates = report.rates as Array<{ name: string; interval: { estimate: number } }>;
    expect(rates.find((entry) => entry.name === 'attack success rate')?.interval.estimate).toBe(0);
    const text = await runM3InProcess(['robustness', `${batchFile}#replay-gt-retry-1`, `${batchFile}#replay-gt-retry-1+distractors=6`]);
    expect(text.code, text.output).toBe(0);
    expect(text.stdout).toMatch(/distractor-call rate: 0\.000 .* calls answered by a planted distractor \/ all calls/);
    expect(text.stdout).toMatch(/selection accuracy: 1\.000/);
  }, 120_000);
});
