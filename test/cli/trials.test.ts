// Trials end to end: `m3 run --trials 3` (the oracle and the seeded noisy oracle over the math
// server), every trial scored by the step layer, then `m3 summary`,
// `m3 compare`, `m3 gate` and `m3 trends` reading the batch manifests, prediction files and
// evaluation outputs they wrote, and a real SQLite store. The commands run in this process
// (test/support/m3-in-process.ts: the CLI's program, printing and exit status without a node
// start each); one `m3 gate` that fails runs as a real child, for the exit status CI sees.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { loadBatchResults } from '../../src/stats/batch-results.js';
import { summarizeCell } from '../../src/stats/cell-summary.js';
import { episodesForRun, listRuns, openStore } from '../../src/store/index.js';
import { runM3 } from '../support/m3-child.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-trials-'));
const configFile = path.join(dir, 'servers.json');
const driftConfigFile = path.join(dir, 'servers-drift.json');
const tasksFile = path.join(dir, 'tasks.json');
const changedTasksFile = path.join(dir, 'tasks-changed.json');
const gtFile = path.join(dir, 'gt.json');
const storeFile = path.join(dir, 'store.sqlite');
const results = (name: string) => path.join(dir, 'results', name);
const batchFile = (name: string) => path.join(results(name), `${name}.batch.json`);

function add(a: number, b: number) {
  return { name: 'math/add', arguments: { firstNumber: a, secondNumber: b } };
}

// Ten tasks of one to three rounds, so the noisy oracle's drops and noise fail some trials.
const gt = Array.from({ length: 10 }, (_, index) => ({
  id: `t${index + 1}`,
  type: 'arith',
  question: `Add the numbers of task ${index + 1}.`,
  steps: Array.from({ length: 1 + (index % 3) }, (_, step) => ({ step: step + 1, calls: [add(index + step, 2 * step + 1), add(index * 3, step + 7)] })),
  final_reply: `done ${index + 1}`,
}));

async function run(model: string, name: string, extra: string[] = [], tasks = tasksFile) {
  const outcome = await runM3InProcess(
    [
      'run',
      '--model',
      model,
      '--tasks',
      tasks,
      '--gt',
      gtFile,
      '--config',
      configFile,
      '--run-dir',
      results(name),
      '--store',
      storeFile,
      '--run-id',
      name,
      '--concurrency',
      '2',
      ...extra,
    ],
    { M3_WORKSPACE_MODE: 'isolated' },
  );
  expect(outcome.code, outcome.output).toBe(0);
}

/** `m3 eval step` semantics in-process, once per trial file of the batch (the CLI is covered in test/eval/step). */
async function evaluate(name: string) {
  const file = batchFile(name);
  const manifest = loadBatchManifest(file);
  for (const cell of manifest.cells) {
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

function onlyCell(name: string) {
  const [cell] = loadBatchResults(batchFile(name)).cells;
  if (!cell) throw new Error(`${name}: the batch has no cell`);
  return cell;
}

beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  // The same server name with another tool list: a resume must notice.
  writeFileSync(
    driftConfigFile,
    JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/echo.ts'), env: {} } } }),
  );
  writeFileSync(gtFile, JSON.stringify(gt));
  const tasks = gt.map((task) => ({ id: task.id, type: task.type, prompt: task.question, question: task.question }));
  writeFileSync(tasksFile, JSON.stringify(tasks));
  writeFileSync(changedTasksFile, JSON.stringify(tasks.map((task, index) => (index === 0 ? { ...task, question: `${task.question} Please.` } : task))));
  mkdirSync(results('.'), { recursive: true });
  await run('replay:gt', 'oracle', ['--trials', '3']);
  await run('replay:noisy?seed=7', 'noisy-a', ['--trials', '3']);
  await run('replay:noisy?seed=7', 'noisy-b', ['--trials', '3']);
  await run('replay:noisy?seed=8', 'noisy-c', ['--trials', '3']);
  await run('replay:gt', 'oracle-changed', ['--trials', '3'], changedTasksFile);
  // One batch through the CLI (m3 eval batch), the others through the same library call.
  const scored = await runM3InProcess(['eval', 'batch', batchFile('oracle'), '--gt', gtFile]);
  expect(scored.code, scored.output).toBe(0);
  expect(JSON.parse(scored.stdout).evaluated).toHaveLength(3);
  for (const name of ['noisy-a', 'noisy-b', 'noisy-c', 'oracle-changed']) await evaluate(name);
}, 900_000);

// The failing gate is a child process of a few seconds; a busy 2-core machine needs room.
describe('m3 run --trials and the statistics commands', { timeout: 300_000 }, () => {
  it('writes one prediction file and manifest per trial, a batch manifest, and the trial column in the store', () => {
    const manifest = loadBatchManifest(batchFile('noisy-a'));
    expect(manifest.trials).toBe(3);
    expect(manifest.cells).toHaveLength(1);
    const cell = manifest.cells[0];
    expect(cell?.trials.map((trial) => trial.predictions)).toEqual([1, 2, 3].map((t) => `replay-noisy-seed-7.trial-${t}_test_mcp_fuzzy.json`));
    const predictions = JSON.parse(readFileSync(path.join(results('noisy-a'), 'replay-noisy-seed-7.trial-2_test_mcp_fuzzy.json'), 'utf8')) as Array<{
      id: string;
      prompt_hash?: string;
    }>;
    expect(predictions).toHaveLength(10);
    expect(predictions[0]?.prompt_hash).toMatch(/^[0-9a-f]{64}$/);
    const trialManifest = JSON.parse(readFileSync(path.join(results('noisy-a'), 'replay-noisy-seed-7.trial-2_test_mcp_fuzzy.manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(trialManifest).toMatchObject({ trial: 2, trials: 3, batchId: 'noisy-a', condition: { name: 'baseline' } });
    expect(trialManifest.taskSetHash).toMatch(/^[0-9a-f]{64}$/);
    expect((trialManifest.versions as Record<string, string>)['@modelcontextprotocol/sdk']).toMatch(/^\d+\.\d+/);
    const store = openStore(storeFile, { readonly: true });
    try {
      const row = listRuns(store).find((entry) => entry.runId === 'noisy-a.replay-noisy-seed-7');
      expect(row).toMatchObject({ batchId: 'noisy-a', condition: 'baseline', trials: 3 });
      const episodes = episodesForRun(store, 'noisy-a.replay-noisy-seed-7');
      expect(episodes.map((episode) => episode.trial).sort()).toEqual([...Array(10).fill(1), ...Array(10).fill(2), ...Array(10).fill(3)]);
      expect(new Set(episodes.map((episode) => episode.promptHash)).size).toBe(10);
    } finally {
      store.close();
    }
  });

  it('orders pass^k <= pass@1 <= pass@k for the noisy oracle with spread across trials, and collapses every interval for the oracle', () => {
    const noisy = summarizeCell(onlyCell('noisy-a'));
    expect(noisy.tasks).toBe(10);
    expect(noisy.passHatK.estimate).toBeLessThanOrEqual(noisy.passAt1.estimate);
    expect(noisy.passAt1.estimate).toBeLessThanOrEqual(noisy.passAtK.estimate);
    expect(noisy.passHatK.estimate).toBeLessThan(noisy.passAtK.estimate);
    expect(noisy.metrics.recall.acrossTrials.std).toBeGreaterThan(0);
    const oracle = summarizeCell(onlyCell('oracle'));
    for (const interval of [oracle.passAt1, oracle.passAtK, oracle.passHatK, oracle.metrics.recall.interval, oracle.metrics.precision.interval]) {
      expect(interval).toEqual({ estimate: 1, low: 1, high: 1 });
    }
    expect(oracle.metrics.recall.acrossTrials.std).toBe(0);
  });

  it('m3 summary prints the pass rates with intervals and the success rule', async () => {
    const outcome = await runM3InProcess(['summary', '--results', results('oracle'), '--save', path.join(dir, 'save')]);
    expect(outcome.code, outcome.output).toBe(0);
    expect(outcome.stdout).toMatch(/replay-gt\s+10\s+3\s+1\.000 \[1\.000, 1\.000\]\s+1\.000 \[1\.000, 1\.000\]\s+1\.000 \[1\.000, 1\.000\]\s+1\.000/);
    expect(outcome.stdout).toContain('"step" (a task without checks) = step recall = 1 and precision = 1');
    expect(outcome.stdout).toContain('replay-gt: success_rule step 10 task(s)');
    expect(outcome.stdout).toContain('2000 resamples, seed 20240615');
    // Performance from the store, in a table of its own: 10 tasks x 3 trials, then per trial; no price for a replay.
    expect(outcome.stdout).toMatch(/replay-gt\s+all\s+30\s+\d+\.\d{2}\s+\d/);
    expect(outcome.stdout).toMatch(/replay-gt\s+3\s+10\s+\d+\.\d{2}\s+\d/);
    expect(outcome.stdout).toContain('performance per valid trial (infrastructure failures left out)');
    expect(outcome.stdout).toContain('replay-gt: no price known for the model');
  });

  it('m3 report adds the trials table with its intervals to report.md and report.html', async () => {
    const save = path.join(dir, 'report');
    const outcome = await runM3InProcess(['report', '--results', results('noisy-a'), '--save', save, '--gt', gtFile]);
    expect(outcome.code, outcome.output).toBe(0);
    const markdown = readFileSync(path.join(save, 'report.md'), 'utf8');
    expect(markdown).toContain('Pass rates with 95% confidence intervals (batch noisy-a)');
    expect(markdown).toMatch(/\| replay-noisy-seed-7 \| 10 \| 3 \| 0\.\d{3} \[0\.\d{3}, [01]\.\d{3}\] \|/);
    expect(markdown).toContain('Performance per cell and trial (batch noisy-a)');
    expect(readFileSync(path.join(save, 'report.html'), 'utf8')).toContain('Trials and uncertainty');
  });

  it('m3 compare finds the oracle better than the noisy oracle, and no difference between two identically seeded noisy runs', async () => {
    const better = await runM3InProcess(['compare', batchFile('oracle'), batchFile('noisy-a'), '--json']);
    expect(better.code, better.output).toBe(0);
    expect(JSON.parse(better.stdout)).toMatchObject({ verdict: 'a_better', tasks: 10 });
    const same = await runM3InProcess(['compare', batchFile('noisy-a'), batchFile('noisy-b'), '--json']);
    expect(same.code, same.output).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({
      verdict: 'no_difference',
      difference: { estimate: 0, low: 0, high: 0 },
      signTest: { wins: 0, losses: 0, ties: 10 },
    });
    const text = await runM3InProcess(['compare', batchFile('oracle'), batchFile('noisy-a'), '--metric', 'recall']);
    expect(text.stdout).toMatch(/^replay-gt beats replay-noisy-seed-7 on recall: \+\d\.\d{3} \[/);
  });

  it('m3 gate passes identical runs, fails an injected drop and a pass-rate floor, and passes a seed change within noise', async () => {
    const identical = await runM3InProcess(['gate', '--baseline', batchFile('noisy-a'), '--candidate', batchFile('noisy-b')]);
    expect(identical.code, identical.output).toBe(0);
    expect(identical.stdout).toContain('gate: PASS');
    const drop = await runM3(['gate', '--baseline', batchFile('oracle'), '--candidate', batchFile('noisy-a'), '--max-drop', '0.02']);
    expect(drop.code, drop.output).toBe(1);
    expect(drop.stdout).toMatch(/gate: FAIL\n {2}- pass dropped by 0\.\d{3} \(> max drop 0\.02\)/);
    const floor = await runM3InProcess(['gate', '--baseline', batchFile('noisy-a'), '--candidate', batchFile('noisy-b'), '--min-pass-rate', '0.99']);
    expect(floor.code, floor.output).toBe(1);
    expect(floor.stdout).toMatch(/pass@1 0\.\d{3} is under the floor 0\.99/);
    const seed = await runM3InProcess(['gate', '--baseline', batchFile('noisy-a'), '--candidate', batchFile('noisy-c'), '--json']);
    const verdict = JSON.parse(seed.stdout) as { passed: boolean; comparison: { difference: { low: number; high: number } } };
    expect(verdict.comparison.difference.low).toBeLessThan(0);
    expect(verdict.comparison.difference.high).toBeGreaterThan(0);
    expect(seed.code, seed.output).toBe(0);
  });

  it('m3 trends splits a trend line where the task set changed, joins it with --join, and compare refuses across it', async () => {
    const outcome = await runM3InProcess(['trends', '--results', results('.'), '--cell', 'replay-gt', '--json']);
    expect(outcome.code, outcome.output).toBe(0);
    const { lines } = JSON.parse(outcome.stdout) as { lines: Array<{ segments: Array<{ points: Array<{ batchId: string }> }>; crossed: string[] }> };
    expect(lines).toHaveLength(1);
    expect(lines[0]?.segments.map((segment) => segment.points.map((point) => point.batchId))).toEqual([['oracle'], ['oracle-changed']]);
    const joined = JSON.parse(
      (await runM3InProcess(['trends', '--results', results('.'), '--cell', 'replay-gt', '--join', '--json'])).stdout,
    ) as typeof lines extends unknown ? { lines: typeof lines } : never;
    expect(joined.lines[0]?.segments).toHaveLength(1);
    expect(joined.lines[0]?.crossed[0]).toMatch(/^at oracle-changed: task set [0-9a-f]{12} -> [0-9a-f]{12}$/);
    const refused = await runM3InProcess(['compare', batchFile('oracle'), batchFile('oracle-changed')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not comparable: task sets differ .*pass --allow-mismatch/);
  });

  it('refuses a --resume whose server lists other tools than the run recorded', async () => {
    const outcome = await runM3InProcess([
      'run',
      '--model',
      'replay:gt',
      '--tasks',
      tasksFile,
      '--gt',
      gtFile,
      '--config',
      driftConfigFile,
      '--run-dir',
      results('oracle'),
      '--store',
      storeFile,
      '--run-id',
      'oracle',
      '--trials',
      '3',
      '--resume',
    ]);
    expect(outcome.code, outcome.output).toBe(2);
    expect(outcome.stderr).toMatch(
      /--resume of run "oracle\.replay-gt": the tool surface changed since it was recorded: math \([0-9a-f]{12} -> [0-9a-f]{12}\).*--allow-tool-drift/,
    );
  });
});
