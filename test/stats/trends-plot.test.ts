// `m3 trends --plot`: three batches of one cell (an `m3 run` of the oracle over the math
// server, in this process (test/support/m3-in-process.ts) like the `m3 trends` calls, scored by the step layer, then two later copies of it), the last scored by another
// step grader version. The text output splits the line in two segments there; the chart config
// must hold the same two segments as separate datasets (no line drawn across the boundary), and
// the PNG and SVG written must be real images.
import { cpSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { trendFigure } from '../../src/report/trend-chart.js';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import type { TrendLine } from '../../src/stats/trends.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-trends-plot-'));
const gtFile = path.join(dir, 'gt.json');
const configFile = path.join(dir, 'servers.json');
const results = path.join(dir, 'results');
const add = (a: number, b: number) => ({ name: 'math/add', arguments: { firstNumber: a, secondNumber: b } });

const editJson = (file: string, edit: (value: Record<string, unknown>) => void) => {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(value);
  writeFileSync(file, JSON.stringify(value));
};

/** A later copy of batch `a` named `id`, optionally scored by another step grader version. */
function copyBatch(id: string, startedAt: string, graderVersion?: string) {
  const target = path.join(results, id);
  cpSync(path.join(results, 'a'), target, { recursive: true });
  renameSync(path.join(target, 'a.batch.json'), path.join(target, `${id}.batch.json`));
  editJson(path.join(target, `${id}.batch.json`), (batch) => Object.assign(batch, { batchId: id, startedAt }));
  const [cell] = loadBatchManifest(path.join(target, `${id}.batch.json`)).cells;
  for (const trial of cell?.trials ?? []) {
    editJson(path.join(target, trial.manifest), (manifest) => Object.assign(manifest, { batchId: id }));
    if (graderVersion) editJson(path.join(target, trial.label, 'results_eval.json'), (step) => Object.assign(step, { grader_version: graderVersion }));
  }
}

beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  writeFileSync(
    gtFile,
    JSON.stringify(
      [1, 2, 3].map((n) => ({
        id: `p${n}`,
        type: 'arith',
        question: `Add ${n} and ${n + 1}.`,
        steps: [{ step: 1, calls: [add(n, n + 1)] }],
        final_reply: `${2 * n + 1}`,
      })),
    ),
  );
  const run = await runM3InProcess(
    ['run', '--model', 'replay:gt', '--tasks', gtFile, '--gt', gtFile, '--config', configFile, '--run-dir', path.join(results, 'a'), '--run-id', 'a'],
    { M3_WORKSPACE_MODE: 'isolated' },
  );
  expect(run.code, run.output).toBe(0);
  const [cell] = loadBatchManifest(path.join(results, 'a', 'a.batch.json')).cells;
  for (const trial of cell?.trials ?? []) {
    await runStepFiles({
      gtFile,
      predFile: path.join(results, 'a', trial.predictions),
      outputDir: path.join(results, 'a', trial.label),
      embedder: createEmbedder(),
      mode: 'default',
      thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
    });
  }
  copyBatch('b', '2099-01-01T00:00:00.000Z');
  copyBatch('c', '2099-01-02T00:00:00.000Z', 'step-2');
}, 300_000);

describe('m3 trends --plot', { timeout: 120_000 }, () => {
  it('splits the line at the grader-version change in the text, the chart config, and writes a valid PNG and SVG', async () => {
    const png = path.join(dir, 'plots', 'trends.png');
    const outcome = await runM3InProcess(['trends', '--results', results, '--json', '--plot', png]);
    expect(outcome.code, outcome.output).toBe(0);
    const { lines, plot } = JSON.parse(outcome.stdout) as { lines: TrendLine[]; plot: string };
    expect(plot).toBe(png);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.segments.map((segment) => segment.points.map((point) => point.batchId))).toEqual([['a', 'b'], ['c']]);
    expect(lines[0]?.segments.map((segment) => segment.graderKey)).toEqual(['step-1;success-3', 'step-2;success-3']);

    const figure = trendFigure(lines);
    expect(figure.config.type).toBe('line');
    const datasets = figure.config.data.datasets as Array<{ label: string; data: Array<number | null>; spanGaps: boolean }>;
    // Two segments x (pass@1, recall): each dataset holds only its own segment's points.
    expect(datasets.map((dataset) => [dataset.label, dataset.data])).toEqual([
      ['replay-gt pass@1 (segment 1: grader step-1;success-3)', [1, 1, null]],
      ['replay-gt recall (segment 1: grader step-1;success-3)', [1, 1, null]],
      ['replay-gt pass@1 (segment 2: grader step-2;success-3)', [null, null, 1]],
      ['replay-gt recall (segment 2: grader step-2;success-3)', [null, null, 1]],
    ]);
    // Each segment spans the gaps inside it (drawn as a line), never beyond its own points.
    expect(datasets.every((dataset) => dataset.spanGaps === true)).toBe(true);
    expect(figure.config.data.labels?.[2]).toBe('2099-01-02 00:00 c');

    const bytes = readFileSync(png);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 1100, height: 520 });

    const svg = path.join(dir, 'plots', 'trends.svg');
    const text = await runM3InProcess(['trends', '--results', results, '--plot', svg]);
    expect(text.code, text.output).toBe(0);
    expect(text.stdout).toContain('segment 2: grader step-2;success-3');
    expect(text.stdout).toContain(`plot: ${svg}`);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<\?xml|^<svg/);
  });
});
