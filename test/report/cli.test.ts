// `m3 report` on the results fixture, in this process (test/support/m3-in-process.ts: the CLI's
// program, its printing and exit status).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createResultsFixture } from './fixture.js';
import { lastJsonLine } from './run-m3.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const catalogFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../eval/call/fixtures/catalog-list-tools.json');
const fixture = createResultsFixture();
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));

describe('m3 report', () => {
  it('writes the report for the chosen models and lists the missing ones', async () => {
    const result = await runM3InProcess([
      'report',
      '--results',
      fixture.resultsDir,
      '--save',
      fixture.saveDir,
      '--models',
      'gpt-5-mini, absent',
      '--catalog',
      catalogFile,
      '--gt',
      fixture.gtFile,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const summary = lastJsonLine(result) as { html: string; models: string[]; missing: string[]; files: string[] };
    expect(summary.html).toBe(path.join(fixture.saveDir, 'report.html'));
    expect(summary.models).toEqual(['gpt-5-mini']);
    expect(summary.missing).toEqual(['absent']);
    for (const file of summary.files) expect(existsSync(file), file).toBe(true);
    expect(result.stderr).toContain('no evaluation outputs for: absent');
    const csv = readFileSync(path.join(fixture.saveDir, 'step_eval_result.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]?.startsWith('GPT-5 Mini,0.9,0.8,0.7,0.6,0.5,0.4,0.75,0.6,')).toBe(true);
  });

  it('fails with exit code 2 and a message naming the folder when there is nothing to report', async () => {
    const empty = path.join(fixture.root, 'nothing');
    const result = await runM3InProcess(['report', '--results', empty, '--save', path.join(fixture.root, 'save-none')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no evaluation results under ${empty}`);
  });
});
