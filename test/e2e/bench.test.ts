// The main job end to end: `bash scripts/benchmark_fuzzy.sh` with its defaults (the embedded
// default: oracle + noisy oracle over the bundled local suite, real servers, all three
// evaluation layers and the task level, report), into a temporary results/save folder; the run's
// files land in its own folder, <results>/runs/<run-id>/, which <results>/latest names.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodesForRun, listRuns, openStore } from '../../src/store/index.js';
import { assertAssetsInCi, missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-e2e-'));
const resultsDir = path.join(dir, 'results');
const saveDir = path.join(dir, 'save');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

assertAssetsInCi();
const suite = readJson(path.join(repoRoot, 'json/m3_local_GT.json')) as Array<{
  id: string;
  tier: string;
  steps: Array<{ calls: Array<{ expect_error?: boolean }> }>;
}>;

describe.skipIf(!sharedAssetsDir())(`npm run bench (embedded default)${sharedAssetsDir() ? '' : ` — ${missingAssetsMessage}`}`, () => {
  it('predicts, evaluates and reports the oracle and the noisy oracle', async () => {
    const child = spawn('bash', ['scripts/benchmark_fuzzy.sh'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        CI: '1',
        M3_RESULTS_DIR: resultsDir,
        M3_SAVE_DIR: saveDir,
        M3_SKIP_ASSETS: '1',
        // The scripts' m3 runs from dist/ when fresh (scripts/lib.sh); M3_TEST_FROM_SOURCE=1 keeps it on the source.
        ...(process.env.M3_TEST_FROM_SOURCE === '1' ? { M3_USE_DIST: '0' } : {}),
      },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output.slice(-4000)).toBe(0);
    // The run's own folder, which results/latest names once the run finished.
    const runDir = realpathSync(path.join(resultsDir, 'latest'));
    expect(path.dirname(runDir)).toBe(realpathSync(path.join(resultsDir, 'runs')));

    for (const label of ['replay-gt', 'replay-noisy']) {
      const predictions = readJson(path.join(runDir, `${label}_test_mcp_fuzzy.json`)) as Array<{ id: string }>;
      expect(predictions.map((record) => record.id).sort()).toEqual(suite.map((task) => task.id).sort());
      for (const file of ['results_eval.json', 'results_eval.csv', 'callanalysis.json', 'final_proxy.json']) {
        expect(existsSync(path.join(runDir, label, file)), `${label}/${file}`).toBe(true);
      }
    }
    const oracle = readJson(path.join(runDir, 'replay-gt', 'results_eval.json')).aggregate;
    const noisy = readJson(path.join(runDir, 'replay-noisy', 'results_eval.json')).aggregate;
    expect(oracle.recall).toBe(1);
    expect(oracle.precision).toBe(1);
    expect(oracle.avg_sim_all_cov).toBeCloseTo(1, 6);
    // The noisy oracle drops calls, corrupts arguments and swaps tools: each hits these metrics.
    expect(noisy.recall).toBeLessThan(oracle.recall);
    expect(noisy.avg_sim_all_cov).toBeLessThan(oracle.avg_sim_all_cov);
    expect(noisy.precision).toBeLessThan(oracle.precision);
    // The oracle's only failing calls are the exception tier's deliberate first calls.
    const oracleCalls = readJson(path.join(runDir, 'replay-gt', 'callanalysis.json'));
    const expectedErrors = suite.flatMap((task) => task.steps.flatMap((step) => step.calls)).filter((call) => call.expect_error).length;
    expect(expectedErrors).toBeGreaterThan(0);
    expect(oracleCalls.unknown_tool + oracleCalls.invalid_arguments + oracleCalls.resource_not_found + (oracleCalls.unclassified ?? 0)).toBe(expectedErrors);

    // Task level (evaluate_task.sh): the oracle recovers from every designed failure of the
    // exception tier and completes every task; the noisy oracle recovers less often.
    const oracleTasks = readJson(path.join(runDir, 'replay-gt', 'task_eval.json'));
    const noisyTasks = readJson(path.join(runDir, 'replay-noisy', 'task_eval.json'));
    const exceptionTier = suite.filter((task) => task.tier === 'exception').length;
    expect(oracleTasks.aggregate.exception_recovery_rate).toEqual({ rate: 1, numerator: exceptionTier, denominator: exceptionTier });
    expect(oracleTasks.aggregate.task_success_rate.rate).toBe(1);
    expect(oracleTasks.taxonomy.failed_tasks).toBe(0);
    expect(noisyTasks.aggregate.exception_recovery_rate.rate).toBeLessThan(1);
    expect(noisyTasks.aggregate.task_success_rate.rate).toBeLessThan(1);
    expect(noisyTasks.per_task.filter((task: { success: boolean; taxonomy: unknown }) => !task.success && task.taxonomy).length).toBe(
      noisyTasks.taxonomy.failed_tasks,
    );
    for (const file of ['task_metrics.csv', 'task_tiers.csv', 'error_taxonomy.csv', 'error_taxonomy.png'])
      expect(existsSync(path.join(saveDir, file)), file).toBe(true);

    const store = openStore(path.join(resultsDir, 'm3bench.sqlite'), { readonly: true });
    try {
      const run = listRuns(store, { modelLabel: 'replay-gt' })[0];
      expect(run?.status).toBe('finished');
      const ok = episodesForRun(store, run!.runId, { status: 'ok' });
      expect(new Set(ok.map((episode) => episode.taskId)).size).toBe(suite.length);
    } finally {
      store.close();
    }

    const html = readFileSync(path.join(saveDir, 'report.html'), 'utf8');
    for (const tier of new Set(suite.map((task) => task.tier))) expect(html).toContain(tier);
    expect(html.toLowerCase()).toContain('tier');
    for (const figure of ['metrics_mllm_step_eval.png', 'step_metrics_grouped.svg', 'mcp_tools_per_server.png']) {
      expect(existsSync(path.join(saveDir, figure)), figure).toBe(true);
    }
    expect(output).toContain('replay-gt');
    expect(output).toContain('report.html');
  }, 900_000);
});
