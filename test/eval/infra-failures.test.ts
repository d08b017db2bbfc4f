// Honest denominators: tasks the run recorded as infrastructure failures (in the run manifest
// beside the predictions) are left out of every default denominator and listed beside the
// scores; a task with neither a prediction nor such a record still counts as empty. Oracle
// predictions (the GT itself) on the bundled local suite, through the step, final-answer proxy
// and CLI paths.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHashgramEmbedder } from '../../src/eval/embed/hashgram.js';
import { evaluateProxies } from '../../src/eval/final/proxies.js';
import { loadInfraFailures, manifestFileFor } from '../../src/eval/infra-failures.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { loadGroundTruth, loadPredictions } from '../../src/tasks/load.js';
import { repoRoot } from '../support/shared-assets.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-infra-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const gtFile = path.join(repoRoot, 'json', 'm3_local_GT.json');
const gt = JSON.parse(readFileSync(gtFile, 'utf8')) as Array<{ id: string }>;
const [crashed, forgotten] = [gt[0]?.id ?? '', gt[1]?.id ?? ''];

/** Oracle predictions without `drop`, and a manifest recording `crashed` as an infra failure (plus a model failure). */
function oracleRun(name: string, drop: string[]): string {
  const file = path.join(work, `${name}_test_mcp_fuzzy.json`);
  writeFileSync(file, JSON.stringify(gt.filter((task) => !drop.includes(task.id))));
  writeFileSync(
    manifestFileFor(file),
    JSON.stringify({
      runId: name,
      counts: { infraFailures: 1 },
      failures: [
        { taskId: crashed, status: 'infra_failure', code: 'bad_task_input', message: 'task image is not a decodable PNG', attempts: 1 },
        { taskId: forgotten, status: 'model_failure', code: 'invalid_request', message: 'the model sent a bad request', attempts: 1 },
      ],
    }),
  );
  return file;
}

describe('loadInfraFailures', () => {
  it('reads infra_failure and timeout records (or kind "infra"), not model failures, and tolerates odd manifests', () => {
    const file = path.join(work, 'odd.manifest.json');
    writeFileSync(
      file,
      JSON.stringify({
        failures: [
          { taskId: 'a', status: 'timeout' },
          { taskId: 7, kind: 'infra' },
          { taskId: 'b', status: 'model_failure' },
          'junk',
          { status: 'infra_failure' },
        ],
      }),
    );
    expect([...loadInfraFailures(file).ids]).toEqual(['a', '7']);
    writeFileSync(file, '{ not json');
    expect(loadInfraFailures(file).warning).toMatch(/cannot read the run manifest/);
    expect(loadInfraFailures(path.join(work, 'absent.manifest.json')).ids.size).toBe(0);
    expect(manifestFileFor('results/gpt-5_test_mcp_fuzzy.json')).toBe('results/gpt-5_test_mcp_fuzzy.manifest.json');
  });
});

describe('step evaluation with infrastructure failures', () => {
  const evaluate = (predFile: string) =>
    runStepFiles({
      gtFile,
      predFile,
      outputDir: path.join(work, path.basename(predFile, '.json')),
      embedder: createHashgramEmbedder(),
      mode: 'default',
      thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
    });

  it('the oracle keeps recall 1.0 when a task crashed for infrastructure reasons, and the task is listed beside the scores', async () => {
    const { evaluation } = await evaluate(oracleRun('oracle-crash', [crashed]));
    expect(evaluation.aggregate.recall).toBe(1);
    expect(evaluation.aggregate.corrected.recall_all_ids).toBe(1);
    expect(evaluation.aggregate.num_ids).toBe(gt.length - 1);
    expect(evaluation.aggregate.infra_failures).toMatchObject({ count: 1, ids: [crashed], codes: { bad_task_input: 1 } });
    expect(evaluation.aggregate.coverage).toMatchObject({ missing_ids: [], infra_failure_ids: [crashed] });
    expect(evaluation.perId.some((score) => score.id === crashed)).toBe(false);
  });

  it('a task with no prediction and no infra record (here a model failure) still counts as an empty trajectory', async () => {
    const { evaluation } = await evaluate(oracleRun('oracle-forgot', [crashed, forgotten]));
    expect(evaluation.aggregate.recall).toBeLessThan(1);
    expect(evaluation.aggregate.coverage.missing_ids).toEqual([forgotten]);
    expect(evaluation.perId.find((score) => score.id === forgotten)?.corrected.missing_prediction).toBe(true);
  });
});

describe('final-answer proxies with infrastructure failures', () => {
  it('leaves infra failures out of the _all denominators and lists them', () => {
    const file = oracleRun('proxy', [crashed]);
    const output = evaluateProxies(loadGroundTruth(gtFile), loadPredictions(file), undefined, loadInfraFailures(manifestFileFor(file)));
    expect(output.infra_failures).toEqual([crashed]);
    expect(output.missing_predictions).toEqual([]);
    expect(output.aggregate.num_infra_failures).toBe(1);
    expect(output.aggregate.token_f1_all).toBe(1);
  });
});

// In this process (test/support/m3-in-process.ts): what the commands read and print is the point, not their process.
describe('m3 eval step and m3 eval final read the manifest beside the predictions', () => {
  it('report the infra failure and keep the oracle at 1.0', async () => {
    const predFile = oracleRun('cli', [crashed]);
    const step = await runM3InProcess(['eval', 'step', '--gt', gtFile, '--pred', predFile, '--output-dir', path.join(work, 'cli-out')]);
    expect(step.code, step.stderr).toBe(0);
    expect(JSON.parse(step.stdout)).toMatchObject({ recall: 1, infra_failures: 1 });
    expect(step.stderr).toMatch(/1 GT id\(s\) ended as infrastructure failures/);
    const final = await runM3InProcess(['eval', 'final', '--gt', gtFile, '--pred', predFile, '--proxy-out', path.join(work, 'cli-proxy.json')]);
    expect(final.code, final.stderr).toBe(0);
    expect(JSON.parse(final.stdout)).toMatchObject({ num_infra_failures: 1, token_f1_all: 1 });
  }, 180_000);
});
