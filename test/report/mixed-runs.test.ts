// Readers refuse to put two runs' outputs into one table: a model folder whose step output
// evaluated one run's predictions and whose CV output evaluated another's is refused by the
// report's loader (which `m3 report` and `m3 summary` read through), naming both files; outputs
// of one run load. Real step and CV evaluations of two prediction files of the math fixture.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHashgramEmbedder } from '../../src/eval/embed/hashgram.js';
import { runCvFiles } from '../../src/eval/cv/run.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { loadAllResults } from '../../src/report/load-results.js';
import { evaluationInputsFor, stampEvaluationInputs } from '../../src/results/evaluation-inputs.js';
import { repoRoot } from '../support/shared-assets.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-mixed-runs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const gtFile = path.join(repoRoot, 'test/fixtures/tasks/math-gt.json');

/** A run folder holding the oracle's predictions (the GT) under `label`, with a manifest naming `runId`; `drop` removes a task. */
function runFolder(name: string, runId: string, drop?: string): { dir: string; pred: string } {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  const pred = path.join(dir, 'oracle_test_mcp_fuzzy.json');
  const gt = JSON.parse(readFileSync(gtFile, 'utf8')) as Array<{ id: string }>;
  writeFileSync(pred, JSON.stringify(gt.filter((task) => task.id !== drop)));
  writeFileSync(pred.replace(/\.json$/, '.manifest.json'), JSON.stringify({ runId, failures: [] }));
  return { dir, pred };
}

async function evaluate(run: { dir: string; pred: string }, into: string, layers: Array<'step' | 'cv'>) {
  const embedder = createHashgramEmbedder();
  if (layers.includes('step')) {
    const outputDir = path.join(into, 'oracle');
    const result = await runStepFiles({ gtFile, predFile: run.pred, outputDir, embedder, mode: 'default', thresholds: { tauStrong: 0.8, tauWeak: 0.6 } });
    stampEvaluationInputs(
      path.join(outputDir, 'results_eval.json'),
      evaluationInputsFor({ predFile: run.pred, gtFile, layer: 'step', graderVersion: 'step-1', encoder: result.embedder.id }),
      run.pred,
    );
  }
  if (layers.includes('cv')) {
    const outputDir = path.join(into, 'results_cv', 'oracle');
    const result = await runCvFiles({ gtFile, predFile: run.pred, outputDir, embedder, mode: 'default', tauStrong: 0.8, tauWeak: 0.6 });
    stampEvaluationInputs(
      result.files.results,
      evaluationInputsFor({ predFile: run.pred, gtFile, layer: 'cv', graderVersion: 'step-1', encoder: result.embedder.id }),
      run.pred,
    );
  }
}

describe('readers refuse mixed runs', () => {
  it('loads one run whose step and CV outputs evaluated the same predictions', async () => {
    const a = runFolder('a', 'run-a.oracle');
    writeFileSync(path.join(a.dir, 'a.batch.json'), '{}');
    await evaluate(a, a.dir, ['step', 'cv']);
    const loaded = loadAllResults(a.dir);
    expect(loaded.models.map((model) => model.model)).toEqual(['oracle']);
    expect(loaded.models[0]?.cv?.path).toBe(path.join(a.dir, 'results_cv', 'oracle', 'results_cv_eval.json'));
  });

  it("refuses a folder whose step output is run A's and whose CV output is run B's, naming both files", async () => {
    const a = runFolder('mixed-a', 'run-a.oracle');
    const b = runFolder('mixed-b', 'run-b.oracle', 'math-0002');
    await evaluate(a, a.dir, ['step']);
    await evaluate(b, a.dir, ['cv']);
    // B's CV output now sits in A's folder, as when two runs shared results_cv/<label>/.
    expect(() => loadAllResults(a.dir)).toThrow(
      /oracle\/results_eval\.json and .*results_cv\/oracle\/results_cv_eval\.json evaluated different inputs \(run_id: run-a\.oracle vs run-b\.oracle\)/,
    );
  });
});
