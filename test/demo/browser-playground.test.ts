// The tool playground and the page's error reporting in a real browser: a math tool and an
// image tool called from generated forms, a non-image and an oversized upload refused with a
// message, a cross-origin page's POST refused with 403, and a demo without any model.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSwitches } from '../../src/config/switches.js';
import { startDemoServer, type DemoServer } from '../../src/demo/index.js';
import { createLogger } from '../../src/log/logger.js';
import { repoRoot } from '../support/shared-assets.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from './browser.js';
import { startDemoHarness, type DemoHarness } from './demo-harness.js';

assertChromiumInCi();

describe.skipIf(!hasChromium)(`demo playground and errors in Chromium${hasChromium ? '' : ` (skipped: ${missingChromiumMessage})`}`, () => {
  let harness: DemoHarness;
  let browser: TestBrowser;
  let page: Page;
  let photo: Buffer;

  beforeAll(async () => {
    harness = await startDemoHarness({ inProcess: true, servers: ['math', 'imagesorcery-mcp'], limits: { maxUploadBytes: 512 * 1024 } });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(harness.url);
    // Polled from the test side: a string predicate in waitForFunction is eval, which the page's CSP forbids.
    const deadline = Date.now() + 15_000;
    while (!/^[A-Za-z0-9_-]{8,}$/.test((await page.textContent('#session-id')) ?? '') && Date.now() < deadline) await page.waitForTimeout(100);
    photo = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#2a9d8f' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  async function chooseTool(server: string, tool: string): Promise<void> {
    await page.selectOption('#pg-server', server);
    await page.selectOption('#pg-tool', `${server}/${tool}`);
  }

  it('calls a math tool from a form generated from its schema, and checks required fields', async () => {
    await page.click('#tab-playground');
    await chooseTool('math', 'add');
    expect(await page.locator('#pg-form .field').count()).toBe(2);
    expect(await page.locator('#pg-form .required').count()).toBe(2);
    expect(await page.getAttribute('#field-firstNumber', 'type')).toBe('number');
    await page.fill('#field-firstNumber', '19');
    await page.click('#pg-call');
    await expect.poll(() => page.textContent('#pg-error')).toBe('secondNumber is required');
    await page.fill('#field-secondNumber', '23.5');
    await page.click('#pg-call');
    await expect.poll(() => page.textContent('#pg-result pre.result-text')).toBe('42.5');
    expect(await page.textContent('#pg-result .badge')).toBe('ok');

    await chooseTool('math', 'mean');
    await page.fill('#field-numbers', '2, 4, 9');
    await page.click('#pg-call');
    await expect.poll(() => page.textContent('#pg-result pre.result-text')).toBe('5');
    await chooseTool('math', 'sum');
    await page.fill('#field-numbers', '1\n2\n3.5');
    await page.click('#pg-call');
    await expect.poll(() => page.textContent('#pg-result pre.result-text')).toBe('6.5');
  });

  it('calls an image tool on an uploaded image picked from the form, and shows the output image', async () => {
    await page.setInputFiles('#pg-file-input', { name: 'teal.jpg', mimeType: 'image/jpeg', buffer: photo });
    await chooseTool('imagesorcery-mcp', 'resize');
    const picker = page.locator('.field:has(#field-input_path) select');
    await expect.poll(() => picker.locator('option').count()).toBe(2);
    await picker.selectOption({ index: 1 });
    expect(await page.inputValue('#field-input_path')).toMatch(/^\.\/media\/uploads\/test-[0-9a-f]+\/[A-Za-z0-9_-]+\/[0-9a-f]{16}\.jpg$/);
    expect(await page.locator('.field:has(#field-output_path) select').count()).toBe(0);
    await page.fill('#field-width', '60');
    await page.click('#pg-call');
    const output = page.locator('#pg-result img');
    await expect
      .poll(
        () =>
          output.evaluate(
            (image: { complete: boolean; naturalWidth: number; naturalHeight: number }) => image.complete && `${image.naturalWidth}x${image.naturalHeight}`,
          ),
        { timeout: 60_000 },
      )
      .toBe('60x40');
    expect(await page.textContent('#pg-result h2')).toContain('imagesorcery-mcp/resize');
    await page.screenshot({ path: artifactPath('demo-playground.png'), fullPage: true });

    // Arrays of objects are a JSON textarea, with the item keys as a hint.
    await chooseTool('imagesorcery-mcp', 'draw_rectangles');
    expect(await page.textContent('.field:has(#field-rectangles) .help')).toContain('JSON array of { x1, y1, x2, y2, bbox');
    await page.locator('.field:has(#field-input_path) select').selectOption({ index: 1 });
    await page.fill('#field-rectangles', '[{"x1": 10, "y1": 10, "x2": 50}');
    await page.click('#pg-call');
    await expect.poll(() => page.textContent('#pg-error')).toMatch(/^rectangles: not valid JSON/);
    await page.fill('#field-rectangles', '[{"x1": 10, "y1": 10, "x2": 50, "y2": 40, "color": "#ff0000", "thickness": 3}]');
    await page.click('#pg-call');
    await expect.poll(() => page.textContent('#pg-result h2')).toContain('imagesorcery-mcp/draw_rectangles');
    await expect.poll(() => output.evaluate((image: { complete: boolean; naturalWidth: number }) => image.complete && image.naturalWidth)).toBe(120);
  });

  it('reports a non-image and an oversized upload in the page', async () => {
    await page.click('#tab-chat');
    await page.setInputFiles('#file-input', { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text pretending to be a PNG\n') });
    await expect.poll(() => page.textContent('#composer-error')).toMatch(/notes\.png: the upload is not a supported image \(detected unknown data\)/);
    expect(await page.locator('.pending').count()).toBe(0);
    // Stored without compression (level 0), so its size is its pixels': over the limit at a tenth
    // of the encoding work a compressed noise image of that size takes.
    const big = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#808080' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(512 * 1024);
    await page.setInputFiles('#file-input', { name: 'noise.png', mimeType: 'image/png', buffer: big });
    await expect.poll(() => page.textContent('#composer-error')).toMatch(/noise\.png is too large: .* MB \(the limit is 512\.0 KB\)/);
    expect(await page.locator('.pending').count()).toBe(0);
  });

  it('refuses a state-changing request from another origin with 403', async () => {
    const sessionId = (await page.textContent('#session-id')) ?? '';
    const evil = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>elsewhere</title>');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const other = await browser.context.newPage();
    // The browser hides a refused cross-origin response from the page (and from page events);
    // the DevTools protocol still sees the status the server sent.
    const cdp = await browser.context.newCDPSession(other);
    await cdp.send('Network.enable');
    const urls = new Map<string, string>();
    const statuses = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
    cdp.on('Network.responseReceivedExtraInfo', (event) => statuses.set(event.requestId, event.statusCode));
    try {
      await other.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      const target = `${harness.url}api/sessions/${sessionId}/messages`;
      const before = harness.mock.generations().length;
      // A "simple" cross-origin POST (text/plain, no preflight): the browser sends it, so only the server's check stops it.
      const outcome = await other.evaluate(async (url) => {
        try {
          await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ text: 'pwned', model: 'openai:mock-model' }) });
          return 'read';
        } catch {
          return 'blocked';
        }
      }, target);
      expect(outcome).toBe('blocked');
      const requestId = [...urls].find(([, url]) => url === target)?.[0] ?? '';
      await expect.poll(() => statuses.get(requestId)).toBe(403);
      expect(harness.mock.generations().length).toBe(before);
      expect(await page.locator('.turn').count()).toBe(0);
    } finally {
      await cdp.detach();
      await other.close();
      evil.closeAllConnections();
      await new Promise((resolve) => evil.close(resolve));
    }
  });

  it('without a model, says so, disables Send, and keeps the playground working', async () => {
    let bare: DemoServer | undefined;
    const note = 'No model is configured: start the demo with --model provider:model.';
    try {
      bare = await startDemoServer({
        toolHost: harness.host,
        models: { models: [], note },
        switches: parseSwitches({}),
        port: 0,
        root: repoRoot,
        uploadsDir: path.join(harness.uploadsDir, 'bare'),
        logDir: path.join(harness.logDir, 'bare'),
        logger: createLogger('error'),
        loopLimits: { maxStep: 2, maxConcurrent: 2, topTools: 0, maxNewTokens: 256 },
      });
      const view = await browser.context.newPage();
      await view.goto(bare.url);
      await expect.poll(() => view.textContent('#model-note')).toBe(note);
      await view.fill('#message', 'hello?');
      expect(await view.isDisabled('#send')).toBe(true);
      expect(await view.getAttribute('#send', 'title')).toBe(note);
      await view.click('#tab-playground');
      await view.selectOption('#pg-server', 'math');
      await view.selectOption('#pg-tool', 'math/multiply');
      await view.fill('#field-firstNumber', '6');
      await view.fill('#field-SecondNumber', '7');
      await view.click('#pg-call');
      await expect.poll(() => view.textContent('#pg-result pre.result-text')).toBe('42');
      await view.close();
    } finally {
      await bare?.close();
    }
  });
});
