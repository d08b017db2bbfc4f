// report.html as a reader sees it: the oracle and the noisy agent labelled everywhere they
// appear, the run metadata from the manifests, no machine path anywhere, the figures also as
// valid PDFs (parsed with pdfjs-dist: page count and the text on each page), and the fixed
// charts (average score defined, illegal calling with counts, server names as written).
// @own-process: reading a PDF loads pdfjs-dist, which adds globals (Path2D from its own @napi-rs/canvas, self,
// navigator) and core-js polyfills to the process; chart.js in a later file would draw with that Path2D.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build-report.js';
import { formatSummaryTable } from '../../src/report/summary-table.js';
import { loadAllResults } from '../../src/report/load-results.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser } from '../demo/browser.js';
import { repoRoot } from '../support/shared-assets.js';
import { createResultsFixture, stepAggregates } from './fixture.js';

const fixture = createResultsFixture();
const catalogFile = path.join(fixture.root, 'catalog.json');
let html = '';

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** The two replay agents as `npm run bench` leaves them: evaluation outputs and a run manifest. */
function addReplayAgents(): void {
  for (const [label, model, illegal] of [
    ['replay-gt', 'replay:gt', 0],
    ['replay-noisy', 'replay:noisy', 0],
  ] as const) {
    const dir = path.join(fixture.resultsDir, label);
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(path.join(fixture.resultsDir, `${label}_test_mcp_fuzzy.json`), '[]');
    mkdirSync(dir, { recursive: true });
    writeJson(path.join(dir, 'results_eval.json'), { grader_version: 'step-1', aggregate: { num_ids: 3, ...stepAggregates['gpt-5-mini'] }, per_id: [] });
    writeJson(path.join(dir, 'callanalysis.json'), {
      illegal_calling: illegal,
      unknown_tool: 0,
      invalid_arguments: 0,
      resource_not_found: 1,
      success: 9,
      totals: { tasks: 3, calls: 10 },
    });
    writeJson(path.join(fixture.resultsDir, `${label}_test_mcp_fuzzy.manifest.json`), {
      runId: `20261201-120000.${label}`,
      model,
      modelLabel: label,
      startedAt: '2026-12-01T12:00:00.000Z',
      finishedAt: '2026-12-01T12:03:00.000Z',
      // Machine paths, as the runner records them: the report must not repeat them.
      serversFile: path.join(repoRoot, 'mcp_servers.json'),
      tasksFile: path.join(repoRoot, 'json', 'm3_local_tasks.json'),
      gtFile: path.join(fixture.root, 'gt.json'),
      gitCommit: '0123456789abcdef',
      options: { agent: 'function-call', maxStep: 6, maxConcurrent: 10, topTools: 0, maxNewTokens: 8192 },
      sampling: { temperature: null, seed: 7 },
      counts: { tasks: 3, done: 3, modelFailures: 0, infraFailures: 0 },
      versions: { m3bench: '0.1.0' },
      // One run under the reference surface; the other recorded before the surface was named.
      ...(label === 'replay-gt' ? { toolsHash: 'ab'.repeat(32), toolSurface: { name: 'reference', hash: 'ab'.repeat(32) } } : {}),
    });
  }
  writeJson(catalogFile, {
    tools: [
      { canonicalName: 'imagesorcery-mcp/crop', server: 'imagesorcery-mcp', tool: 'crop', description: 'crop', inputSchema: { type: 'object' } },
      { canonicalName: 'Reddit-MCP-Server/fetch', server: 'Reddit-MCP-Server', tool: 'fetch', description: 'fetch', inputSchema: { type: 'object' } },
    ],
  });
}

async function pdfText(file: string): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(readFileSync(file)), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages;
}

beforeAll(async () => {
  addReplayAgents();
  const result = await buildReport({ resultsDir: fixture.resultsDir, saveDir: fixture.saveDir, gtFile: fixture.gtFile, catalogFile, root: repoRoot });
  html = readFileSync(result.html, 'utf8');
});
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));

describe('report.html for a reader', () => {
  it('names no machine path: neither the repository nor the temporary results folder', () => {
    expect(html).not.toContain(repoRoot);
    expect(html).not.toContain(fixture.root);
    expect(html).not.toMatch(/\/tmp\//);
    expect(html).toContain('json/m3_local_tasks.json');
  });

  it('labels the oracle and the noisy agent in every table that lists them', () => {
    const rowsOf = (id: string) => {
      const start = html.indexOf(`<h3 id="${id}">`);
      return html.slice(start, html.indexOf('</table>', start));
    };
    for (const id of ['leaderboard', 'rounds', 'calls']) {
      expect(rowsOf(id), id).toContain('replay-gt [oracle: the ground truth replayed]');
      expect(rowsOf(id), id).toContain('replay-noisy [synthetic noisy agent, not a model]');
    }
    expect(html).toMatch(/Synthetic agents in this report: replay-gt is the oracle/);
    const summary = formatSummaryTable(loadAllResults(fixture.resultsDir).models);
    expect(summary).toMatch(/^replay-gt \(oracle\) +/m);
    expect(summary).toMatch(/^replay-noisy \(synthetic\) +/m);
    expect(summary).toContain('replay-noisy = synthetic noisy agent, not a model');
  });

  it('states the runs, their settings and the grader versions, and points to m3 view', () => {
    expect(html).toContain('<h3 id="runs">Runs</h3>');
    expect(html).toContain('<a href="http://127.0.0.1:8001/#/run/20261201-120000.replay-gt">20261201-120000.replay-gt</a>');
    expect(html).toContain('2026-12-01T12:03:00.000Z');
    expect(html).toContain(
      'max rounds 6, parallel calls 10, top tools all, max new tokens 8192, temperature provider default, seed 7, tool surface reference (abababababab)',
    );
    expect(html).toContain('seed 7, tool surface m3bench</td>');
    expect(html).toContain('<h3 id="grader-versions">Grader versions</h3>');
    expect(html).toMatch(/<td>step<\/td><td>step-1<\/td><td>not recorded, step-1<\/td>/);
    expect(html).toContain('<code>m3 view --results-dir (outside the repository) results</code>');
    expect(html).toContain('order_consistency_fixed (corrected)');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });
});

describe('figures', () => {
  it('writes the reference PDFs: one page for the leaderboard, call_pies.pdf with illegal calling and a donut per model', async () => {
    const leaderboard = await pdfText(path.join(fixture.saveDir, 'metrics_mllm_step_eval.pdf'));
    expect(leaderboard).toHaveLength(1);
    expect(leaderboard[0]).toContain('Average score = mean of recall, precision');
    expect(leaderboard[0]).toContain('information_grounding_rate');
    const pies = await pdfText(path.join(fixture.saveDir, 'call_pies.pdf'));
    // Illegal calling, then gpt-5-mini, glm-4.5v, replay-gt, replay-noisy (sorted model folders).
    expect(pies).toHaveLength(5);
    expect(pies[0]).toContain('Illegal calling');
    expect(pies.slice(1).join(' ')).toContain('replay-noisy [synthetic noisy agent, not a model]: 10 calls');
    expect(html).toContain('<a href="call_pies.pdf">call_pies.pdf</a>');
    expect(html).toContain('<a href="mcp_tools_per_server.pdf">PDF</a>');
  });

  it('shows illegal calling as counts of tasks, and server names as configured', async () => {
    const [illegal] = await pdfText(path.join(fixture.saveDir, 'call_illegal_calling.pdf'));
    expect(illegal).toContain('GPT-5 Mini: 1 of 3 tasks');
    expect(illegal).toContain('replay-gt [oracle: the ground truth replayed]: 0 of 3 tasks');
    const [servers] = await pdfText(path.join(fixture.saveDir, 'mcp_tools_per_server.pdf'));
    expect(servers).toContain('imagesorcery-mcp');
    expect(servers).toContain('Reddit-MCP-Server');
    expect(servers).not.toContain('Imagesorcery-Mcp');
  });
});

describe('report.html in a browser', () => {
  assertChromiumInCi();
  it.skipIf(!hasChromium)('has no page-wide horizontal scroll at 1280 px nor at 390 px (wide tables scroll in their box)', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`file://${path.join(fixture.saveDir, 'report.html')}`);
        const sizes = await page.evaluate<{ scroll: number; client: number }>(
          '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
        );
        expect(sizes.scroll, `width ${width}`).toBeLessThanOrEqual(sizes.client);
        const figure = await page.locator('figure img').first().boundingBox();
        expect(figure?.width ?? Number.POSITIVE_INFINITY, `figure at ${width}`).toBeLessThanOrEqual(width);
        await page.screenshot({ path: artifactPath(`report-${width}.png`) });
      }
    } finally {
      await browser.close();
    }
  });
});
