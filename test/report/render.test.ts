// The full report on a results fixture: real PNG and SVG files from chart.js on
// @napi-rs/canvas, the CSVs, Markdown, and a report.html whose every link exists.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport, type ReportResult } from '../../src/report/build-report.js';
import { leaderboardFigure } from '../../src/report/chart-configs.js';
import { buildLeaderboard } from '../../src/report/leaderboard.js';
import { loadAllResults } from '../../src/report/load-results.js';
import { renderPng, renderSvg } from '../../src/report/render-chart.js';
import { createResultsFixture } from './fixture.js';

const catalogFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../eval/call/fixtures/catalog-list-tools.json');
const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const fixture = createResultsFixture();
let result: ReportResult;

beforeAll(async () => {
  result = await buildReport({ resultsDir: fixture.resultsDir, saveDir: fixture.saveDir, catalogFile, gtFile: fixture.gtFile });
});
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));

const saved = (name: string) => path.join(fixture.saveDir, name);

/** The text runs of an SVG; Skia may split a label into one <text> per word. */
function svgText(svg: string): string {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
    .map((match) => match[1] ?? '')
    .filter((text) => text !== '')
    .join(' ');
}

describe('rendered figures', () => {
  const figures = [
    'metrics_mllm_step_eval',
    'step_metrics_grouped',
    'call_illegal_calling',
    'call_categories_gpt-5-mini',
    'call_categories_glm-4.5v',
    'final_answer_judges',
    'final_answer_proxies',
    'mcp_tools_per_server',
  ];

  it('writes a decodable PNG of the configured size for every figure', async () => {
    for (const name of figures) {
      const png = readFileSync(saved(`${name}.png`));
      expect(png.subarray(0, 8).equals(pngMagic), name).toBe(true);
      const meta = await sharp(png).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width, name).toBeGreaterThanOrEqual(500);
      expect(meta.height, name).toBeGreaterThanOrEqual(240);
      const stats = await sharp(png).stats();
      // A blank canvas has one colour; a chart has bars, text and a white background.
      expect(stats.channels[0]?.stdev ?? 0, name).toBeGreaterThan(5);
    }
  });

  it('matches the leaderboard PNG to its spec dimensions', async () => {
    const spec = leaderboardFigure(buildLeaderboard(loadAllResults(fixture.resultsDir).models));
    const meta = await sharp(await renderPng(spec)).metadata();
    expect([meta.width, meta.height]).toEqual([spec.width, spec.height]);
  });

  it('writes SVG with the series labels as text', async () => {
    const svg = readFileSync(saved('metrics_mllm_step_eval.svg'), 'utf8');
    expect(svg).toMatch(/^<\?xml[^>]*\?><svg [^>]*width="1000"/);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const text = svgText(svg);
    expect(text).toContain('GPT-5 Mini');
    expect(text).toContain('GLM 4.5v');
    expect(text).toContain('0.643');
    const grouped = svgText(readFileSync(saved('step_metrics_grouped.svg'), 'utf8'));
    for (const label of ['recall', 'precision', 'merge_purity_cov']) expect(grouped).toContain(label);
    const donut = svgText(readFileSync(saved('call_categories_gpt-5-mini.svg'), 'utf8'));
    expect(donut).toContain('Illegal calling: 1 of 3 tasks');
    expect(donut).toContain('Success: 10 (47.6%)');
    expect((await renderSvg(leaderboardFigure([]))).length).toBeGreaterThan(100);
  });
});

describe('side files', () => {
  it('writes the reference CSVs and Markdown tables', () => {
    expect(readFileSync(saved('step_eval_result.csv'), 'utf8').split('\n')[0]).toBe(
      'model,recall,precision,avg_sim_all_cov,step_coherence_cov,order_consistency_cov,merge_purity_cov,completion_rate,information_grounding_rate,_path,Average score',
    );
    expect(readFileSync(saved('avg_rounds_tool_calls.csv'), 'utf8').split('\n')[0]).toBe('model,avg_Rounds,avg_tool_calls');
    const markdown = readFileSync(saved('report.md'), 'utf8');
    expect(markdown).toContain('| GPT-5 Mini | 0.643 | 0.900 | 0.800 |');
    expect(markdown).toContain('## Final answer: deterministic proxies (not judge scores)');
    expect(markdown).toContain('| GPT-5 Mini | basic | 2 | 0.750 | 0.625 | 0.900 | 0.800 | 0.500 |');
    expect(markdown).toContain('| Local X | chain | 1 | — | — | — | — | 0.250 |');
    expect(markdown).toContain('| wiki | 2 |');
  });
});

describe('report.html', () => {
  it('is self-contained: figures inline, every linked file exists', () => {
    const html = readFileSync(result.html, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    const images = [...html.matchAll(/<img [^>]*src="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(images.length).toBe(8);
    for (const source of images) expect(source.startsWith('data:image/png;base64,')).toBe(true);
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) => decodeURI(match[1] ?? ''));
    expect(links).toContain('step_eval_result.csv');
    expect(links).toContain('metrics_mllm_step_eval.svg');
    for (const link of links) expect(existsSync(path.join(fixture.saveDir, link)), link).toBe(true);
    expect(html).toContain('Per-tier breakdown');
    expect(html).toContain('not judge scores');
  });

  it('reports what it wrote and which requested models had no outputs', async () => {
    expect(result.models).toEqual(['glm-4.5v', 'gpt-5-mini', 'local-x']);
    const partial = await buildReport({ resultsDir: fixture.resultsDir, saveDir: path.join(fixture.root, 'save-partial'), models: ['local-x', 'absent'] });
    expect(partial.missing).toEqual(['absent']);
    expect(partial.files.some((file) => file.endsWith('final_answer_proxies.png'))).toBe(true);
    expect(partial.files.some((file) => file.endsWith('metrics_mllm_step_eval.png'))).toBe(false);
  });

  it('fails with a clear message when there is nothing to report', async () => {
    await expect(buildReport({ resultsDir: path.join(fixture.root, 'empty'), saveDir: path.join(fixture.root, 'save-empty') })).rejects.toThrow(
      /no evaluation results under .*empty \(expected <model>\/results_eval\.json/,
    );
  });
});
