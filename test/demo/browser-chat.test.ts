// The demo page in a real browser: upload a real photo, ask, and watch the mock model call the
// YOLO detector (annotate: true) through the live timeline, then answer; the same at phone
// width; and Cancel on a slow model. Screenshots go to test-artifacts/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAssetsInCi, missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';
import { artifactPath, assertChromiumInCi, hasChromium, launchBrowser, missingChromiumMessage, type TestBrowser } from './browser.js';
import { startDemoHarness, testApiKey, type DemoHarness } from './demo-harness.js';

assertChromiumInCi();
assertAssetsInCi();
const assets = sharedAssetsDir();
const skipReason = !hasChromium ? missingChromiumMessage : !assets ? missingAssetsMessage : '';

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
}

describe.skipIf(skipReason !== '')(`demo chat in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let harness: DemoHarness;
  let browser: TestBrowser;
  const bodies: string[] = [];
  const dogPhoto = path.join(assets ?? '', 'images', 'detection', 'dog_bicycle_car.jpg');

  beforeAll(async () => {
    harness = await startDemoHarness({ inProcess: true, servers: ['dinox-mcp', 'math', 'imagesorcery-mcp'] });
    browser = await launchBrowser();
    browser.context.on('response', (response) => {
      if (!response.headers()['content-type']?.startsWith('text/event-stream'))
        void response.text().then(
          (text) => bodies.push(text),
          () => undefined,
        );
    });
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  async function openPage(): Promise<{ page: Page; sessionId: string }> {
    const page = await browser.context.newPage();
    await page.goto(harness.url);
    await expect.poll(() => page.textContent('#session-id')).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    return { page, sessionId: (await page.textContent('#session-id')) ?? '' };
  }

  async function uploadedPath(page: Page, sessionId: string): Promise<string> {
    // The session belongs to the browser's visitor cookie: read it as the page does.
    const state = (await page.evaluate(async (id) => (await fetch(`/api/sessions/${id}`)).json(), sessionId)) as {
      images: Array<{ path: string; source: string }>;
    };
    const upload = state.images.find((image) => image.source === 'upload');
    if (!upload) throw new Error('no uploaded image in the session');
    return upload.path;
  }

  it('streams a detection round with the annotated image, then the answer', async () => {
    const { page, sessionId } = await openPage();
    await page.setInputFiles('#file-input', dogPhoto);
    await page.locator('.pending.ready').waitFor({ timeout: 60_000 });
    const imagePath = await uploadedPath(page, sessionId);
    expect(imagePath).toMatch(new RegExp(`^\\./media/uploads/test-[0-9a-f]+/${sessionId}/[0-9a-f]{16}\\.jpg$`));
    const answer = 'A dog is sitting on the porch in front of a bicycle, and a car is parked behind them. I drew boxes around all three.';
    harness.mock.enqueue(
      {
        text: 'Let me look at the photo.',
        toolCalls: [{ name: harness.functionName('dinox-mcp/detect-all-objects'), arguments: { imageFileUri: imagePath, annotate: true } }],
      },
      { text: answer },
    );
    await page.fill('#message', 'What is in this photo? Show me where.');
    await page.press('#message', 'Control+Enter');

    const call = page.locator('.call[data-tool="dinox-mcp/detect-all-objects"]');
    await call.locator('.badge.ok').waitFor({ timeout: 60_000 });
    await expect.poll(() => call.locator('pre.arguments').textContent()).toContain('"annotate": true');
    // The detection result is one summary line until opened; then the whole pretty-printed JSON.
    const details = call.locator('.call-body details.result');
    expect(await details.getAttribute('open')).toBeNull();
    expect(await details.locator('summary').textContent()).toMatch(/^result: Objects detected in image: .+ \(\d+ lines, [\d,]+ characters\)$/);
    expect(await call.locator('.call-body pre.result-text').isVisible()).toBe(false);
    await details.locator('summary').click();
    await expect.poll(() => call.locator('.call-body pre.result-text').isVisible()).toBe(true);
    const result = (await call.locator('.call-body pre.result-text').textContent()) ?? '';
    expect(result).toContain('"name": "dog"');
    expect(result).toContain('"name": "bicycle"');
    expect(result).toMatch(/\n\[image: image\/png, \d+ bytes\]$/);
    const annotated = call.locator('.call-body img');
    await expect.poll(() => annotated.evaluate((image: { complete: boolean; naturalWidth: number }) => image.complete && image.naturalWidth)).toBe(768);
    await page.locator('.bubble.answer').waitFor();
    expect(await page.textContent('.bubble.answer')).toContain(answer);
    expect(await page.textContent('.round .model-text')).toBe('Let me look at the photo.');
    expect(await page.locator('.bubble.user img').count()).toBe(1);
    expect(await page.isEnabled('#send')).toBe(true);

    // The annotated image went back to the model too, as an image.
    const followUp = harness.mock.generations().at(-1)?.body as ChatBody;
    const afterTool = followUp.messages.slice(followUp.messages.findIndex((message) => message.role === 'tool'));
    expect(afterTool.length).toBeGreaterThan(1);
    expect(JSON.stringify(afterTool)).toMatch(/data:image\/(png|jpeg);base64,/);

    // A viewport as tall as the page, so the sticky composer sits at the bottom of the picture.
    await page.setViewportSize({ width: 1280, height: await page.evaluate<number>('document.documentElement.scrollHeight') });
    await page.screenshot({ path: artifactPath('demo-chat.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await page.isVisible('#send')).toBe(true);
    await page.screenshot({ path: artifactPath('demo-chat-390.png'), fullPage: true });
    expect(existsSync(artifactPath('demo-chat.png'))).toBe(true);
    await page.close();
  });

  it('Cancel stops a slow episode and the page says so', async () => {
    const { page } = await openPage();
    harness.mock.enqueue({ text: 'too late', delayMs: 30_000 });
    await page.fill('#message', 'Think about it for a long time.');
    await page.click('#send');
    await page.locator('.status-line').waitFor();
    await expect.poll(() => page.isEnabled('#cancel')).toBe(true);
    await page.click('#cancel');
    await page.locator('.bubble.cancelled').waitFor({ timeout: 60_000 });
    // The reply would take 30 s and then show "too late": the cancelled bubble proves the cancel stopped the episode.
    // A cancel is the user's stop, not a model error: no "Model error" line, no failed bubble.
    expect(await page.locator('.turn:last-child .inline-error').count()).toBe(0);
    expect(await page.locator('.turn:last-child .bubble.failed').count()).toBe(0);
    expect(await page.locator('.turn:last-child > .meta').last().textContent()).toMatch(/^cancelled · /);
    await expect.poll(() => page.isEnabled('#cancel')).toBe(false);
    await page.fill('#message', 'again');
    expect(await page.isEnabled('#send')).toBe(true);
    await page.close();
  });

  it('shows a tool error on its call and a model error as the failed end of the turn', async () => {
    const { page } = await openPage();
    await page.click('#new-session');
    await expect.poll(() => page.locator('.turn').count()).toBe(0);
    harness.mock.enqueue(
      { toolCalls: [{ name: harness.functionName('math/division'), arguments: { numerator: 1, denominator: 0 } }] },
      { fault: { kind: 'status', status: 401, message: 'invalid api key' } },
    );
    await page.fill('#message', 'What is 1 divided by 0?');
    await page.click('#send');
    const call = page.locator('.call[data-tool="math/division"]');
    await call.locator('.badge.error').waitFor({ timeout: 60_000 });
    expect(await call.locator('details.result summary').textContent()).toMatch(/^error: .*cannot divide by zero/);
    expect(await call.locator('pre.result-text').textContent()).toContain('cannot divide by zero');
    await page.locator('.bubble.failed').waitFor({ timeout: 60_000 });
    expect(await page.textContent('.bubble.failed')).toMatch(/^Failed \(provider_auth\): .*401/);
    // The turn is over: the session takes the next message, and an empty one is explained, not sent.
    await expect.poll(() => page.isEnabled('#send')).toBe(true);
    await page.click('#send');
    expect(await page.textContent('#composer-error')).toBe('Write a question first.');
    await page.close();
  });

  it('never previews an .svg (which can carry script) and previews a photo under the type its bytes show', async () => {
    const { page } = await openPage();
    // Every <img> the page ever adds is recorded, so a preview that is removed again still counts.
    await page.evaluate(`(() => {
      const seen = (window.addedImages = []);
      new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) {
          if (node.tagName === 'IMG') seen.push(node.alt);
          for (const img of node.querySelectorAll ? node.querySelectorAll('img') : []) seen.push(img.alt);
        }
      }).observe(document, { childList: true, subtree: true });
    })()`);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>window.parent.pwned = 1</script></svg>';
    await page.setInputFiles('#file-input', { name: 'trap.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    // No blob: preview is made; the server then refuses the upload and names it.
    await expect.poll(() => page.textContent('#composer-error')).toContain('trap.svg: ');
    expect(await page.locator('img[alt="attachment trap.svg"]').count()).toBe(0);
    // A JPEG named .svg is previewed, as the JPEG its bytes are.
    await page.setInputFiles('#file-input', { name: 'photo.svg', mimeType: 'image/svg+xml', buffer: readFileSync(dogPhoto) });
    const preview = page.locator('img[alt="attachment photo.svg"]');
    await preview.waitFor();
    // Decoded as the JPEG it is (the page's CSP keeps fetch() off blob: URLs, so look at the image).
    await expect.poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const added = await page.evaluate(() => (globalThis as unknown as { addedImages: string[] }).addedImages);
    expect(added).toContain('attachment photo.svg');
    expect(added).not.toContain('attachment trap.svg');
    await page.close();
  });

  it('a reload shows the session again from the replayed events', async () => {
    const { page, sessionId } = await openPage();
    await page.reload();
    await expect.poll(() => page.textContent('#session-id')).toBe(sessionId);
    await expect.poll(() => page.locator('.turn').count()).toBeGreaterThanOrEqual(1);
    await page.close();
  });

  it('follows a live run to the newest round, and stops following when the reader scrolls up', async () => {
    const { page } = await openPage();
    await page.setViewportSize({ width: 1280, height: 420 });
    const add = (first: number) => ({ toolCalls: [{ name: harness.functionName('math/add'), arguments: { firstNumber: first, secondNumber: 1 } }] });
    harness.mock.enqueue({ ...add(1), delayMs: 300 }, { ...add(2), delayMs: 1500 }, { ...add(3), delayMs: 1500 }, { text: 'done', delayMs: 300 });
    await page.fill('#message', 'Add one, three times.');
    await page.click('#send');
    const distanceToBottom = () => page.evaluate<number>('document.documentElement.scrollHeight - (window.scrollY + window.innerHeight)');
    await page.locator('.round[data-round="2"]').waitFor({ timeout: 60_000 });
    await expect.poll(distanceToBottom).toBeLessThan(40);
    // The reader scrolls up to read round 1: the page stays there while rounds 3 and 4 arrive.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.locator('.round[data-round="3"] .badge.ok').waitFor({ timeout: 60_000 });
    await page.locator('.bubble.answer', { hasText: 'done' }).waitFor({ timeout: 60_000 });
    expect(await page.evaluate<number>('window.scrollY')).toBe(0);
    await page.close();
  });

  const sampleNames = ['detection', 'ocr'].flatMap((folder) => {
    const dir = path.join(repoRoot, 'media', 'assets', 'images', folder);
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => /\.(jpe?g|png|webp)$/i.test(name))
          .map((name) => `${folder}/${name}`)
      : [];
  });
  it.skipIf(sampleNames.length === 0)('offers the bundled photos as samples; at 390 px the conversation comes before the settings', async () => {
    const { page, sessionId: visitorSession } = await openPage();
    // A session of its own: the visitor's earlier session replays its turns (their answers too)
    // into the page, at a moment of its own.
    await page.click('#new-session');
    await expect.poll(() => page.textContent('#session-id')).not.toBe(visitorSession);
    await expect.poll(() => page.locator('.turn').count()).toBe(0);
    const sessionId = (await page.textContent('#session-id')) ?? '';
    const offered = await page
      .locator('#samples button.sample')
      .evaluateAll((buttons) => buttons.map((button) => (button as unknown as { dataset: { sample: string } }).dataset.sample));
    expect(offered).toEqual([...sampleNames].sort().slice(0, 12));
    const dog = offered.find((name) => name.endsWith('dog_bicycle_car.jpg')) ?? offered[0] ?? '';
    await page.click(`#samples button[data-sample="${dog}"]`);
    await page.locator('.pending.ready').waitFor();
    // The sample is now an image of the session, stored like an upload (content-named, in media/uploads).
    expect(await uploadedPath(page, sessionId)).toMatch(new RegExp(`^\\./media/uploads/test-[0-9a-f]+/${sessionId}/[0-9a-f]{16}\\.(jpg|png|webp)$`));
    harness.mock.enqueue({ text: 'A dog.' });
    await page.fill('#message', 'What animal is this?');
    await page.click('#send');
    await page.locator('.bubble.answer', { hasText: 'A dog.' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('.bubble.answer').count()).toBe(1);
    expect(await page.locator('.bubble.user img').count()).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    const conversationTop = (await page.locator('#conversation').boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    const settingsTop = (await page.locator('aside.sidebar').boundingBox())?.y ?? 0;
    expect(conversationTop).toBeLessThan(settingsTop);
    await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: artifactPath('demo-samples-390.png'), fullPage: true });
    await page.close();
  });

  it('never sent the API key to the browser', () => {
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) expect(body).not.toContain(testApiKey);
  });
});
