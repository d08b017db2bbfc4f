// `m3 report --paper`: published per-model numbers next to the runs. The comparison logic on the
// report fixture with a test-only paper file (invented numbers, labelled as such inside), the
// validation of a bad file, the shipped data/paper-results.json against its own schema, and the
// real CLI writing the table, the CSV and the figure.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { buildLeaderboard } from '../../src/report/leaderboard.js';
import { loadAllResults } from '../../src/report/load-results.js';
import { loadPaperResults, paperComparisonFigure, paperComparisonTable } from '../../src/report/paper.js';
import { repoRoot } from '../support/shared-assets.js';
import { createResultsFixture } from './fixture.js';
import { runM3 } from './run-m3.js';

const fixtureFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'paper-fixture.json');
const fixture = createResultsFixture();
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));

function rowsOf() {
  return buildLeaderboard(loadAllResults(fixture.resultsDir).models);
}

describe('paper comparison', () => {
  it('puts each published value next to the run of the same model, and says when there is none', () => {
    const table = paperComparisonTable(loadPaperResults(fixtureFile), rowsOf());
    expect(table.header).toEqual([
      'model',
      'paper: average_score',
      'm3bench: average_score',
      'difference: average_score',
      'paper: recall',
      'm3bench: recall',
      'difference: recall',
      'm3bench results folder',
      'note',
    ]);
    const byLabel = new Map(table.rows.map((row) => [row[0], row]));
    // gpt-5-mini: mean of the six step metrics (0.9 .. 0.4) and information grounding 0.6.
    const mini = byLabel.get('Fixture GPT-5 Mini') ?? [];
    expect(mini[1]).toBe(0.5);
    expect(mini[2]).toBeCloseTo(4.5 / 7, 12);
    expect(mini[3]).toBeCloseTo(4.5 / 7 - 0.5, 12);
    expect(mini.slice(4, 8)).toEqual([0.95, 0.9, expect.closeTo(-0.05, 12), 'gpt-5-mini']);
    expect(mini[8]).toBe('');
    // Matched through an alias, case ignored; without a judge run the average is not the paper's.
    const glm = byLabel.get('Fixture GLM') ?? [];
    expect(glm[7]).toBe('glm-4.5v');
    expect(glm[8]).toContain('no information grounding');
    expect(Number.isNaN(glm[4])).toBe(true);
    const never = byLabel.get('Never Run') ?? [];
    expect(never.slice(1, 4).map((cell) => Number.isNaN(cell))).toEqual([false, true, true]);
    expect(never.slice(7)).toEqual(['', 'no m3bench run of this model']);
    // Runs the paper does not list come after the published models.
    expect(table.rows.slice(3).map((row) => row[8])).toEqual(table.rows.slice(3).map(() => expect.stringContaining('not in the paper')));
    expect(table.note).toContain('Test-only fixture');
  });

  it('draws paper and m3bench bars for the first metric, null where one side has no value', () => {
    const figure = paperComparisonFigure(loadPaperResults(fixtureFile), rowsOf());
    const data = figure.config.data as { labels: string[]; datasets: Array<{ label: string; data: Array<number | null> }> };
    expect(data.labels.slice(0, 3)).toEqual(['Fixture GPT-5 Mini', 'Fixture GLM', 'Never Run (no m3bench run)']);
    expect(data.datasets.map((set) => set.label)).toEqual(['paper (published)', 'm3bench (this report)']);
    expect(data.datasets[0]?.data.slice(0, 3)).toEqual([0.5, 0.061, 0.3]);
    expect(data.datasets[1]?.data[0]).toBeCloseTo(4.5 / 7, 12);
    expect(data.datasets[1]?.data[2]).toBeNull();
    expect(data.datasets[0]?.data.slice(3).every((value) => value === null)).toBe(true);
  });

  it('refuses a malformed file naming the file and the field', () => {
    const bad = path.join(fixture.root, 'bad-paper.json');
    const raw = JSON.parse(readFileSync(fixtureFile, 'utf8'));
    raw.models[1].values = { information_grounding_rate: 0.2 };
    raw.models[2].values = { f1: 0.2 };
    writeFileSync(bad, JSON.stringify(raw));
    expect(() => loadPaperResults(bad)).toThrow(ConfigError);
    try {
      loadPaperResults(bad);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain(`${bad}: at $.models[2].values: Unrecognized key: "f1"`);
      expect(message).toContain('metrics may be average_score, recall');
      expect(message).toContain(`${bad}: at $.models[1].values.information_grounding_rate: metric "information_grounding_rate" is not defined under "metrics"`);
    }
  });

  it('the shipped data file holds the 14 published leaderboard values with their source', () => {
    const paper = loadPaperResults(path.join(repoRoot, 'data', 'paper-results.json'));
    expect(paper.models).toHaveLength(14);
    expect(Object.keys(paper.metrics)).toEqual(['average_score']);
    expect(paper.source.artifact).toContain('metrics_mllm_step_eval.png');
    const values = paper.models.map((entry) => entry.values.average_score);
    expect(values.every((value) => value !== undefined && value > 0 && value < 1)).toBe(true);
    // Listed as the figure draws them: best first.
    expect([...values].sort((a, b) => (b ?? 0) - (a ?? 0))).toEqual(values);
  });

  it('m3 report --paper writes the comparison table, CSV and figure', async () => {
    const saveDir = path.join(fixture.root, 'save-paper');
    const result = await runM3(['report', '--results', fixture.resultsDir, '--save', saveDir, '--gt', fixture.gtFile, '--paper', fixtureFile]);
    expect(result.status, result.stderr).toBe(0);
    const csv = readFileSync(path.join(saveDir, 'paper_comparison.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toContain('paper: average_score');
    expect(csv.find((line) => line.startsWith('Never Run,0.3,'))).toBeDefined();
    for (const file of ['paper_vs_m3bench.png', 'paper_vs_m3bench.svg']) expect(existsSync(path.join(saveDir, file)), file).toBe(true);
    const html = readFileSync(path.join(saveDir, 'report.html'), 'utf8');
    expect(html).toContain('Paper vs m3bench');
    expect(html).toContain('no m3bench run of this model');
    expect(readFileSync(path.join(saveDir, 'report.md'), 'utf8')).toContain('Paper vs m3bench');
  }, 120_000);
});
