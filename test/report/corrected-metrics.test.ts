// Corrected metrics where people look: the oracle (the local suite's GT as predictions) evaluated
// for real, then the summary table, report.md and report.html show order_consistency_fixed,
// recall_success and coverage beside the reference keys, explain the oracle's 0.856, say that
// the encoder is not the paper's, and carry the CV table and figure.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCvFiles } from '../../src/eval/cv/run.js';
import { createHashgramEmbedder } from '../../src/eval/embed/hashgram.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { buildReport } from '../../src/report/build-report.js';
import { loadAllResults } from '../../src/report/load-results.js';
import { formatSummaryTable } from '../../src/report/summary-table.js';
import { repoRoot } from '../support/shared-assets.js';

const root = mkdtempSync(path.join(tmpdir(), 'm3-report-corrected-'));
const resultsDir = path.join(root, 'results');
const gtFile = path.join(repoRoot, 'json', 'm3_local_GT.json');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the report shows the corrected metrics beside the reference keys', () => {
  beforeAll(async () => {
    const common = { gtFile, predFile: gtFile, embedder: createHashgramEmbedder(), mode: 'default' as const };
    await runStepFiles({ ...common, outputDir: path.join(resultsDir, 'oracle'), thresholds: { tauStrong: 0.8, tauWeak: 0.6 } });
    await runCvFiles({ ...common, outputDir: path.join(root, 'results_cv', 'oracle'), tauStrong: 0.8, tauWeak: 0.6 });
  });

  it('in the summary table, labelled, with the oracle at 85.6% reference order consistency and 100% fixed', () => {
    const table = formatSummaryTable(loadAllResults(resultsDir).models);
    const [header, row] = table.split('\n');
    expect(header).toMatch(/order\s+ordFix\*.*recSuc\*\s+cover\s+infra/);
    expect(row).toMatch(/^oracle\s+1\s+100\.0%\s+100\.0%\s+[\d.]+%\s+[\d.]+%\s+85\.6%\s+100\.0%\s+[\d.]+%\s+100\.0%\s+100\.0%\s+0 /);
    expect(table).toMatch(/\* corrected \(m3bench\)/);
    expect(table).toMatch(/NOT from the paper's encoder .* oracle: hashgram-v1/);
  });

  it('in report.md and report.html, with the explanation of 0.856 and the CV table and figure', async () => {
    const saveDir = path.join(root, 'save');
    const report = await buildReport({ resultsDir, saveDir });
    const markdown = readFileSync(path.join(saveDir, 'report.md'), 'utf8');
    const html = readFileSync(report.html, 'utf8');
    for (const text of [markdown, html]) {
      expect(text).toContain('order_consistency_fixed (corrected)');
      expect(text).toContain('recall_success (corrected)');
      expect(text).toContain('coverage (scored / GT ids)');
      expect(text).toContain('0.856 on the local suite');
      expect(text).toContain('perception_recall_avg');
    }
    expect(markdown).toContain("hashgram-v1 (NOT the paper's)");
    expect(html).toContain('hashgram-v1 (NOT the paper&#39;s)');
    expect(html).toContain('<h2>CV metrics</h2>');
    expect(existsSync(path.join(saveDir, 'cv_metrics.png'))).toBe(true);
  });
});
