// Per-task success rules in the trial statistics: a task set mixing rule-evaluator tasks, precise
// answer tasks and plain step tasks, run by the oracle and the seeded noisy oracle with
// `m3 run --trials 2` (in this process: test/support/m3-in-process.ts) over the real math server, each trial scored by the step
// layer. Every trial's pass must follow its task's rule: the checks for a task with checks
// (whatever its step alignment), exact step alignment for the others.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { loadBatchResults, type CellResults } from '../../src/stats/batch-results.js';
import { summarizeCell } from '../../src/stats/cell-summary.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-success-rules-'));
const configFile = path.join(dir, 'servers.json');
const gtFile = path.join(dir, 'gt.json');
const storeFile = path.join(dir, 'store.sqlite');
const results = (name: string) => path.join(dir, 'results', name);
const batchFile = (name: string) => path.join(results(name), `${name}.batch.json`);

const add = (a: number, b: number) => ({ name: 'math/add', arguments: { firstNumber: a, secondNumber: b } });
const sumOf = (index: number) => 10 * index + 3 + (index + 4);

// Two rounds each, so the noisy oracle's drops break the step alignment of some trials while the
// answer (changed only with its own probability) may still be right, and the other way round.
function task(kind: 'rules' | 'answer' | 'step', index: number) {
  const sum = sumOf(index);
  const base = {
    id: `${kind}-${index}`,
    type: kind,
    question: `Add ${10 * index + 3} and ${index + 4}, check it with a second sum, and state the total.`,
    steps: [
      { step: 1, calls: [add(10 * index + 3, index + 4)] },
      { step: 2, calls: [add(index, 1)] },
    ],
    final_reply: `The total is ${sum}.`,
  };
  if (kind === 'rules') return { ...base, evaluators: [{ func: 'numbers', op: 'contains', value: sum }] };
  if (kind === 'answer') return { ...base, answer: { value: sum, tolerance: 0.001 } };
  return base;
}

const gt = (['rules', 'answer', 'step'] as const).flatMap((kind) => Array.from({ length: 5 }, (_, index) => task(kind, index + 1)));

async function runAndScore(model: string, name: string) {
  const outcome = await runM3InProcess(
    ['run', '--model', model, '--tasks', gtFile, '--gt', gtFile, '--config', configFile, '--run-dir', results(name), '--store', storeFile].concat([
      '--run-id',
      name,
      '--trials',
      '2',
      '--concurrency',
      '2',
    ]),
    { M3_WORKSPACE_MODE: 'isolated' },
  );
  expect(outcome.code, outcome.output).toBe(0);
  for (const cell of loadBatchManifest(batchFile(name)).cells) {
    for (const trial of cell.trials) {
      await runStepFiles({
        gtFile,
        predFile: path.resolve(results(name), trial.predictions),
        outputDir: path.join(results(name), trial.label),
        embedder: createEmbedder(),
        mode: 'default',
        thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
      });
    }
  }
}

function onlyCell(name: string): CellResults {
  const [cell] = loadBatchResults(batchFile(name)).cells;
  if (!cell) throw new Error(`${name}: no cell`);
  return cell;
}

interface Expected {
  passed: boolean;
  stepExact: boolean;
}

/** What each trial should score, read straight from the files: the reply for checked tasks, the step metrics otherwise. */
function expectedOutcomes(name: string): Map<string, Expected[]> {
  const expected = new Map<string, Expected[]>();
  for (const trial of loadBatchManifest(batchFile(name)).cells[0]?.trials ?? []) {
    const predictions = JSON.parse(readFileSync(path.join(results(name), trial.predictions), 'utf8')) as Array<{ id: string; final_reply: string }>;
    const step = JSON.parse(readFileSync(path.join(results(name), trial.label, 'results_eval.json'), 'utf8')) as {
      per_id: Array<{ id: string; recall: number; precision: number }>;
    };
    for (const prediction of predictions) {
      const index = Number(prediction.id.split('-')[1]);
      const metrics = step.per_id.find((entry) => entry.id === prediction.id);
      const stepExact = metrics?.recall === 1 && metrics.precision === 1;
      const replyRight = (prediction.final_reply.match(/\d+/g) ?? []).map(Number).includes(sumOf(index));
      const passed = prediction.id.startsWith('step-') ? stepExact : replyRight;
      expected.set(prediction.id, [...(expected.get(prediction.id) ?? []), { passed, stepExact }]);
    }
  }
  return expected;
}

beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  writeFileSync(gtFile, JSON.stringify(gt));
  await runAndScore('replay:gt', 'oracle');
  await runAndScore('replay:noisy?seed=11&drop=0.3&noise=0.4', 'noisy');
}, 600_000);

describe('trial pass rates follow each task’s success rule', { timeout: 120_000 }, () => {
  it('names the rule per task: rules for evaluator tasks, answer for precise-answer tasks, step for the rest', () => {
    const summary = summarizeCell(onlyCell('oracle'));
    expect(summary.tasks).toBe(15);
    expect(Object.entries(summary.successRules).map(([id, rule]) => `${id}:${rule}`)).toEqual(
      [...gt].sort((a, b) => a.id.localeCompare(b.id)).map((entry) => `${entry.id}:${entry.type}`),
    );
    for (const interval of [summary.passAt1, summary.passAtK, summary.passHatK]) expect(interval).toEqual({ estimate: 1, low: 1, high: 1 });
  });

  it('passes a checked task by its checks and a plain task by its step alignment, trial by trial, into pass@1 and pass^k', () => {
    const cell = onlyCell('noisy');
    const expected = expectedOutcomes('noisy');
    let divergent = 0;
    for (const [taskId, outcomes] of cell.tasks) {
      const wanted = expected.get(taskId) ?? [];
      expect(
        outcomes.map((outcome) => outcome.passed),
        taskId,
      ).toEqual(wanted.map((entry) => entry.passed));
      if (!taskId.startsWith('step-')) divergent += wanted.filter((entry) => entry.passed !== entry.stepExact).length;
    }
    // The seed makes the rules and the step alignment disagree on some checked trials: the
    // checks, not the step rule, decided them.
    expect(divergent).toBeGreaterThan(0);
    const summary = summarizeCell(cell);
    const perTask = [...expected.values()].map((entries) => entries.filter((entry) => entry.passed).length / entries.length);
    expect(summary.passAt1.estimate).toBeCloseTo(perTask.reduce((sum, share) => sum + share, 0) / perTask.length, 12);
    const allPass = [...expected.values()].filter((entries) => entries.every((entry) => entry.passed)).length;
    expect(summary.passHatK.estimate).toBeCloseTo(allPass / expected.size, 12);
    expect(summary.passHatK.estimate).toBeLessThan(1);
  });

  it('m3 summary states the rule used per task', async () => {
    const outcome = await runM3InProcess(['summary', '--results', results('noisy'), '--save', path.join(dir, 'save')]);
    expect(outcome.code, outcome.output).toBe(0);
    expect(outcome.stdout).toContain(
      'success_rule answer 5 task(s) (answer-1, answer-2, answer-3, answer-4, answer-5); rules 5 task(s) (rules-1, rules-2, rules-3, rules-4, rules-5); step 5 task(s)',
    );
  });
});
