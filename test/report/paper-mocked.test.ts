// `m3 report --paper` leaves out of the paper comparison a run whose calls the tool fallback layer
// answered or whose images were placeholders, naming it in the note; `--paper-include-mocked`
// draws it with its share in its label. The oracle keeps its label. Shares come from real
// prediction files beside the report fixture (src/results/mocked-share.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLeaderboard } from '../../src/report/leaderboard.js';
import { loadAllResults } from '../../src/report/load-results.js';
import { loadPaperResults, paperComparisonFigure, paperComparisonTable, type PaperRunLabels } from '../../src/report/paper.js';
import { mockedShare, type MockedShare } from '../../src/results/mocked-share.js';
import { createResultsFixture, stepAggregates } from './fixture.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const paperFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'paper-fixture.json');
const fixture = createResultsFixture();
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));

const call = (fallback?: string) => ({ name: 'math/add', arguments: {}, result: '5', ...(fallback ? { fallback: { tier: fallback } } : {}) });
// gpt-5-mini: 3 of 4 calls mocked (75 %), one of two tasks on placeholder images; the oracle is clean.
writeFileSync(
  path.join(fixture.resultsDir, 'gpt-5-mini_test_mcp_fuzzy.json'),
  JSON.stringify([
    { id: 'a1', steps: [{ step: 1, calls: [call('template'), call('cache'), call()] }] },
    { id: 'a2', steps: [{ step: 1, calls: [call('template')] }], placeholder_images: ['media/x.png'] },
  ]),
);
writeFileSync(path.join(fixture.resultsDir, 'replay-gt_test_mcp_fuzzy.json'), JSON.stringify([{ id: 'a1', steps: [{ step: 1, calls: [call()] }] }]));
mkdirSync(path.join(fixture.resultsDir, 'replay-gt'), { recursive: true });
writeFileSync(
  path.join(fixture.resultsDir, 'replay-gt', 'results_eval.json'),
  JSON.stringify({ aggregate: { num_ids: 3, ...stepAggregates['gpt-5-mini'], recall: 1, precision: 1 }, per_id: [] }),
);

function inputs(includeMocked: boolean): { rows: ReturnType<typeof buildLeaderboard>; labels: PaperRunLabels } {
  const rows = buildLeaderboard(loadAllResults(fixture.resultsDir).models);
  const shares = new Map<string, MockedShare>();
  for (const row of rows) {
    const file = path.join(fixture.resultsDir, `${row.model}_test_mcp_fuzzy.json`);
    const share = mockedShare(row.model, file, file.replace(/\.json$/, '.manifest.json'));
    if (share) shares.set(row.model, share);
  }
  return { rows, labels: { shares, includeMocked } };
}

const labelsOf = (figure: ReturnType<typeof paperComparisonFigure>) => (figure.config.data as { labels: string[] }).labels;

describe('paper comparison: mocked runs', () => {
  it('leaves a mocked run out by default and names it in the note; the oracle stays, labelled', () => {
    const paper = loadPaperResults(paperFile);
    const { rows, labels } = inputs(false);
    const table = paperComparisonTable(paper, rows, labels);
    expect(table.rows.map((row) => row[table.header.indexOf('m3bench results folder')])).not.toContain('gpt-5-mini');
    expect(table.note).toContain('Left out, not comparable with the paper: gpt-5-mini (mocked 75 %, placeholder images 50 %)');
    const figure = labelsOf(paperComparisonFigure(paper, rows, labels));
    expect(figure[0]).toBe('Fixture GPT-5 Mini (no m3bench run)');
    expect(figure).toContain('replay-gt [oracle: the ground truth replayed]');
  });

  it('draws it labelled with its share when asked for', () => {
    const paper = loadPaperResults(paperFile);
    const { rows, labels } = inputs(true);
    const figure = paperComparisonFigure(paper, rows, labels);
    expect(labelsOf(figure)[0]).toBe('Fixture GPT-5 Mini (mocked 75 %, placeholder images 50 %)');
    expect((figure.config.data as { datasets: Array<{ data: Array<number | null> }> }).datasets[1]?.data[0]).toBeCloseTo(4.5 / 7, 12);
    expect(paperComparisonTable(paper, rows, labels).note).not.toContain('Left out');
  });

  it('m3 report --paper leaves it out, --paper-include-mocked draws it labelled', async () => {
    const csvOf = async (dir: string, extra: string[]) => {
      const saveDir = path.join(fixture.root, dir);
      const result = await runM3InProcess([
        'report',
        '--results',
        fixture.resultsDir,
        '--save',
        saveDir,
        '--gt',
        fixture.gtFile,
        '--paper',
        paperFile,
        ...extra,
      ]);
      expect(result.code, result.stderr).toBe(0);
      return readFileSync(path.join(saveDir, 'paper_comparison.csv'), 'utf8');
    };
    const plain = await csvOf('save-plain', []);
    expect(plain).not.toContain('(mocked');
    expect(plain).toMatch(/^Fixture GPT-5 Mini,0\.5,,/m);
    expect(await csvOf('save-mocked', ['--paper-include-mocked'])).toContain('"Fixture GPT-5 Mini (mocked 75 %, placeholder images 50 %)",0.5,0.64');
  }, 180_000);
});
