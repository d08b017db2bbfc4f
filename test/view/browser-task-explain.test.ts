// The task page of a failed task in Chromium (issue 33 items 1 and 6), on the run of
// explain-fixture.ts: the question in both forms, the task image as sent (fetched from the
// viewer), the verdict with each check's reason, the step metrics with their definitions, the
// near miss's similarity and the threshold that decided, the mocked return with its tier and the
// real error, the request view (tools offered, the image's size); then at 390 px every call of
// the one-column alignment says whether it is GT or predicted. Screenshots in test-artifacts/.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from '../demo/browser.js';
import { buildExplainFixture, runId, type ExplainFixture } from './explain-fixture.js';

assertChromiumInCi();

describe.skipIf(!hasChromium)(`the task page explains the score in Chromium${hasChromium ? '' : ` (skipped: ${missingChromiumMessage})`}`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-view-explain-browser-'));
  let fixture: ExplainFixture;
  let view: ViewServer;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    fixture = await buildExplainFixture(dir);
    view = await startViewServer({ store: fixture.store, resultsDir: fixture.resultsDir, port: 0, logger: createLogger('error') });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(new URL(`#/task/${runId}/near`, view.url).href);
    await page.waitForSelector('#success-verdict');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await view?.close();
    fixture?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const text = async (selector: string) => (await page.textContent(selector)) ?? '';

  it('shows the question as asked and in the GT, and the task image as sent', async () => {
    expect(await text('#question-asked')).toContain('What do these two numbers on the picture add up to?');
    expect(await text('#question-gt')).toContain('Compute 13 + 5 with the math server');
    const image = page.locator('#task-images img');
    const width = async () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    for (let tries = 0; tries < 100 && (await width()) === 0; tries += 1) await page.waitForTimeout(100);
    expect(await width()).toBe(64);
    expect(await text('#task-images figcaption')).toBe(`task image 1 as sent: 64×32 image/png, ${fixture.imageBytes} bytes · sent`);
  });

  it("fails the task and gives each check's reason", async () => {
    expect(await text('#success-verdict')).toBe('fail');
    expect(await text('#success-rule')).toBe('rules+answer');
    expect(await text('#success-why')).toBe('2 of 2 check(s) failed');
    const rows = page.locator('#checks tbody tr');
    expect(await rows.count()).toBe(2);
    for (const row of await rows.all()) {
      expect(await row.getAttribute('data-passed')).toBe('false');
      expect(await row.locator('td.reason').textContent()).toMatch(/180/);
    }
  });

  it('lists the step metrics with their definitions', async () => {
    expect(await text('#step-metrics tr[data-metric="recall"]')).toMatch(/^recall0matched GT calls \/ GT calls/);
    expect(await page.locator('#step-metrics tbody tr').count()).toBe(7);
  });

  it('pairs the missed GT call with its near miss and says which threshold decided', async () => {
    const row = page.locator('#best-matches tr[data-gt="0"]');
    expect(await row.getAttribute('data-decision')).toBe('unmatched');
    expect(await row.textContent()).toMatch(/best math\/add call #0: similarity 0\.562 < τ_weak 0\.6/);
  });

  it('marks the mocked return with its tier and the real error, and opens the request as the model received it', async () => {
    expect(await text('.event.tool.mocked .badge.tier')).toContain('mocked: template (real: upstream_network)');
    await page.click('details.request summary');
    expect(await text('details.request .request-tools')).toBe('tools offered: 2 (math__add, math__multiply)');
    expect(await text('details.request .request-images tbody tr')).toContain(`${fixture.imageBytes}`);
    expect(await text('details.request .request-messages')).toContain(`image: image image/png, ${fixture.imageBytes} bytes`);
    expect(await text('#task-counts')).toContain('1 rounds · 1 tool calls');
    await page.screenshot({ path: artifactPath('view-task-explain-1280.png'), fullPage: true });
  });

  it('labels GT and predicted calls in the one-column alignment at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const boxes = page.locator('#alignment .call');
    expect(await boxes.count()).toBe(2);
    expect(await boxes.nth(0).locator('.side-label').textContent()).toBe('GT');
    expect(await boxes.nth(1).locator('.side-label').textContent()).toBe('predicted');
    // One column: the GT card sits above the predicted one, not beside it.
    const [gt, pred] = [await boxes.nth(0).boundingBox(), await boxes.nth(1).boundingBox()];
    expect(pred!.y).toBeGreaterThan(gt!.y + gt!.height - 1);
    await page.screenshot({ path: artifactPath('view-task-explain-390.png'), fullPage: true });
  });
});
