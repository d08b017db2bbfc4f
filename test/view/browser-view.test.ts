// The run viewer end to end: a store built by `m3 run` (replay:gt and replay:noisy over four
// bundled local tasks, with only the servers they need) and `m3 eval step`, served by the
// viewer and driven in Debian's Chromium: runs → run → task, a tool's image in the transcript,
// the alignment's matched/missed/extra counts equal to the evaluation output, the status
// filter, the comparison of the two runs; screenshots at 1280 and 390 px in test-artifacts/.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { listRuns, openStore, type Store } from '../../src/store/index.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from '../demo/browser.js';
import { repoRoot } from '../support/shared-assets.js';

assertChromiumInCi();
const run = promisify(execFile);
const taskIds = new Set(['L0007', 'L0012', 'L0033', 'L0041']);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

async function m3(args: string[]): Promise<void> {
  await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, CI: '1' },
    maxBuffer: 32 * 1024 * 1024,
  });
}

/** Task, GT and server files limited to `taskIds` and the servers their ground truth uses. */
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

async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.textContent(selector)) ?? '';
}

describe.skipIf(!hasChromium)(`m3 view in Chromium${hasChromium ? '' : ` (skipped: ${missingChromiumMessage})`}`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-'));
  const resultsDir = path.join(dir, 'results');
  let store: Store;
  let view: ViewServer;
  let browser: TestBrowser;
  let page: Page;
  let runIds: { gt: string; noisy: string };

  beforeAll(async () => {
    const files = writeSubset(dir);
    await m3([
      'run',
      '--model',
      'replay:gt',
      'replay:noisy',
      '--tasks',
      files.tasks,
      '--gt',
      files.gt,
      '--image-dir',
      'media',
      '--config',
      files.servers,
      '--results-dir',
      resultsDir,
      '--overwrite',
    ]);
    for (const label of ['replay-gt', 'replay-noisy']) {
      await m3([
        'eval',
        'step',
        '--gt',
        files.gt,
        '--pred',
        path.join(resultsDir, `${label}_test_mcp_fuzzy.json`),
        '--output-dir',
        path.join(resultsDir, label),
      ]);
    }
    store = openStore(path.join(resultsDir, 'm3bench.sqlite'), { readonly: true });
    const runs = listRuns(store);
    runIds = { gt: runs.find((entry) => entry.modelLabel === 'replay-gt')!.runId, noisy: runs.find((entry) => entry.modelLabel === 'replay-noisy')!.runId };
    view = await startViewServer({ store, resultsDir, port: 0, logger: createLogger('error') });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await view?.close();
    store?.close();
  });

  it('lists both runs and opens a run, then a task with its tool image', async () => {
    await page.goto(view.url);
    await page.waitForSelector(`tr[data-run="${runIds.noisy}"]`);
    expect(await page.locator('tbody tr').count()).toBe(2);
    await page.screenshot({ path: artifactPath('view-runs-1280.png'), fullPage: true });
    await page.click(`tr[data-run="${runIds.gt}"] a`);
    await page.waitForSelector('tr[data-task="L0041"]');
    expect(await page.locator('tbody tr').count()).toBe(taskIds.size);
    await page.click('tr[data-task="L0041"] a');
    await page.waitForSelector('#transcript img.tool-image');
    // The image is fetched from the viewer by tool-call id; polled from the test side (the CSP forbids eval).
    const image = page.locator('#transcript img.tool-image').first();
    const width = async () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    for (let tries = 0; tries < 100 && (await width()) === 0; tries += 1) await page.waitForTimeout(100);
    expect(await width()).toBeGreaterThan(0);
  });

  it("shows the noisy oracle's alignment with the evaluation output's counts", async () => {
    const results = readJson(path.join(resultsDir, 'replay-noisy', 'results_eval.json')) as {
      per_id: Array<{ id: string; details: { matches: Array<{ similarity: number }>; unmatched_gt_indices: number[]; unmatched_pred_indices: number[] } }>;
    };
    // The task of the noisy run with the most alignment defects: missed or extra calls if any.
    const score = [...results.per_id].sort(
      (a, b) =>
        b.details.unmatched_gt_indices.length +
        b.details.unmatched_pred_indices.length -
        (a.details.unmatched_gt_indices.length + a.details.unmatched_pred_indices.length),
    )[0]!;
    expect(score.details.unmatched_gt_indices.length + score.details.unmatched_pred_indices.length).toBeGreaterThan(0);
    await page.goto(`${view.url}#/task/${encodeURIComponent(runIds.noisy)}/${score.id}`);
    await page.waitForSelector('#alignment');
    expect(await page.getAttribute('#count-matched', 'data-value')).toBe(String(score.details.matches.length));
    expect(await page.getAttribute('#count-missed', 'data-value')).toBe(String(score.details.unmatched_gt_indices.length));
    expect(await page.getAttribute('#count-extra', 'data-value')).toBe(String(score.details.unmatched_pred_indices.length));
    expect(await page.locator('#alignment .call.missed').count()).toBe(score.details.unmatched_gt_indices.length);
    expect(await page.locator('#alignment .call.extra').count()).toBe(score.details.unmatched_pred_indices.length);
    expect(await page.locator('#alignment [data-strength="strong"]').count()).toBe(score.details.matches.filter((match) => match.similarity >= 0.8).length);
    await page.screenshot({ path: artifactPath('view-task-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.waitForSelector('#alignment');
    // At phone width the page must not scroll sideways (tables scroll inside their own box).
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: artifactPath('view-task-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('filters the task table by status and sorts it', async () => {
    await page.goto(`${view.url}#/run/${encodeURIComponent(runIds.noisy)}`);
    await page.waitForSelector('#status-filter');
    const statuses = await page.locator('tbody tr [data-status]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status')));
    expect(statuses).toHaveLength(taskIds.size);
    await page.selectOption('#status-filter', 'ok');
    expect(await page.locator('tbody tr').count()).toBe(statuses.filter((status) => status === 'ok').length);
    const options = await page.locator('#status-filter option').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('value')));
    for (const status of options.filter((value) => value !== 'all' && value !== 'ok')) {
      await page.selectOption('#status-filter', status);
      expect(await page.locator('tbody tr').count()).toBe(statuses.filter((entry) => entry === status).length);
    }
    await page.selectOption('#status-filter', 'all');
    await page.click('th[data-key="task"]');
    await page.click('th[data-key="task"]');
    const order = await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task')));
    expect(order).toEqual([...taskIds].sort().reverse());
  });

  it('compares the oracle with the noisy oracle: per-task recall deltas and flips', async () => {
    const oracle = new Map(
      (readJson(path.join(resultsDir, 'replay-gt', 'results_eval.json')).per_id as Array<{ id: string; recall: number }>).map((score) => [
        score.id,
        score.recall,
      ]),
    );
    const noisy = readJson(path.join(resultsDir, 'replay-noisy', 'results_eval.json')).per_id as Array<{ id: string; recall: number }>;
    const broken = noisy
      .filter((score) => oracle.get(score.id) === 1 && score.recall < 1)
      .map((score) => score.id)
      .sort();
    expect(broken.length).toBeGreaterThan(0);
    await page.goto(view.url);
    await page.waitForSelector('#compare-a');
    await page.selectOption('#compare-a', runIds.gt);
    await page.selectOption('#compare-b', runIds.noisy);
    await page.click('#compare-go');
    await page.waitForSelector('#flip-count');
    expect(await page.locator('tbody tr').count()).toBe(taskIds.size);
    const flipped = await page.locator('tbody tr[data-flip="broken"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task')).sort());
    expect(flipped).toEqual(broken);
    expect(await textOf(page, '#flip-count')).toContain(`${broken.length} broken`);
    await page.screenshot({ path: artifactPath('view-compare-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: artifactPath('view-compare-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
