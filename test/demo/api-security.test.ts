// The demo's boundaries over real HTTP: same-origin and Host checks, static files only from
// public/ (no traversal), uploads typed by magic bytes and size-limited, images served only by
// their generated id, bounded JSON bodies, and no API key in anything the browser can fetch.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSwitches } from '../../src/config/switches.js';
import { startDemoServer } from '../../src/demo/index.js';
import { createLogger } from '../../src/log/logger.js';
import { pageHeaders, startDemoHarness, testApiKey, type DemoHarness } from './demo-harness.js';
import { rawRequest } from './raw-http.js';
import { repoRoot } from '../support/shared-assets.js';

let harness: DemoHarness;
const bodies: string[] = [];

async function request(options: Parameters<typeof rawRequest>[1]) {
  const response = await rawRequest(harness.url, options);
  bodies.push(response.text);
  return response;
}

async function createSession(): Promise<string> {
  const response = await request({ method: 'POST', path: '/api/sessions', headers: pageHeaders(harness.url, false) });
  expect(response.status).toBe(201);
  return response.json<{ id: string }>().id;
}

function upload(sessionId: string, body: Buffer) {
  return request({
    method: 'POST',
    path: `/api/sessions/${sessionId}/images`,
    headers: { ...pageHeaders(harness.url, false), 'content-type': 'application/octet-stream' },
    body,
  });
}

beforeAll(async () => {
  harness = await startDemoHarness({ inProcess: true, servers: ['math'], limits: { maxUploadBytes: 256 * 1024, maxJsonBytes: 8 * 1024 } });
});
afterAll(async () => {
  await harness?.close();
});

describe('demo server boundaries', () => {
  it('serves the page and its configuration with model ids only', async () => {
    const page = await request({ path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('<script type="module" src="/app.js">');
    for (const file of ['/app.js', '/app.css', '/timeline.js', '/schema-form.js']) expect((await request({ path: file })).status).toBe(200);
    const config = (await request({ path: '/api/config' })).json<{ models: unknown[]; servers: Array<{ name: string; state: string }> }>();
    expect(config.models).toEqual([{ id: 'openai:mock-model', available: true }]);
    expect(config.servers).toEqual([expect.objectContaining({ name: 'math', state: 'ready', toolCount: 22 })]);
    const tools = (await request({ path: '/api/tools' })).json<{ tools: Array<{ name: string; inputSchema: unknown }> }>();
    expect(tools.tools.find((tool) => tool.name === 'math/add')?.inputSchema).toMatchObject({ required: ['firstNumber', 'secondNumber'] });
  });

  it('refuses cross-origin state changes and foreign Host headers with 403', async () => {
    const origin = new URL(harness.url).origin;
    const crossOrigin = await request({ method: 'POST', path: '/api/sessions', headers: { origin: 'http://evil.example' } });
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.json()).toMatchObject({ error: { code: 'cross_origin' } });
    const crossSite = await request({ method: 'POST', path: '/api/sessions', headers: { origin, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const rebinding = await request({ path: '/api/config', headers: { host: `attacker.example:${harness.demo.port}` } });
    expect(rebinding.status).toBe(403);
    expect(rebinding.json()).toMatchObject({ error: { code: 'forbidden_host' } });
    const sameOrigin = await request({ method: 'POST', path: '/api/sessions', headers: { origin, 'sec-fetch-site': 'same-origin' } });
    expect(sameOrigin.status).toBe(201);
    const viaLocalhost = await request({ path: '/api/config', headers: { host: `localhost:${harness.demo.port}` } });
    expect(viaLocalhost.status).toBe(200);
  });

  it('serves static files only from public/, whatever the path encoding', async () => {
    const attempts = [
      '/..%2fpackage.json',
      '/..%2f..%2f..%2fpackage.json',
      '/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/%2e%2e%2f%2e%2e%2fpackage.json',
      '/../../../package.json',
      '/..\\..\\..\\package.json',
      '/..%5c..%5cpackage.json',
      '/http-kit.ts',
      '/%2e%2e/server.ts',
      '/public/../server.ts',
      '/app.js%00.png',
      '/app.js/..%2f..%2fserver.ts',
      '//etc/passwd',
      '/%252e%252e/package.json',
    ];
    const packageJson = readFileSync(path.join(repoRoot, 'package.json'), 'utf8');
    for (const attempt of attempts) {
      const response = await request({ path: attempt });
      expect(response.status, attempt).toBe(404);
      expect(response.text).not.toContain('"dependencies"');
      expect(response.text).not.toContain(packageJson.slice(0, 40));
      expect(response.text).not.toContain('import ');
    }
    expect((await request({ method: 'DELETE', path: '/app.js', headers: pageHeaders(harness.url) })).status).toBe(405);
  });

  it('types uploads by their bytes, names them by content, and serves them only by id', async () => {
    const sessionId = await createSession();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const stored = await upload(sessionId, png);
    expect(stored.status).toBe(201);
    const image = stored.json<{ id: string; path: string; url: string; mediaType: string; width: number }>();
    expect(image.id).toMatch(/^[0-9a-f]{16}\.png$/);
    expect(image).toMatchObject({ mediaType: 'image/png', width: 40, url: `/api/sessions/${sessionId}/images/${image.id}` });
    const relativeUploads = path.relative(repoRoot, harness.uploadsDir).split(path.sep).join('/');
    expect(image.path).toBe(`./${relativeUploads}/${sessionId}/${image.id}`);
    expect(readFileSync(path.join(harness.uploadsDir, sessionId, image.id)).equals(png)).toBe(true);
    const served = await request({ path: image.url });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.body.equals(png)).toBe(true);

    // A JPEG sent with a PNG content type is still a JPEG: the bytes decide.
    const jpeg = await sharp(png).jpeg().toBuffer();
    const typed = await request({
      method: 'POST',
      path: `/api/sessions/${sessionId}/images`,
      headers: { ...pageHeaders(harness.url, false), 'content-type': 'image/png' },
      body: jpeg,
    });
    expect(typed.json<{ id: string }>().id).toMatch(/\.jpg$/);

    const text = await upload(sessionId, Buffer.from('%PDF-1.4 this is not an image at all\n'));
    expect(text.status).toBe(415);
    expect(text.json()).toMatchObject({
      error: { code: 'not_an_image', message: expect.stringMatching(/not a supported image \(detected application\/pdf\)/) },
    });
    const oversized = await upload(sessionId, Buffer.concat([png, Buffer.alloc(300 * 1024, 7)]));
    expect(oversized.status).toBe(413);
    expect(oversized.json()).toMatchObject({ error: { code: 'too_large', message: expect.stringContaining('the limit is 256.0 KB') } });
    expect((await upload(sessionId, Buffer.alloc(0))).status).toBe(400);

    for (const attempt of [
      `/api/sessions/${sessionId}/images/..%2f..%2fpackage.json`,
      `/api/sessions/${sessionId}/images/0000000000000000.png`,
      `/api/sessions/${sessionId}/images/${image.id.toUpperCase()}`,
    ]) {
      expect((await request({ path: attempt })).status, attempt).toBe(404);
    }
    const otherSession = await createSession();
    expect((await request({ path: `/api/sessions/${otherSession}/images/${image.id}` })).status).toBe(404);
    expect(existsSync(path.join(harness.uploadsDir, otherSession))).toBe(false);
  });

  it('bounds JSON bodies, insists on application/json, and names the bad field', async () => {
    const sessionId = await createSession();
    const path_ = `/api/sessions/${sessionId}/messages`;
    const huge = await request({
      method: 'POST',
      path: path_,
      headers: pageHeaders(harness.url),
      body: JSON.stringify({ text: 'x'.repeat(10_000), model: 'openai:mock-model' }),
    });
    expect(huge.status).toBe(413);
    const form = await request({
      method: 'POST',
      path: path_,
      headers: { ...pageHeaders(harness.url, false), 'content-type': 'text/plain' },
      body: '{"text":"hi"}',
    });
    expect(form.status).toBe(415);
    const tooMany = await request({
      method: 'POST',
      path: path_,
      headers: pageHeaders(harness.url),
      body: JSON.stringify({ text: 'hi', model: 'openai:mock-model', imageIds: Array.from({ length: 7 }, (_, i) => `${i}`) }),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json()).toMatchObject({ error: { message: expect.stringContaining('imageIds: at most 6 images per message') } });
    const unknownModel = await request({
      method: 'POST',
      path: path_,
      headers: pageHeaders(harness.url),
      body: JSON.stringify({ text: 'hi', model: 'openai:other' }),
    });
    expect(unknownModel.json()).toMatchObject({ error: { code: 'no_model', message: 'unknown model "openai:other" (offered: openai:mock-model)' } });
    const unknownImage = await request({
      method: 'POST',
      path: path_,
      headers: pageHeaders(harness.url),
      body: JSON.stringify({ text: 'hi', model: 'openai:mock-model', imageIds: ['0123456789abcdef.png'] }),
    });
    expect(unknownImage.json()).toMatchObject({ error: { code: 'unknown_image' } });
    const missing = await request({ path: '/api/sessions/not-a-session-id/events' });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'unknown_session' } });
  });

  it('says which port is taken instead of failing with a bare EADDRINUSE', async () => {
    await expect(
      startDemoServer({
        toolHost: harness.host,
        models: { models: [] },
        switches: parseSwitches({}),
        port: harness.demo.port,
        root: repoRoot,
        logDir: harness.logDir,
        loopLimits: { maxStep: 1, maxConcurrent: 1, topTools: 0, maxNewTokens: 64 },
        logger: createLogger('silent'),
      }),
    ).rejects.toThrow(
      `demo: cannot listen on 127.0.0.1:${harness.demo.port}: port ${harness.demo.port} is already in use (pass --port <n>, or --port 0 for a free one)`,
    );
  });

  it('never sends the API key to the browser', () => {
    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) expect(body).not.toContain(testApiKey);
  });
});
