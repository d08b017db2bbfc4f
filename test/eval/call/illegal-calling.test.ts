// The deterministic illegal_calling count, as the reference's count_illegal_calling
// (evaluate_calls.py) computes it: a record counts once when a round's `work` is an object whose
// `tool_calls` is an empty list; a round without `work`, or with `tool_calls` missing or not a
// list, does not count; duplicated ids count once per record. Checked on the GT of the local
// suite as predictions and perturbations of its dialogue, and, where python3 and a git copy of
// the reference are here, against the reference's own function on the same file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateCalls } from '../../../src/eval/call/evaluate.js';
import { loadPredictions } from '../../../src/tasks/load.js';
import { repoRoot } from '../../support/shared-assets.js';

const gt = JSON.parse(readFileSync(path.join(repoRoot, 'json/m3_local_GT.json'), 'utf8')) as Array<{ id: string; steps: Array<{ calls: unknown[] }> }>;
const asPrediction = (task: (typeof gt)[number]) => ({
  ...task,
  dialogue: task.steps.map((step) => ({ prepare: '', work: { tool_calls: step.calls }, end: 'no' })),
});
const rounds: Array<[string, unknown, boolean]> = [
  ['an empty tool_calls list', { prepare: '', work: { tool_calls: [] }, end: 'no' }, true],
  ['a round without work', { prepare: '', end: 'no' }, false],
  ['work without tool_calls', { prepare: '', work: {}, end: 'no' }, false],
  ['tool_calls null', { prepare: '', work: { tool_calls: null }, end: 'no' }, false],
  ['tool_calls an object', { prepare: '', work: { tool_calls: {} }, end: 'no' }, false],
];

function predictionsFile(): { file: string; expected: number } {
  const records: unknown[] = gt.map(asPrediction);
  let expected = 0;
  rounds.forEach(([, round, illegal], index) => {
    const record = records[index] as { dialogue: unknown[] };
    record.dialogue = [...record.dialogue, round];
    if (illegal) expected += 1;
  });
  // A duplicated id whose both records are illegal: the reference counts it twice.
  const twice = { ...asPrediction(gt[10] as (typeof gt)[number]), dialogue: [{ prepare: '', work: { tool_calls: [] }, end: 'no' }] };
  records.push(twice, { ...twice });
  expected += 2;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'm3-illegal-')), 'predictions.json');
  writeFileSync(file, JSON.stringify(records));
  return { file, expected };
}

/** The reference's count_illegal_calling, taken from a git copy of the reference and run by python3. */
function referenceCount(file: string): number | string {
  const gitDir = process.env.M3_REFERENCE_GIT ?? '/work/.mirror/EtaYang10th+Open-M3-Bench/repo';
  const source = spawnSync('git', ['-C', gitDir, 'show', 'HEAD:evaluate_calls.py'], { encoding: 'utf8' });
  if (source.status !== 0) return `no git copy of the reference at ${gitDir} (set M3_REFERENCE_GIT)`;
  const match = /def count_illegal_calling[\s\S]*?return illegal\n/.exec(source.stdout);
  if (!match) return 'count_illegal_calling not found in evaluate_calls.py';
  const program = `import json, sys\nfrom typing import Any, Dict, List\n${match[0]}\nprint(count_illegal_calling(json.load(open(sys.argv[1]))))`;
  const run = spawnSync('python3', ['-c', program, file], { encoding: 'utf8' });
  if (run.error) return `python3 is not available (${run.error.message})`;
  if (run.status !== 0) throw new Error(run.stderr);
  return Number(run.stdout.trim());
}

describe('illegal_calling as the reference counts it', () => {
  it('counts records with an empty tool_calls list only, duplicated ids once per record', async () => {
    const { file, expected } = predictionsFile();
    const analysis = await evaluateCalls(loadPredictions(file));
    expect(expected).toBe(3);
    expect(analysis.illegal_calling).toBe(expected);
    expect(analysis.illegal_calling_ids).toEqual([gt[0]?.id, gt[10]?.id]);
    const reference = referenceCount(file);
    if (typeof reference === 'string') {
      console.warn(`[illegal-calling] reference run skipped: ${reference}`);
      return;
    }
    expect(analysis.illegal_calling).toBe(reference);
  });

  it('the GT itself, replayed as predictions, has none', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'm3-illegal-gt-')), 'predictions.json');
    writeFileSync(file, JSON.stringify(gt.map(asPrediction)));
    expect((await evaluateCalls(loadPredictions(file))).illegal_calling).toBe(0);
  });
});
