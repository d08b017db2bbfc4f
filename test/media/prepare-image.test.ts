import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MediaError } from '../../src/errors/index.js';
import { loadImageFile } from '../../src/media/load-image.js';
import { prepareImage } from '../../src/media/prepare-image.js';

/** A noisy RGB image compresses badly, so its PNG is large: a realistic photo stand-in. */
async function noisyPng(width: number, height: number, alpha = false): Promise<Buffer> {
  const channels = alpha ? 4 : 3;
  const raw = Buffer.alloc(width * height * channels);
  let seed = 7;
  for (let i = 0; i < raw.length; i += 1) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    raw[i] = alpha && i % 4 === 3 ? (i % 8 === 3 ? 0 : 255) : (seed >> 16) & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels } }).png().toBuffer();
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('prepareImage', () => {
  it('passes small supported images through unchanged and records their facts', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const part = await prepareImage(png, 'small.png', { recodeOverKb: 512, maxEdge: 1568 });
    expect(part.mediaType).toBe('image/png');
    expect(Buffer.from(part.data, 'base64').equals(png)).toBe(true);
    expect(part.facts).toMatchObject({ width: 40, height: 30, originalBytes: png.length, sentBytes: png.length, originalMediaType: 'image/png' });
  });

  it('re-encodes large opaque images as JPEG and caps the longest edge', async () => {
    const png = await noisyPng(2000, 1000);
    expect(png.length).toBeGreaterThan(512 * 1024);
    const part = await prepareImage(png, 'big.png', { recodeOverKb: 512, maxEdge: 800 });
    const sent = Buffer.from(part.data, 'base64');
    const metadata = await sharp(sent).metadata();
    expect(part.mediaType).toBe('image/jpeg');
    expect(metadata.format).toBe('jpeg');
    expect(Math.max(metadata.width ?? 0, metadata.height ?? 0)).toBe(800);
    expect(part.facts).toMatchObject({ width: 800, height: 400, originalBytes: png.length, sentBytes: sent.length });
    expect(sent.length).toBeLessThan(png.length);
  });

  it('keeps PNG when transparency matters', async () => {
    const png = await noisyPng(600, 600, true);
    const part = await prepareImage(png, 'alpha.png', { recodeOverKb: 64, maxEdge: 300 });
    expect(part.mediaType).toBe('image/png');
    const metadata = await sharp(Buffer.from(part.data, 'base64')).metadata();
    expect(metadata.hasAlpha).toBe(true);
    expect(metadata.width).toBe(300);
  });

  it('converts formats vendors do not take (TIFF) even when small', async () => {
    const tiff = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
      .tiff()
      .toBuffer();
    const part = await prepareImage(tiff, 'scan.tif', { recodeOverKb: 512, maxEdge: 1568 });
    expect(part.mediaType).toBe('image/jpeg');
  });

  it('types by magic bytes, not by file name, and never modifies the file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-media-'));
    const file = path.join(dir, 'photo.txt');
    const jpeg = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#00aa00' } })
      .jpeg()
      .toBuffer();
    writeFileSync(file, jpeg);
    const before = sha(readFileSync(file));
    const part = await loadImageFile(file, { recodeOverKb: 0, maxEdge: 1000 });
    expect(part.mediaType).toBe('image/jpeg');
    expect(part.facts?.width).toBe(1000);
    expect(sha(readFileSync(file))).toBe(before);
  });

  it('rejects non-images and corrupt images with a clear error', async () => {
    await expect(prepareImage(Buffer.from('hello, not an image'), 'notes.png', { recodeOverKb: 0, maxEdge: 0 })).rejects.toThrowError(
      new MediaError('notes.png: not an image (unrecognised bytes)'),
    );
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const truncated = png.subarray(0, 40);
    await expect(prepareImage(truncated, 'cut.png', { recodeOverKb: 0, maxEdge: 10 })).rejects.toThrow(/cut\.png: (corrupt|could not re-encode)/);
    await expect(loadImageFile('/definitely/missing.png', { recodeOverKb: 0, maxEdge: 0 })).rejects.toThrow('image file not found: /definitely/missing.png');
  });
});
