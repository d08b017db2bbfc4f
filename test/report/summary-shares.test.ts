// `m3 summary` puts the mocked share and the placeholder count beside every model's scores: a
// run whose calls the fallback layer answered, or whose images were placeholders, says so in the
// same row (and 0/N for a clean run); the row's recall is named for what it pools. `m3 summary` runs in this process
// (test/support/m3-in-process.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHashgramEmbedder } from '../../src/eval/embed/hashgram.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-summary-shares-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const gtFile = path.join(repoRoot, 'test/fixtures/tasks/math-gt.json');

type Call = Record<string, unknown>;
type Task = { id: string; steps: Array<{ calls: Call[] }> };

async function predictions(label: string, mark: (tasks: Task[]) => void) {
  const tasks = JSON.parse(readFileSync(gtFile, 'utf8')) as Task[];
  mark(tasks);
  const file = path.join(work, `${label}_test_mcp_fuzzy.json`);
  writeFileSync(file, JSON.stringify(tasks));
  await runStepFiles({
    gtFile,
    predFile: file,
    outputDir: path.join(work, label),
    embedder: createHashgramEmbedder(),
    mode: 'default',
    thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
  });
}

describe('m3 summary: mocked share and placeholder count beside the scores', () => {
  it('counts mocked calls and placeholder tasks per model, 0 for a clean run', async () => {
    mkdirSync(work, { recursive: true });
    await predictions('clean', () => undefined);
    await predictions('offline', (tasks) => {
      const first = tasks[0]?.steps[0]?.calls[0];
      if (first) first.fallback = { tier: 'template' };
      (tasks[1] as Record<string, unknown>).placeholder_images = ['media/missing.png'];
    });
    const result = await runM3InProcess(['summary', '--results-dir', work, '--save', path.join(work, 'save')]);
    expect(result.code, result.output).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/mocked\s+plchld/);
    // math-gt: 3 calls in task 1, 1 call in task 2.
    expect(lines.find((line) => line.startsWith('clean'))).toMatch(/ 0\/4\s+0\/2\s*$/);
    expect(lines.find((line) => line.startsWith('offline'))).toMatch(/ 1\/4\s+1\/2\s*$/);
    expect(result.stdout).toContain('recall (calls) and precision (calls): pooled over all GT / predicted calls');
  }, 120_000);
});
