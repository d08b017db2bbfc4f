// Task ids with surrounding whitespace: the reference matches ids exactly, so `--reference-compat`
// does too (" L0003" in the predictions is not GT task "L0003"); the default mode trims them and
// warns with the number of ids it changed, per file. Step and CV evaluation alike, on the
// bundled local suite's GT replayed as predictions.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCvFiles } from '../../../src/eval/cv/run.js';
import { createEmbedder } from '../../../src/eval/embed/registry.js';
import { runStepFiles } from '../../../src/eval/step/run.js';
import type { StepMode } from '../../../src/eval/step/aggregate.js';
import { repoRoot } from '../../support/shared-assets.js';

const gtFile = path.join(repoRoot, 'json/m3_local_GT.json');
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-id-matching-'));
const predFile = path.join(dir, 'ids_test_mcp_fuzzy.json');
const records = JSON.parse(readFileSync(gtFile, 'utf8')) as Array<{ id: string }>;
const padded = new Set(['L0003', 'L0004', 'L0005']);
writeFileSync(predFile, JSON.stringify(records.map((record) => (padded.has(record.id) ? { ...record, id: ` ${record.id}\t` } : record))));

async function step(mode: StepMode) {
  const warnings: string[] = [];
  const result = await runStepFiles({
    gtFile,
    predFile,
    outputDir: path.join(dir, `step-${mode}`),
    embedder: createEmbedder(),
    mode,
    thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
    warn: (line) => warnings.push(line),
  });
  return { coverage: result.evaluation.aggregate.coverage, warnings };
}

describe('task ids with surrounding whitespace', () => {
  it('--reference-compat matches ids exactly: the padded ids are neither GT ids nor scored', async () => {
    const { coverage, warnings } = await step('reference-compat');
    expect([...coverage.missing_ids].sort()).toEqual([...padded].sort());
    expect(coverage.extra_ids).toHaveLength(3);
    expect(warnings.join('\n')).not.toContain('trimmed');
  }, 60_000);

  it('the default mode trims them and says how many ids it changed', async () => {
    const { coverage, warnings } = await step('default');
    expect(coverage.missing_ids).toEqual([]);
    expect(coverage.extra_ids).toEqual([]);
    expect(warnings).toContain(
      `${predFile}: 3 id(s) carried surrounding whitespace and were trimmed; the reference matches ids exactly (use --reference-compat to do the same)`,
    );
  }, 60_000);

  it('CV evaluation follows the same rule', async () => {
    const run = async (mode: StepMode) => {
      const warnings: string[] = [];
      const result = await runCvFiles({
        gtFile,
        predFile,
        outputDir: path.join(dir, `cv-${mode}`),
        embedder: createEmbedder(),
        mode,
        tauStrong: 0.8,
        tauWeak: 0.6,
        warn: (line) => warnings.push(line),
      });
      return { ids: result.evaluation.perId.map((entry) => entry.id), warnings };
    };
    const compat = await run('reference-compat');
    for (const id of padded) expect(compat.ids).not.toContain(id);
    const trimmed = await run('default');
    for (const id of padded) expect(trimmed.ids).toContain(id);
    expect(trimmed.warnings.some((line) => line.includes('3 id(s) carried surrounding whitespace'))).toBe(true);
  }, 60_000);
});
