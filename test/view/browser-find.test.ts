// Finding a task in Chromium (issue 33 items 2 and 6) on a 150-task run (run-builder.ts): from
// the runs page, a search for a task id; the failures filter, with failures first and the view in
// the URL, and the same URL opened afresh reproducing it; sorting by keyboard alone with the
// order in aria-sort; paging; a cell of the tasks × runs matrix opening the task in that run
// (the matrix's data: matrix.test.ts); and an empty store's page saying how to make a run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { openStore } from '../../src/store/index.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from '../demo/browser.js';
import { buildRun, kindOf, taskIdOf, type BuiltRun } from './run-builder.js';

assertChromiumInCi();
const count = 150;
const failing = Array.from({ length: count }, (_, n) => n + 1)
  .filter((i) => kindOf(i) === 'wrong_tool' || kindOf(i) === 'model_failure')
  .map(taskIdOf);

/** The table has answered the last change (the page marks it busy while a query is in flight). */
async function settled(page: Page): Promise<void> {
  await page.waitForSelector('#task-holder[aria-busy="false"]');
}

const rowIds = (page: Page) => page.locator('#task-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task')));

describe.skipIf(!hasChromium)(`finding a task in Chromium${hasChromium ? '' : ` (skipped: ${missingChromiumMessage})`}`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-find-'));
  let built: BuiltRun;
  let view: ViewServer;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    built = await buildRun(dir, count);
    view = await startViewServer({ store: built.store, resultsDir: built.resultsDir, port: 0, logger: createLogger('error') });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await view?.close();
    built?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a task by typing its id, from the runs page', async () => {
    await page.goto(view.url);
    await page.click(`tr[data-run="${built.runId}"] a`);
    await page.waitForSelector('#task-search');
    expect(await page.textContent('#task-count')).toBe(`${count} of ${count} tasks`);
    await page.fill('#task-search', 'T00042');
    await page.waitForSelector('#task-count[data-matched="1"]');
    await settled(page);
    expect(await rowIds(page)).toEqual(['T00042']);
    expect(new URL(page.url()).hash).toBe(`#/run/${built.runId}?q=T00042`);
    await page.fill('#task-search', '');
    await page.waitForSelector(`#task-count[data-matched="${count}"]`);
  });

  it('shows failures first, filters to failures, and a deep link reproduces the view', async () => {
    await settled(page);
    expect((await rowIds(page)).slice(0, failing.length)).toEqual(failing);
    await page.selectOption('#outcome-filter', 'fail');
    await page.selectOption('#tool-filter', 'weather/get_air_quality');
    await page.waitForSelector('#task-count[data-matched]:not([data-matched="150"])');
    await settled(page);
    const shown = await rowIds(page);
    expect(shown).toEqual(failing.filter((id) => kindOf(Number(id.slice(1))) === 'wrong_tool'));
    const link = page.url();
    expect(new URL(link).hash).toBe(`#/run/${built.runId}?outcome=fail&tool=weather%2Fget_air_quality`);
    const fresh = await browser.context.newPage();
    await fresh.goto(link);
    await fresh.waitForSelector('#task-table tbody tr');
    expect(await rowIds(fresh)).toEqual(shown);
    expect(await fresh.inputValue('#outcome-filter')).toBe('fail');
    expect(await fresh.inputValue('#tool-filter')).toBe('weather/get_air_quality');
    await fresh.close();
  });

  it('sorts by keyboard alone, the order stated in aria-sort', async () => {
    await page.goto(new URL(`#/run/${built.runId}`, view.url).href);
    await page.waitForSelector('#task-table tbody tr');
    await page.focus('#task-table th[data-key="task"] button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#task-table th[data-key="task"][aria-sort="ascending"]');
    await settled(page);
    expect((await rowIds(page)).slice(0, 3)).toEqual(['T00001', 'T00002', 'T00003']);
    // The focus stays on the head that was pressed, so Enter again reverses the order.
    await page.keyboard.press('Enter');
    await page.waitForSelector('#task-table th[data-key="task"][aria-sort="descending"]');
    await settled(page);
    expect((await rowIds(page)).slice(0, 3)).toEqual(['T00150', 'T00149', 'T00148']);
    expect(await page.getAttribute('#task-table th[data-key="recall"]', 'aria-sort')).toBe('none');
    expect(new URL(page.url()).hash).toBe(`#/run/${built.runId}?sort=task&dir=desc`);
  });

  it('pages through the rows', async () => {
    expect(await page.locator('#task-table tbody tr').count()).toBe(100);
    await page.click('#page-next');
    await page.waitForSelector('#page-prev');
    await settled(page);
    expect(await rowIds(page)).toEqual(Array.from({ length: 50 }, (_, n) => taskIdOf(50 - n)));
    expect(await page.textContent('#task-range')).toBe(' · rows 101–150');
    await page.screenshot({ path: artifactPath('view-find-1280.png'), fullPage: true });
  });

  it('opens the task in that run from a cell of the matrix', async () => {
    await page.goto(new URL('#/matrix', view.url).href);
    await page.waitForSelector('#matrix tbody tr');
    const cell = page.locator(`#matrix tr[data-task="${taskIdOf(5)}"] td[data-run="${built.runId}"]`);
    expect(await cell.getAttribute('data-outcome')).toBe('fail');
    expect(await cell.textContent()).toBe('fail · recall 0');
    await cell.locator('a').click();
    await page.waitForSelector('#success-verdict');
    expect(new URL(page.url()).hash).toBe(`#/task/${built.runId}/${taskIdOf(5)}`);
    expect(await page.textContent('#success-verdict')).toBe('fail');
  });

  it('tells an empty store how to make a run', async () => {
    const store = openStore(path.join(dir, 'empty.sqlite'));
    const empty = await startViewServer({ store, resultsDir: path.join(dir, 'empty-results'), port: 0, logger: createLogger('error') });
    try {
      await page.goto(empty.url);
      await page.waitForSelector('#empty-store');
      expect(await page.textContent('h1')).toBe('No runs yet');
      expect(await page.textContent('#empty-store')).toContain('npm run bench');
      expect(await page.textContent('#empty-store')).toContain('eval step');
    } finally {
      await empty.close();
      store.close();
    }
  });
});
