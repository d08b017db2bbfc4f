// The run as the unit of record, as a new user meets it: the benchmark script (the oracle and
// the noisy agent), then a second run of the noisy agent with another seed into the same results
// folder, then a run that reuses the first run's id. Each run owns a folder under runs/, the
// second never refuses or overwrites the first, each run's step and CV outputs are its own (the
// default outputs of `m3 eval step` / `m3 eval cv` land in the run's folder; the viewer reads each
// run's numbers from its own folder), the refused run is refused before any server starts and
// leaves no row, a tool that writes `media/...` writes into the task's workspace in the run
// folder, and the repository's `git status` is what it was. Small task set (math and excel
// servers) so it runs on a loaded machine; test/e2e/bench.test.ts runs the full embedded default.
// The script starts real `m3` processes (from dist/ when it is fresh, M3_USE_DIST=1: through tsx
// each start transpiles every module it loads); the later commands run in this process
// (test/support/m3-in-process.ts), since their folders and numbers are the point, not the process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRuns, openStore } from '../../src/store/index.js';
import { runsPage } from '../../src/view/pages.js';
import { distIsFresh } from '../support/built-entry.js';
import { runCommand } from '../support/m3-child.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-run-folders-'));
const resultsDir = path.join(dir, 'results');
const tasksFile = path.join(dir, 'tasks.json');
const outputName = `m3-run-folder-${path.basename(dir)}.xlsx`;
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const gitStatus = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repoRoot }).toString();

// Two math tasks, and one that writes a workbook named under media/ (as the original set's do).
writeFileSync(
  tasksFile,
  JSON.stringify([
    ...readJson(path.join(repoRoot, 'test/fixtures/tasks/math-gt.json')),
    {
      id: 'xlsx-0001',
      question: 'Write the numbers 1 and 2 into a new workbook.',
      steps: [
        { step: 1, calls: [{ name: 'excel/create_workbook', arguments: { filepath: `./media/${outputName}`, sheet_name: 'Numbers' } }] },
        { step: 2, calls: [{ name: 'excel/write_data_to_excel', arguments: { filepath: `./media/${outputName}`, sheet_name: 'Numbers', data: [[1, 2]] } }] },
      ],
      final_reply: 'Done: 1 and 2 are in the workbook.',
    },
  ]),
);
const common = ['--tasks', tasksFile, '--gt', tasksFile, '--servers', 'math', 'excel'];

describe('run folders: the new user path', () => {
  it('keeps every run in its own folder, reads each run from its own files, refuses a reused id up front, and leaves the repository clean', async () => {
    const before = gitStatus();
    // 1. The benchmark script, as `npm run bench` runs it (the oracle and the noisy agent), all layers.
    const bench = await runCommand('bash', ['scripts/benchmark_fuzzy.sh', '--servers', 'math', 'excel'], {
      M3_USE_DIST: distIsFresh() ? '1' : '0',
      M3_TASKS: tasksFile,
      M3_GT: tasksFile,
      M3_RESULTS_DIR: resultsDir,
      M3_SKIP_ASSETS: '1',
    });
    expect(bench.code, bench.output.slice(-4000)).toBe(0);
    const first = realpathSync(path.join(resultsDir, 'latest'));
    expect(path.dirname(first)).toBe(realpathSync(path.join(resultsDir, 'runs')));
    for (const file of [
      'replay-gt_test_mcp_fuzzy.json',
      'replay-gt/results_eval.json',
      'replay-gt/task_eval.json',
      'replay-noisy/callanalysis.json',
      'save/report.html',
    ])
      expect(existsSync(path.join(first, file)), file).toBe(true);
    expect(readdirSync(first).filter((name) => name.endsWith('.batch.json'))).toEqual([`${path.basename(first)}.batch.json`]);
    // The workbook the task named under media/ is in that task's workspace inside the run folder.
    const workspaces = path.join(first, 'workspaces');
    const written = readdirSync(workspaces, { recursive: true }).map(String);
    expect(written.filter((file) => file.endsWith(outputName)).length).toBeGreaterThan(0);
    expect(existsSync(path.join(repoRoot, 'media', outputName))).toBe(false);
    const firstPredictions = readFileSync(path.join(first, 'replay-noisy_test_mcp_fuzzy.json'), 'utf8');

    // 2. A second run of the noisy agent with another seed: no refusal, no overwrite, its own folder.
    const second = await runM3InProcess(['run', '--model', 'replay:noisy', '--seed', '7', '--results-dir', resultsDir, ...common]);
    expect(second.code, second.output.slice(-3000)).toBe(0);
    const secondDir = realpathSync(path.join(resultsDir, 'latest'));
    expect(secondDir).not.toBe(first);
    expect(readFileSync(path.join(first, 'replay-noisy_test_mcp_fuzzy.json'), 'utf8')).toBe(firstPredictions);
    const secondPredictions = path.join(secondDir, 'replay-noisy_test_mcp_fuzzy.json');
    // `m3 eval step` and `m3 eval cv` without --output-dir write into the run's folder.
    const step = await runM3InProcess(['eval', 'step', '--gt', tasksFile, '--pred', secondPredictions]);
    expect(step.code, step.output.slice(-2000)).toBe(0);
    const cv = await runM3InProcess(['eval', 'cv', '--gt', tasksFile, '--pred', secondPredictions]);
    expect(cv.code, cv.output.slice(-2000)).toBe(0);
    expect(existsSync(path.join(secondDir, 'replay-noisy', 'results_eval.json'))).toBe(true);
    expect(existsSync(path.join(secondDir, 'results_cv', 'replay-noisy', 'results_cv_eval.json'))).toBe(true);
    expect(existsSync(path.join(first, 'results_cv'))).toBe(false);
    expect(readJson(path.join(secondDir, 'replay-noisy_test_mcp_fuzzy.manifest.json')).seed).toBe(7);

    // The viewer's runs page: each noisy run shows the step numbers of its own folder.
    const store = openStore(path.join(resultsDir, 'm3bench.sqlite'), { readonly: true });
    try {
      const noisyRuns = listRuns(store, { modelLabel: 'replay-noisy' });
      expect(noisyRuns).toHaveLength(2);
      const page = runsPage({ store, resultsDir });
      for (const [run, folder] of [
        [noisyRuns.find((entry) => entry.batchId === path.basename(first)), first],
        [noisyRuns.find((entry) => entry.batchId === path.basename(secondDir)), secondDir],
      ] as const) {
        const shown = page.runs.find((entry) => entry.runId === run?.runId);
        const own = readJson(path.join(folder, 'replay-noisy', 'results_eval.json')).aggregate;
        expect(shown?.step).toEqual({ recall: own.recall, precision: own.precision, avg_sim_all_cov: own.avg_sim_all_cov });
      }
    } finally {
      store.close();
    }

    // `m3 summary` with no folder reads the latest run: the second one, the noisy agent alone.
    const summary = await runM3InProcess(['summary', '--results-dir', resultsDir, '--save', path.join(dir, 'save')]);
    expect(summary.code, summary.output).toBe(0);
    expect(summary.stdout).toContain('replay-noisy');
    expect(summary.stdout).not.toContain('replay-gt');

    // 3. A run reusing the first run's id is refused before any server starts, and leaves no row.
    const runsBefore = listRunsOf(resultsDir);
    const refused = await runM3InProcess(['run', '--model', 'replay:gt', '--results-dir', resultsDir, '--run-id', path.basename(first), ...common]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`pass --resume ${path.basename(first)}`);
    expect(refused.output).not.toMatch(/starting server|server .* ready/i);
    expect(listRunsOf(resultsDir)).toEqual(runsBefore);
    expect(readlinkSync(path.join(resultsDir, 'latest'))).toBe(path.join('runs', path.basename(secondDir)));

    expect(gitStatus()).toBe(before);
  }, 900_000);
});

function listRunsOf(results: string): Array<{ runId: string; status: string }> {
  const store = openStore(path.join(results, 'm3bench.sqlite'), { readonly: true });
  try {
    return listRuns(store).map((run) => ({ runId: run.runId, status: run.status }));
  } finally {
    store.close();
  }
}
