// Demo sessions are confined to their own workspace: a session that knows another session's
// image path cannot read, copy or overwrite it through a tool's file arguments (input_path,
// output_path), over real HTTP against the real demo server and the real imageops and OCR
// servers. Each session's own files keep working.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';
import { pageHeaders, startDemoHarness, type DemoHarness } from './demo-harness.js';

let harness: DemoHarness;

async function post(route: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${harness.url}${route.replace(/^\//, '')}`, { method: 'POST', headers: pageHeaders(harness.url), body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function newSession(): Promise<string> {
  return (await post('/api/sessions', {})).json.id as string;
}

async function upload(sessionId: string, color: string): Promise<{ id: string; path: string }> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: color } })
    .png()
    .toBuffer();
  const response = await fetch(`${harness.url}api/sessions/${sessionId}/images`, { method: 'POST', headers: pageHeaders(harness.url, false), body: png });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; path: string };
}

function call(sessionId: string, tool: string, args: Record<string, unknown>) {
  return post('/api/tools/call', { sessionId, tool, arguments: args });
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(async () => {
  harness = await startDemoHarness({ inProcess: true, servers: ['imagesorcery-mcp', 'ocr'] });
});
afterAll(async () => {
  await harness?.close();
});

describe('demo session confinement', () => {
  it("refuses another session's image as input or output, and keeps the session's own files working", async () => {
    const a = await newSession();
    const b = await newSession();
    const imageA = await upload(a, '#d04020');
    const imageB = await upload(b, '#2040d0');
    const fileA = path.resolve(repoRoot, imageA.path);
    const before = digest(fileA);
    const absoluteA = fileA;

    for (const given of [imageA.path, absoluteA]) {
      const read = await call(b, 'imagesorcery-mcp/grayscale', { input_path: given });
      expect(read.json.isError).toBe(true);
      expect(read.json.text).toMatch(/outside this session's workspace/);
      expect(read.json.images).toEqual([]);
      const ocr = await call(b, 'ocr/perform_ocr', { input_data: given });
      expect(ocr.json.isError).toBe(true);
      expect(ocr.json.text).toMatch(/outside this session's workspace/);

      const overwrite = await call(b, 'imagesorcery-mcp/grayscale', { input_path: imageB.path, output_path: given });
      expect(overwrite.json.isError).toBe(true);
      expect(overwrite.json.text).toMatch(/outside this session's workspace/);
      expect(digest(fileA)).toBe(before);
    }
    // A path that climbs out of B's workspace into A's is refused the same way.
    const climbing = `${path.posix.dirname(imageB.path)}/../${path.posix.basename(path.posix.dirname(imageA.path))}/${imageA.id}`;
    const climb = await call(b, 'imagesorcery-mcp/grayscale', { input_path: imageB.path, output_path: climbing });
    expect(climb.json.isError).toBe(true);
    expect(digest(fileA)).toBe(before);

    // B's own files: read, and written under a bare name or a path inside its workspace.
    const own = await call(b, 'imagesorcery-mcp/grayscale', { input_path: imageB.path, output_path: 'gray-b.png' });
    expect(own.json.isError).toBe(false);
    expect(own.json.images).toHaveLength(1);
    const inside = `${path.posix.dirname(imageB.path)}/gray-b2.png`;
    const ownInside = await call(b, 'imagesorcery-mcp/grayscale', { input_path: imageB.path, output_path: inside });
    expect(ownInside.json.isError).toBe(false);
    expect((await sharp(path.resolve(repoRoot, inside)).metadata()).channels).toBe(1);
    // A's session still uses its image.
    const ownA = await call(a, 'imagesorcery-mcp/grayscale', { input_path: imageA.path });
    expect(ownA.json.isError).toBe(false);
    expect(digest(fileA)).toBe(before);
  });

  it('keeps files outside media/ out of reach of a session', async () => {
    const b = await newSession();
    const outside = path.join(repoRoot, 'package.json');
    const read = await call(b, 'ocr/perform_ocr', { input_data: outside });
    expect(read.json.isError).toBe(true);
    expect(read.json.text).not.toContain('"name"');
  });
});
