// `m3 eval step` (in this process) and scripts/evaluate_step.sh (a real child) on the real GT: every
// output file is written, the CSV header is exact, stdout carries one JSON line, the cache is
// reused on a second run, and reference-compat differs from the default mode on missing ids.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify as stringifyLossless } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perturb, toPredictionRecords } from '../../support/perturb.js';
import { loadTrajectories } from '../../../src/eval/step/trajectory.js';
import { repoRoot, sharedDataDir } from '../../support/shared-assets.js';
import { distIsFresh } from '../../support/built-entry.js';
import { runM3InProcess } from '../../support/m3-in-process.js';

const dataDir = sharedDataDir();
const gtFile = path.join(dataDir ?? '', 'test_mcp_GT.json');
const expectedHeader =
  'id,total_gt_calls,total_pred_calls,matched,recall,precision,avg_sim_all_cov,avg_sim_strong_cov,step_coherence_cov,merge_purity_cov,order_consistency_cov';

// In this process (test/support/m3-in-process.ts): the command's own stdout and stderr, apart,
// and its exit status, at log level info.
const runCli = (args: string[]) => runM3InProcess(['eval', 'step', ...args], { M3_LOG_LEVEL: 'info' });

describe.skipIf(!dataDir)('m3 eval step', () => {
  let work = '';
  let predFile = '';

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'm3-eval-step-'));
    const gt = loadTrajectories(gtFile, 'gt').byId;
    const pred = perturb(perturb(gt, 'drop-tasks', 0.3, 5), 'corrupt-arguments', 0.3, 5);
    predFile = path.join(work, 'model-x_test_mcp_fuzzy.json');
    writeFileSync(predFile, stringifyLossless(toPredictionRecords(pred), undefined, 2) ?? '[]');
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes every output file with the reference names, an exact CSV header and a JSON line on stdout', async () => {
    const out = path.join(work, 'out');
    const result = await runCli(['--gt', gtFile, '--pred', predFile, '--output-dir', out]);
    expect(result.code, result.stderr).toBe(0);
    for (const name of ['results_eval.json', 'results_eval.csv', 'strong_matches.json', 'weak_matches.json', 'unmatched_predictions.json', '.emb_cache.json']) {
      expect(existsSync(path.join(out, name)), name).toBe(true);
    }
    const csv = readFileSync(path.join(out, 'results_eval.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(expectedHeader);
    expect(csv).toHaveLength(208 + 2);
    expect(csv[1]).toMatch(/^\d{8},\d+,\d+,\d+,\d\.\d+(e-\d+)?,/);

    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0] ?? '{}') as { num_ids: number; coverage: number; recall: number; cache: { hits: number; misses: number } };
    expect(summary.num_ids).toBe(208);
    expect(summary.coverage).toBeLessThan(0.85);
    expect(summary.recall).toBeLessThan(0.7);
    expect(summary.cache.hits).toBe(0);
    expect(result.stderr).toMatch(/Recall\s+:\s+\d+\.\d\d%/);
    expect(result.stderr).toMatch(/Top N Types - Merge Purity :/);
    expect(result.stderr).toMatch(/GT ids are missing in predictions; scored as empty trajectories/);

    const document = JSON.parse(readFileSync(path.join(out, 'results_eval.json'), 'utf8')) as Record<string, unknown> & {
      aggregate: Record<string, unknown>;
      per_id: Array<Record<string, unknown>>;
    };
    expect(Object.keys(document)).toEqual(expect.arrayContaining(['aggregate', 'per_id', 'embedder', 'embedding_cache', 'gt_checks', 'per_type']));
    expect(document.aggregate).toHaveProperty('avg_Rounds');
    expect(document.per_id[0]).toHaveProperty('details.per_step_fragmentation');
    const weak = JSON.parse(readFileSync(path.join(out, 'weak_matches.json'), 'utf8')) as Array<{ similarity: number; gt: { tool: string } }>;
    for (const match of weak) expect(match.similarity).toBeLessThan(0.8);
    const unmatched = JSON.parse(readFileSync(path.join(out, 'unmatched_predictions.json'), 'utf8')) as unknown[];
    expect(unmatched.length).toBeGreaterThan(0);

    const again = await runCli(['--gt', gtFile, '--pred', predFile, '--output-dir', out, '--reference-compat']);
    expect(again.code, again.stderr).toBe(0);
    const compat = JSON.parse(again.stdout) as { num_ids: number; recall: number; mode: string; cache: { hits: number; misses: number } };
    expect(compat.mode).toBe('reference-compat');
    expect(compat.num_ids).toBeLessThan(208);
    expect(compat.recall).toBeGreaterThan(summary.recall);
    expect(compat.cache.misses).toBe(0);
    expect(compat.cache.hits).toBeGreaterThan(0);
  });

  it('fails with a clear message on a bad option or a missing file', async () => {
    const badTau = await runCli(['--gt', gtFile, '--pred', predFile, '--output-dir', path.join(work, 'bad'), '--tau-weak', '0.9']);
    expect(badTau.code).toBe(2);
    expect(badTau.stderr).toMatch(/--tau-weak \(0\.9\) must not exceed --tau-strong \(0\.8\)/);
    const missing = await runCli(['--gt', path.join(work, 'nope.json'), '--pred', predFile, '--output-dir', path.join(work, 'bad')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: cannot read file \(ENOENT\)/);
  });

  it('scripts/evaluate_step.sh evaluates every model with predictions and skips the others', () => {
    const results = path.join(work, 'results');
    mkdirSync(results, { recursive: true });
    writeFileSync(path.join(results, 'model-x_test_mcp_fuzzy.json'), readFileSync(predFile));
    const result = spawnSync('bash', ['scripts/evaluate_step.sh'], {
      cwd: repoRoot,
      encoding: 'utf8',
      // Its `m3` from dist/ when fresh (M3_USE_DIST=1): through tsx each start transpiles every module it loads.
      env: {
        ...process.env,
        M3_USE_DIST: distIsFresh() ? '1' : '0',
        M3_RESULTS_DIR: results,
        GT_PATH: gtFile,
        M3_MODELS: 'model-x,model-absent',
        M3_SKIP_REPORT: '1',
      },
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/skipping model-absent: no predictions/);
    expect(existsSync(path.join(results, 'model-x', 'results_eval.json'))).toBe(true);
    expect(readFileSync(path.join(results, 'model-x', 'results_eval.csv'), 'utf8').split('\r\n')[0]).toBe(expectedHeader);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });
});
