// `m3 eval cv` (in this process: test/support/m3-in-process.ts; its files and printed lines are
// the point, not the process) and scripts/evaluate_cv.sh (a real child, its `m3` from dist/ when
// fresh) on the bundled local suite: the reference's output files and CSV header, the metrics
// entry, the encoder note, per-tau folders and the merged results_cv/step_eval_result.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify as stringifyLossless } from 'lossless-json';
import { afterAll, describe, expect, it } from 'vitest';
import { perturb, toPredictionRecords } from '../../support/perturb.js';
import { loadTrajectories } from '../../../src/eval/step/trajectory.js';
import { repoRoot } from '../../support/shared-assets.js';
import { distIsFresh } from '../../support/built-entry.js';
import { runM3InProcess } from '../../support/m3-in-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-eval-cv-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const gtFile = path.join(repoRoot, 'json', 'm3_local_GT.json');
const header = 'id,perception_recall,grounding_arg_sim,visual_reasoning_ability,has_vision_steps,has_perception_steps,has_grounding_steps';

function writePredictions(dir: string, model: string, strength: number): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${model}_test_mcp_fuzzy.json`);
  writeFileSync(file, stringifyLossless(toPredictionRecords(perturb(loadTrajectories(gtFile, 'gt').byId, 'drop-calls', strength, 2)), undefined, 2) ?? '[]');
  return file;
}

describe('m3 eval cv', () => {
  it("writes results_cv_eval.json and .csv, appends the metrics entry, and says the encoder is not the paper's", async () => {
    const pred = writePredictions(path.join(work, 'results'), 'model-a', 0.3);
    const out = path.join(work, 'cv-out');
    const metrics = path.join(work, 'metrics', 'entries.json');
    const run = () =>
      runM3InProcess([
        'eval',
        'cv',
        '--gt',
        gtFile,
        '--pred',
        pred,
        '--output-dir',
        out,
        '--reference-compat',
        '--experiment-name',
        'model-a',
        '--save-metrics-to',
        metrics,
      ]);
    const result = await run();
    expect(result.code, result.stderr).toBe(0);
    const line = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(line).toMatchObject({ mode: 'reference-compat', paper_encoder: false, num_grounding_tasks: 0 });
    expect(line.perception_recall_avg as number).toBeLessThan(1);
    expect(result.stderr).toMatch(/Perception Recall: \d\.\d{4}/);
    expect(result.stderr).toMatch(/NOT the paper's encoder/);
    const document = JSON.parse(readFileSync(path.join(out, 'results_cv_eval.json'), 'utf8')) as {
      aggregate: Record<string, unknown>;
      per_id: unknown[];
      embedder: { note?: string };
    };
    expect(Object.keys(document.aggregate)).toEqual(
      expect.arrayContaining([
        'num_ids',
        'perception_recall_avg',
        'grounding_arg_sim_avg',
        'visual_reasoning_ability',
        'num_perception_tasks',
        'num_grounding_tasks',
        'num_vision_tasks',
      ]),
    );
    expect(document.embedder.note).toMatch(/not the paper's \(BAAI\/bge-small-en-v1\.5\)/);
    const csv = readFileSync(path.join(out, 'results_cv_eval.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(header);
    expect(csv[1]).toMatch(/^\w+,\d\.\d+(e-\d+)?,\d\.\d+,(\d\.\d|),(True|False),(True|False),(True|False)$/);
    expect((await run()).code).toBe(0);
    const entries = JSON.parse(readFileSync(metrics, 'utf8')) as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(2);
    expect(Object.keys(entries[0] ?? {})).toEqual(
      expect.arrayContaining(['Model', 'tau_weak', 'Perception Recall', 'Grounding Similarity', 'Visual Reasoning Ability']),
    );
  }, 180_000);
});

describe('scripts/evaluate_cv.sh', () => {
  it('evaluates every model with predictions per tau, skips the others, and merges the entries', () => {
    const results = path.join(work, 'script-results');
    const cvDir = path.join(work, 'results_cv');
    writePredictions(results, 'model-b', 0.2);
    writePredictions(results, 'model-c', 0.6);
    const env = {
      ...process.env,
      M3_RESULTS_DIR: results,
      M3_CV_DIR: cvDir,
      GT_PATH: gtFile,
      M3_MODELS: 'model-b,model-c,model-absent',
      M3_TAU_WEAKS: '0.6 0.7',
      M3_USE_DIST: distIsFresh() ? '1' : '0',
    };
    const result = spawnSync('bash', ['scripts/evaluate_cv.sh'], { cwd: repoRoot, encoding: 'utf8', env });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/skipping model-absent: no predictions/);
    for (const model of ['model-b', 'model-c'])
      for (const tau of ['0.6', '0.7']) expect(existsSync(path.join(cvDir, model, `tau_${tau}`, 'results_cv_eval.json'))).toBe(true);
    const merged = JSON.parse(readFileSync(path.join(cvDir, 'step_eval_result.json'), 'utf8')) as Array<{
      Model: string;
      tau_weak: number;
      'Perception Recall': number;
    }>;
    expect(merged.map((entry) => `${entry.Model}@${entry.tau_weak}`)).toEqual(['model-b@0.6', 'model-b@0.7', 'model-c@0.6', 'model-c@0.7']);
    expect(merged[0]?.['Perception Recall']).toBeGreaterThan(merged[2]?.['Perception Recall'] ?? 1);

    const single = spawnSync('bash', ['scripts/evaluate_cv.sh'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...env, M3_TAU_WEAKS: '0.6', M3_MODELS: 'model-b' },
    });
    expect(single.status, single.stderr).toBe(0);
    expect(existsSync(path.join(cvDir, 'model-b', 'results_cv_eval.json'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(cvDir, 'step_eval_result.json'), 'utf8'))).toHaveLength(1);
  }, 240_000);
});
