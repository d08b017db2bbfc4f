// `bash scripts/benchmark_fuzzy.sh --trials 2`: with k > 1 trials the run writes one prediction
// file per trial (<label>.trial-<t>_test_mcp_fuzzy.json), and the script used to look only for
// the unsuffixed file, printed "nothing was scored" and exited 3 after a successful run. Now each
// trial is evaluated under its own label and the summary pools them. One model over the two-task
// math fixture keeps it short; `--servers math` (passed on to `m3 run`) starts the one server its
// tasks call instead of every enabled server (~12 CPU-s of server starts): which servers run is not
// what this test is about (test/e2e/bench.test.ts runs the script on the full set), the trial
// files and their evaluation are, and both fixture tasks call only math tools. The scripts' `m3`
// runs from dist/ when the build is fresh (scripts/lib.sh decides; M3_TEST_FROM_SOURCE=1 keeps it
// on the source).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';

const fixture = 'test/fixtures/tasks/math-gt.json';

it('evaluates every trial of a --trials 2 run and pools them in the summary', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-trials-'));
  const resultsDir = path.join(dir, 'results');
  const child = spawn('bash', ['scripts/benchmark_fuzzy.sh', '--trials', '2', '--servers', 'math'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      M3_MODELS: 'replay:gt',
      M3_TASKS: fixture,
      M3_GT: fixture,
      M3_RESULTS_DIR: resultsDir,
      M3_SKIP_ASSETS: '1',
      ...(process.env.M3_TEST_FROM_SOURCE === '1' ? { M3_USE_DIST: '0' } : {}),
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code, output.slice(-4000)).toBe(0);
  expect(output).not.toContain('nothing was scored');

  const runDir = realpathSync(path.join(resultsDir, 'latest'));
  for (const trial of ['replay-gt.trial-1', 'replay-gt.trial-2']) {
    const evaluation = JSON.parse(readFileSync(path.join(runDir, trial, 'results_eval.json'), 'utf8')) as {
      aggregate: { recall: number };
    };
    expect(evaluation.aggregate.recall, trial).toBe(1);
    expect(existsSync(path.join(runDir, trial, 'task_eval.json')), `${trial}/task_eval.json`).toBe(true);
  }
  // The summary's performance table has the pooled row and one row per trial.
  expect(output).toMatch(/^replay-gt\s+all\s+4\s/m);
  expect(output).toMatch(/^replay-gt\s+2\s+2\s/m);
}, 900_000);
