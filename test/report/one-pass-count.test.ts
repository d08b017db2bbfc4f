// One run, one pass count: for a real run of the seeded noisy oracle over tasks decided by rule
// evaluators, by precise answers and by the step alignment, the number of tasks that passed is the
// same in task_eval.json (`m3 eval task`, the rule's definition), `m3 summary --json`, `m3 report`
// (its task_metrics.csv and report.md), the viewer's run page (src/view/pages.ts, in process on the
// run's store, as `m3 view` serves it) and `m3 compare`. The headers of the summary's and the
// report's tables name what each number is (pooled over calls or mean over tasks, which trial or
// all trials), and a `--trials 2` run says which trial every per-file number is from, in the run's
// own closing table and in `m3 summary`. The commands run in this process (test/support/m3-in-process.ts:
// the CLI's program, its printing and exit status); the counts are the point, not the node process.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { openStore } from '../../src/store/index.js';
import { runPage } from '../../src/view/pages.js';
import type { Finished } from '../support/m3-child.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-one-pass-count-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gtFile = path.join(dir, 'gt.json');
const configFile = path.join(dir, 'servers.json');
const runDir = (name: string) => path.join(dir, name);
const noisy = 'replay:noisy?seed=11&drop=0.3&noise=0.4';
const add = (a: number, b: number) => ({ name: 'math/add', arguments: { firstNumber: a, secondNumber: b } });
const sumOf = (index: number) => 10 * index + 3 + (index + 4);

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

let single: Finished;
let twice: Finished;
let label = '';

async function runAndScore(name: string, trials: number): Promise<Finished> {
  const run = await runM3InProcess(
    [
      'run',
      '--model',
      noisy,
      '--tasks',
      gtFile,
      '--gt',
      gtFile,
      '--config',
      configFile,
      '--run-dir',
      runDir(name),
      '--run-id',
      name,
      '--trials',
      String(trials),
    ],
    { M3_WORKSPACE_MODE: 'isolated' },
  );
  expect(run.code, run.output).toBe(0);
  const scored = await runM3InProcess(['eval', 'batch', path.join(runDir(name), `${name}.batch.json`)]);
  expect(scored.code, scored.output).toBe(0);
  return run;
}

beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  writeFileSync(gtFile, JSON.stringify(gt));
  single = await runAndScore('one', 1);
  label = loadBatchManifest(path.join(runDir('one'), 'one.batch.json')).cells[0]?.label ?? '';
  const task = await runM3InProcess(['eval', 'task', '--pred', path.join(runDir('one'), `${label}_test_mcp_fuzzy.json`), '--gt', gtFile]);
  expect(task.code, task.output).toBe(0);
  twice = await runAndScore('two', 2);
}, 600_000);

describe('one run, one pass count', { timeout: 300_000 }, () => {
  it('task_eval.json, m3 summary --json, m3 report, the viewer and m3 compare count the same passes', async () => {
    const taskEval = JSON.parse(readFileSync(path.join(runDir('one'), label, 'task_eval.json'), 'utf8')) as {
      per_task: Array<{ id: string; success: boolean | null }>;
    };
    const passed = taskEval.per_task.filter((entry) => entry.success === true).length;
    const tasks = taskEval.per_task.length;
    expect(tasks).toBe(15);
    // The seeded noise makes it a real count: neither none nor all.
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(tasks);

    const summary = await runM3InProcess(['summary', '--results-dir', runDir('one'), '--json']);
    expect(summary.code, summary.output).toBe(0);
    const [cell] = (JSON.parse(summary.stdout) as { cells: Array<{ tasks: number; passAt1: { estimate: number } }> }).cells;
    expect(cell?.tasks).toBe(tasks);
    expect(Math.round((cell?.passAt1.estimate ?? 0) * tasks)).toBe(passed);

    const save = path.join(dir, 'save-one');
    const report = await runM3InProcess(['report', '--results-dir', runDir('one'), '--save', save, '--gt', gtFile]);
    expect(report.code, report.output).toBe(0);
    const [header, row] = readFileSync(path.join(save, 'task_metrics.csv'), 'utf8').trim().split('\n');
    const columns = (header ?? '').split(',');
    const cells = (row ?? '').split(',');
    expect(Number(cells[columns.indexOf('tasks')])).toBe(tasks);
    expect(Math.round(Number(cells[columns.indexOf('task success')]) * tasks)).toBe(passed);
    const markdown = readFileSync(path.join(save, 'report.md'), 'utf8');
    expect(markdown).toMatch(new RegExp(`\\| ${label.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}[^|]*\\| ${tasks} \\| 1 \\| ${(passed / tasks).toFixed(3)} \\[`));

    const store = openStore(path.join(runDir('one'), 'm3bench.sqlite'), { readonly: true });
    try {
      const page = runPage({ store, resultsDir: runDir('one') }, `one.${label}`);
      expect(page.tasks).toHaveLength(tasks);
      expect(page.tasks.filter((entry) => entry.passed === true).length).toBe(passed);
      const intervals = page.run.intervals as { passAt1?: { estimate: number } };
      expect(Math.round((intervals.passAt1?.estimate ?? 0) * tasks)).toBe(passed);
    } finally {
      store.close();
    }

    const compare = await runM3InProcess(['compare', runDir('one'), runDir('one'), '--json']);
    expect(compare.code, compare.output).toBe(0);
    const compared = JSON.parse(compare.stdout) as { tasks: number; a: number; b: number };
    expect(compared.tasks).toBe(tasks);
    expect(Math.round(compared.a * tasks)).toBe(passed);
  });

  it('every table header in m3 summary and m3 report names its definition', async () => {
    const summary = await runM3InProcess(['summary', '--results-dir', runDir('one')]);
    expect(summary.code, summary.output).toBe(0);
    // The per-file table: one trial, recall pooled over calls (its legend says so).
    expect(summary.stdout).toMatch(/^model\s+trial\s+recall\s+precis/m);
    expect(summary.stdout).toContain('each row is one prediction file: one trial');
    expect(summary.stdout).toContain('recall (calls) and precision (calls): pooled over all GT / predicted calls');
    // The batch table: every column says whether it pools the trials and how.
    expect(summary.stdout).toMatch(
      /^cell\s+tasks\s+k \(trials\/task\)\s+pass@1 \(all trials\)\s+pass@k\s+pass\^k\s+avg@k\s+recall \(task mean, all trials\)\s+precision \(task mean, all trials\)\s+recall per trial \(min\.\.max\)$/m,
    );
    expect(summary.stdout).toContain('every number pools all k trials of each task (episodes = tasks x trials)');
    expect(summary.stdout).toMatch(/^success rule: /m);
    const markdown = readFileSync(path.join(dir, 'save-one', 'report.md'), 'utf8');
    expect(markdown).toContain(
      '| cell | tasks | k (trials/task) | pass@1 (all trials) | pass@k | pass^k | avg@k | recall (task mean, all trials) | precision (task mean, all trials) | recall per trial (min..max) |',
    );
    expect(markdown).toContain('every number pools all k trials of each task');
    expect(markdown).toContain('| model | Average score | recall (calls) | precision (calls) | avg_sim_all_cov (GT-call weighted) |');
    expect(markdown).toContain('Each row is one prediction file (one trial).');
    // The task-level table's "task success" column: its note states the one rule.
    expect(markdown).toMatch(/\| model \| tasks \| task success \|[^\n]*\n(?:\|[^\n]*\n)+\nSuccess: every check a task states passes/);
  });

  it('a --trials 2 run says which trial each per-file number is from', async () => {
    // The run's closing table: one row per trial file, `t/k`.
    expect(twice.stdout).toMatch(/^model\s+trial\s+done/m);
    expect(twice.stdout).toMatch(new RegExp(`^${label}\\.trial-1\\s+1/2\\s+15\\s`, 'm'));
    expect(twice.stdout).toMatch(new RegExp(`^${label}\\.trial-2\\s+2/2\\s+15\\s`, 'm'));
    expect(single.stdout).toMatch(new RegExp(`^${label}\\s+1/1\\s+15\\s`, 'm'));
    // m3 summary: the per-file rows name their trial; the batch table pools both.
    const summary = await runM3InProcess(['summary', '--results-dir', runDir('two')]);
    expect(summary.code, summary.output).toBe(0);
    expect(summary.stdout).toMatch(new RegExp(`^${label}\\.trial-1\\S*\\s+1\\s`, 'm'));
    expect(summary.stdout).toMatch(new RegExp(`^${label}\\.trial-2\\S*\\s+2\\s`, 'm'));
    expect(summary.stdout).toMatch(new RegExp(`^${label}\\S*\\s+15\\s+2\\s+\\d\\.\\d{3} \\[`, 'm'));
  });
});
