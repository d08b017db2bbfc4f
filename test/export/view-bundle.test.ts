// `m3 view --export` end to end: a real run (`m3 run` with the GT replay over two bundled local
// tasks, one of which writes a tool image, and `m3 eval step`), exported by the CLI as one HTML
// file, then opened from file:// in Debian's Chromium with every request that is not file: or
// data: aborted: the runs page lists the run, the task table has both tasks, a transcript shows
// its tool image (decoded from the inlined data: URL) and the alignment has the evaluation's
// counts. The same run through `m3 runs export --inspect` gets its success scores from the run's
// batch cell, and the CLI prints what it wrote. The commands run in this process
// (test/support/m3-in-process.ts).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns, openStore } from '../../src/store/index.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from '../demo/browser.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

assertChromiumInCi();
const taskIds = new Set(['L0012', 'L0041']);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** `m3 <args>` in this process (test/support/m3-in-process.ts); its stdout, or a throw naming its status and stderr. */
async function m3(args: string[]): Promise<string> {
  const result = await runM3InProcess(args);
  if (result.code !== 0) throw new Error(`m3 ${args.join(' ')} exited ${result.code}:\n${result.stderr.slice(-4000)}`);
  return result.stdout;
}

function writeSubset(dir: string): { tasks: string; gt: string; servers: string } {
  const pick = (file: string) => (readJson(path.join(repoRoot, file)) as Array<{ id: string }>).filter((task) => taskIds.has(task.id));
  const files = { tasks: path.join(dir, 'tasks.json'), gt: path.join(dir, 'gt.json'), servers: path.join(dir, 'servers.json') };
  writeFileSync(files.tasks, JSON.stringify(pick('json/m3_local_tasks.json')));
  writeFileSync(files.gt, JSON.stringify(pick('json/m3_local_GT.json')));
  const config = readJson(path.join(repoRoot, 'mcp_servers.json')) as { servers: Record<string, unknown> };
  const wanted = new Set(['math', 'pyzbar-mcp', 'imagesorcery-mcp']);
  writeFileSync(files.servers, JSON.stringify({ ...config, servers: Object.fromEntries(Object.entries(config.servers).filter(([name]) => wanted.has(name))) }));
  return files;
}

/** Opens the bundle with the network off: only file: and data: URLs load; every other request is recorded and aborted. */
async function openOffline(browser: TestBrowser, file: string): Promise<{ page: Page; blocked: string[] }> {
  const page = await browser.context.newPage();
  const blocked: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  return { page, blocked };
}

describe.skipIf(!hasChromium)(`m3 view --export in Chromium${hasChromium ? '' : ` (skipped: ${missingChromiumMessage})`}`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-bundle-'));
  const resultsDir = path.join(dir, 'results');
  let runId: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    const files = writeSubset(dir);
    await m3([
      'run',
      '--model',
      'replay:gt',
      '--tasks',
      files.tasks,
      '--gt',
      files.gt,
      '--image-dir',
      'media',
      '--config',
      files.servers,
      '--run-dir',
      resultsDir,
      '--overwrite',
    ]);
    await m3([
      'eval',
      'step',
      '--gt',
      files.gt,
      '--pred',
      path.join(resultsDir, 'replay-gt_test_mcp_fuzzy.json'),
      '--output-dir',
      path.join(resultsDir, 'replay-gt'),
    ]);
    const store = openStore(path.join(resultsDir, 'm3bench.sqlite'), { readonly: true });
    runId = listRuns(store)[0]!.runId;
    store.close();
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one HTML file, states its size, and it shows the run, a transcript with its image and the alignment offline', async () => {
    const file = path.join(dir, 'shared', 'run.html');
    const stdout = await m3(['view', '--export', runId, file, '--results-dir', resultsDir]);
    const size = statSync(file).size;
    expect(stdout).toContain(`${file}: ${(size / 1024 / 1024).toFixed(2)} MiB (bytes written), 2 task page(s), `);
    expect(stdout).toMatch(/[1-9]\d* image\(s\) inlined/);
    const { page, blocked } = await openOffline(browser, file);
    await page.waitForSelector(`tr[data-run="${runId}"]`);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.click(`tr[data-run="${runId}"] a`);
    await page.waitForSelector('tr[data-task="L0041"]');
    expect(await page.locator('tbody tr').count()).toBe(taskIds.size);
    // The task table's search runs in the page (no server): one task id leaves one row.
    await page.fill('#task-search', 'L0041');
    for (let tries = 0; tries < 600 && (await page.locator('tbody tr').count()) !== 1; tries += 1) await page.waitForTimeout(100);
    expect(await page.locator('tbody tr[data-task="L0041"]').count()).toBe(1);
    await page.click('tr[data-task="L0041"] a');
    await page.waitForSelector('#transcript img.tool-image');
    const image = page.locator('#transcript img.tool-image').first();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/(png|jpeg|webp);base64,/);
    const width = async () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    for (let tries = 0; tries < 100 && (await width()) === 0; tries += 1) await page.waitForTimeout(100);
    expect(await width()).toBeGreaterThan(0);
    // Where the task page shows the task images as sent (#task-images), they come inlined too.
    for (const taskImage of await page.locator('#task-images img').all()) {
      expect(await taskImage.getAttribute('src')).toMatch(/^data:image\//);
      const decoded = async () => taskImage.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
      for (let tries = 0; tries < 100 && (await decoded()) === 0; tries += 1) await page.waitForTimeout(100);
      expect(await decoded()).toBeGreaterThan(0);
    }
    await page.waitForSelector('#alignment');
    const score = (
      readJson(path.join(resultsDir, 'replay-gt', 'results_eval.json')) as { per_id: Array<{ id: string; details: { matches: unknown[] } }> }
    ).per_id.find((entry) => entry.id === 'L0041')!;
    expect(await page.getAttribute('#count-matched', 'data-value')).toBe(String(score.details.matches.length));
    expect(score.details.matches.length).toBeGreaterThan(0);
    await page.screenshot({ path: artifactPath('view-bundle-task-1280.png'), fullPage: true });
    expect(blocked).toEqual([]);
    await page.close();
  });

  it('downscales the inlined images to --max-image-px', async () => {
    const folder = path.join(dir, 'small');
    await m3(['view', '--export', runId, folder, '--results-dir', resultsDir, '--max-image-px', '32']);
    const { page, blocked } = await openOffline(browser, path.join(folder, 'index.html'));
    await page.goto(`${pathToFileURL(path.join(folder, 'index.html')).href}#/task/${encodeURIComponent(runId)}/L0041`);
    await page.waitForSelector('#transcript img.tool-image');
    const image = page.locator('#transcript img.tool-image').first();
    const size = async () =>
      image.evaluate((img) => Math.max((img as unknown as { naturalWidth: number }).naturalWidth, (img as unknown as { naturalHeight: number }).naturalHeight));
    for (let tries = 0; tries < 100 && (await size()) === 0; tries += 1) await page.waitForTimeout(100);
    expect(await size()).toBeGreaterThan(0);
    expect(await size()).toBeLessThanOrEqual(32);
    expect(blocked).toEqual([]);
    await page.close();
  });

  it('m3 runs export --inspect takes task success from the run batch cell', async () => {
    const file = path.join(dir, 'inspect.json');
    const stdout = await m3(['runs', 'export', runId, '--store', path.join(resultsDir, 'm3bench.sqlite'), '--inspect', file, '--results-dir', resultsDir]);
    expect(stdout).toMatch(/^inspect: 2 sample\(s\) of run .* means: success 1\.000 over 2, recall 1\.000 over 2/);
    const log = readJson(file) as { samples: Array<{ id: string; scores: { success: { value: number } } }> };
    expect(log.samples.map((sample) => [sample.id, sample.scores.success.value]).sort()).toEqual([
      ['L0012', 1],
      ['L0041', 1],
    ]);
  });
});
