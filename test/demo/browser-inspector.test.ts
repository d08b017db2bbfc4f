// The playground's MCP Inspector views in a real browser, on the real servers: the imageops
// server's resources (a JSON text resource and a PNG swatch) read, its prompt filled in; the
// math server shown as declaring neither; the JSON-RPC log of a tool call made from the page
// (request and response with one id); and a secret the server configuration passes to a server
// never shown in the log, though the call's arguments carried it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from './browser.js';
import { startDemoHarness, testApiKey, type DemoHarness } from './demo-harness.js';

assertChromiumInCi();
const configuredSecret = 'imageops-licence-9c41d7e2b8';

describe.skipIf(!hasChromium)(
  `demo playground resources, prompts and JSON-RPC log in Chromium${hasChromium ? '' : ` (skipped: ${missingChromiumMessage})`}`,
  () => {
    let harness: DemoHarness;
    let browser: TestBrowser;
    let page: Page;

    beforeAll(async () => {
      harness = await startDemoHarness({
        inProcess: true,
        servers: ['math', 'imagesorcery-mcp'],
        serverEnv: { 'imagesorcery-mcp': { IMAGEOPS_LICENCE: configuredSecret } },
      });
      browser = await launchBrowser();
      page = await browser.context.newPage();
      await page.goto(harness.url);
      const deadline = Date.now() + 15_000;
      while (!/^[A-Za-z0-9_-]{8,}$/.test((await page.textContent('#session-id')) ?? '') && Date.now() < deadline) await page.waitForTimeout(100);
      await page.click('#tab-playground');
    });
    afterAll(async () => {
      await browser?.close();
      await harness?.close();
    });

    it("lists and reads the imageops server's resources: JSON text and a PNG shown as an image", async () => {
      await page.selectOption('#pg-server', 'imagesorcery-mcp');
      await page.waitForSelector('#pg-resources li[data-uri="imageops://limits"]');
      expect(await page.locator('#pg-resources li').evaluateAll((items) => items.map((item) => item.getAttribute('data-uri')).sort())).toEqual([
        'imageops://colors.png',
        'imageops://limits',
      ]);
      await page.click('#pg-resources li[data-uri="imageops://limits"] button');
      await page.waitForSelector('#pg-resource-result .resource-content[data-uri="imageops://limits"] pre');
      const text = (await page.textContent('#pg-resource-result pre')) ?? '';
      expect(JSON.parse(text.replace(/\n…$/, '')).outputExtensions).toContain('.png');
      await page.click('#pg-resources li[data-uri="imageops://colors.png"] button');
      const image = page.locator('#pg-resource-result .resource-content[data-uri="imageops://colors.png"] img');
      await image.waitFor();
      await expect.poll(() => image.evaluate((node) => (node as unknown as { naturalWidth: number }).naturalWidth)).toBe(600);
      // The swatch became a session image, so an image field of a tool can pick it.
      await page.selectOption('#pg-tool', 'imagesorcery-mcp/resize');
      expect(await page.locator('.field:has(#field-input_path) select option').count()).toBeGreaterThan(1);
    });

    it('fills in a prompt and shows its messages', async () => {
      expect(await page.locator('#pg-prompt option').evaluateAll((options) => options.map((option) => option.getAttribute('value')))).toEqual(['mark-objects']);
      await page.click('#pg-prompt-get');
      await expect.poll(() => page.textContent('#pg-prompt-error')).toBe('image_path is required');
      await page.fill('#prompt-arg-image_path', './media/photos/dogs.jpg');
      await page.fill('#prompt-arg-objects', 'dogs');
      await page.click('#pg-prompt-get');
      await page.waitForSelector('#pg-prompt-result li[data-role="user"]');
      expect(await page.textContent('#pg-prompt-result li[data-role="user"]')).toContain('Find all the dogs in the image at ./media/photos/dogs.jpg');
      // A prompt without a description shows none (no stray "null").
      expect(await page.textContent('#pg-prompt-result')).not.toContain('null');
      await page.screenshot({ path: artifactPath('demo-playground-inspector-1280.png'), fullPage: true });
    });

    it('says plainly that the math server declares no resources or prompts, and logs a tool call made from the page', async () => {
      await page.selectOption('#pg-server', 'math');
      await page.waitForSelector('#pg-resources .not-declared');
      expect(await page.textContent('#pg-resources')).toContain('math does not declare resources');
      expect(await page.textContent('#pg-prompts')).toContain('math does not declare prompts');
      expect(await page.locator('#pg-prompt-controls').isHidden()).toBe(true);
      await page.selectOption('#pg-tool', 'math/add');
      await page.fill('#field-firstNumber', '40');
      await page.fill('#field-secondNumber', '2');
      await page.click('#pg-call');
      await expect.poll(() => page.textContent('#pg-result pre.result-text')).toBe('42');
      const request = page.locator('#pg-log li[data-method="tools/call"][data-kind="request"]').first();
      await request.waitFor();
      const id = await request.getAttribute('data-id');
      expect(id).toMatch(/^\d+$/);
      const response = page.locator(`#pg-log li[data-method="tools/call"][data-kind="response"][data-id="${id}"]`);
      expect(await response.count()).toBe(1);
      expect(await request.textContent()).toContain('"firstNumber": 40');
      expect(await response.textContent()).toContain('42');
      expect(Number(await response.getAttribute('data-seq'))).toBeGreaterThan(Number(await request.getAttribute('data-seq')));
      // The handshake of this server session is in the log too, oldest last.
      expect(await page.locator('#pg-log li').last().getAttribute('data-method')).toBe('initialize');
      expect(await page.textContent('#pg-log-note')).toMatch(/the newest 500 are kept/);
    });

    it('never shows a configured secret in the log, though the call carried it', async () => {
      await page.selectOption('#pg-server', 'imagesorcery-mcp');
      await page.selectOption('#pg-tool', 'imagesorcery-mcp/resize');
      await page.fill('#field-input_path', `./media/uploads/${configuredSecret}.jpg`);
      await page.fill('#field-width', '10');
      await page.click('#pg-call');
      // The result card still shows the math call until this one is answered.
      await expect.poll(() => page.textContent('#pg-result h2')).toContain('imagesorcery-mcp/resize');
      // An error result without images ends with its text, not a stray "null".
      expect(await page.textContent('#pg-result .badge')).not.toBe('ok');
      expect(await page.textContent('#pg-result')).not.toContain('null');
      const request = page.locator('#pg-log li[data-method="tools/call"][data-kind="request"]').first();
      await request.waitFor();
      expect(await request.textContent()).toContain('./media/uploads/[REDACTED].jpg');
      const shown = (await page.textContent('#pg-log')) ?? '';
      expect(shown).not.toContain(configuredSecret);
      expect(shown).not.toContain(testApiKey);
      const session = (await page.textContent('#session-id')) ?? '';
      const raw = await page.evaluate(async (id) => (await fetch(`/api/servers/imagesorcery-mcp/rpc-log?session=${id}`)).text(), session);
      expect(raw).not.toContain(configuredSecret);
      expect(raw).toContain('[REDACTED]');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: artifactPath('demo-playground-inspector-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('answers an unknown server with 404 and a resource the server refuses with 502 and its message', async () => {
      const sessionId = (await page.textContent('#session-id')) ?? '';
      const answers = await page.evaluate(async (session) => {
        const answer = async (response: Response) => ({
          status: response.status,
          body: (await response.json()) as { error: { code: string; message: string } },
        });
        const post = (url: string, body: unknown) =>
          fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(answer);
        return {
          unknown: await fetch('/api/servers/no-such-server').then(answer),
          refused: await post('/api/servers/imagesorcery-mcp/resources/read', { sessionId: session, uri: 'imageops://nothing' }),
          noPrompt: await post('/api/servers/math/prompts/get', { sessionId: session, name: 'mark-objects' }),
        };
      }, sessionId);
      expect(answers.unknown).toMatchObject({ status: 404, body: { error: { code: 'unknown_server' } } });
      expect(answers.refused.status).toBe(502);
      expect(answers.refused.body.error.message).toMatch(/^server "imagesorcery-mcp" answered with an error: .*imageops:\/\/nothing/);
      expect(answers.noPrompt.status).toBe(502);
    });
  },
);
