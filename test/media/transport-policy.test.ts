// The transport image policy on real assets and generated images: only types each endpoint
// takes, transparency kept where it shows, the vendor's size limits respected, and the reference
// rule (no destination) byte for byte what it sent before the policy existed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageDestinationFor } from '../../src/llm/image-destination.js';
import { knownProviders } from '../../src/llm/provider-table.js';
import { classOf, imageStatistics } from '../../src/media/image-class.js';
import { genericDestination, type ImageDestination } from '../../src/media/image-destination.js';
import { detectMediaType, prepareImage } from '../../src/media/prepare-image.js';
import { hasAtMostColours } from '../../src/media/transport-policy.js';
import { anthropicSeenSize, openaiSeenSize } from '../../src/media/vision-tokens.js';
import { assertAssetsInCi, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';

assertAssetsInCi();
const assets = sharedAssetsDir();
const asset = (name: string): Buffer => readFileSync(path.join(assets ?? '', 'images', name));
const reference = { recodeOverKb: 512, maxEdge: 1568 };

/** Every distinct destination of the providers that take images (text-only presets get placeholders). */
function destinations(): Array<[string, ImageDestination]> {
  const seen = new Map<string, [string, ImageDestination]>();
  for (const provider of knownProviders.filter((name) => name !== 'replay')) {
    const destination = imageDestinationFor(`${provider}:some-model`);
    const key = `${destination.vendor}|${destination.accepts.join(',')}`;
    if (!seen.has(key)) seen.set(key, [provider, destination]);
  }
  seen.set('generic', ['(no model)', genericDestination]);
  return [...seen.values()];
}

/** A 24-bit bottom-up BMP, written by hand: sharp reads BMP but cannot write it. */
function bmp(width: number, height: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + row * height);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(row * height, 34);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) file.writeUIntLE((((x * 4) & 0xff) << 16) | (((y * 5) & 0xff) << 8) | 0x40, 54 + y * row + x * 3, 3);
  return file;
}

/** 300 x 200, left half opaque red, right half fully transparent. */
async function halfTransparentPng(): Promise<Buffer> {
  const pixels = Buffer.alloc(300 * 200 * 4);
  for (let y = 0; y < 200; y += 1) for (let x = 0; x < 150; x += 1) pixels.set([220, 20, 20, 255], (y * 300 + x) * 4);
  return sharp(pixels, { raw: { width: 300, height: 200, channels: 4 } })
    .png()
    .toBuffer();
}

async function generated(): Promise<Array<[string, Buffer]>> {
  const gradient = sharp({ create: { width: 640, height: 400, channels: 3, background: '#3060a0' } }).composite([
    { input: Buffer.from('<svg width="640" height="400"><text x="20" y="200" font-size="48">Chart 2026</text></svg>'), top: 0, left: 0 },
  ]);
  const photo = await sharp(asset('detection/eagle.jpg')).toBuffer();
  return [
    ['rgba.png', await halfTransparentPng()],
    ['chart.gif', await gradient.clone().gif().toBuffer()],
    ['photo.webp', await sharp(photo).webp({ quality: 90 }).toBuffer()],
    ['ramp.bmp', bmp(64, 48)],
  ];
}

const realAssets = [
  'detection/eagle.jpg',
  'detection/astronaut.png',
  'ocr/testocr.png',
  'ocr/hello_cosmic.png',
  'barcode/pdf417_photo.png',
  'barcode/code39_screenshot.png',
];

describe.skipIf(!assets)(`transport image policy${assets ? '' : ` (${missingAssetsMessage})`}`, () => {
  it('emits only media types each endpoint takes, for real assets and RGBA PNG, GIF, BMP and WebP input', { timeout: 600_000 }, async () => {
    const inputs: Array<[string, Buffer]> = [...realAssets.map((name): [string, Buffer] => [name, asset(name)]), ...(await generated())];
    for (const [provider, destination] of destinations()) {
      for (const [name, bytes] of inputs) {
        const part = await prepareImage(bytes, name, { ...reference, transport: destination });
        const sent = Buffer.from(part.data, 'base64');
        expect(destination.accepts, `${name} for ${provider}`).toContain(part.mediaType);
        expect(await detectMediaType(sent), `${name} for ${provider}: payload bytes`).toBe(part.mediaType);
        expect(part.facts?.sentBytes).toBe(sent.length);
      }
    }
  });

  it('keeps transparency that shows, and the alpha of each pixel, for every endpoint', { timeout: 300_000 }, async () => {
    const inputs = [await halfTransparentPng(), asset('ocr/hello_cosmic.png')];
    for (const [provider, destination] of destinations()) {
      for (const bytes of inputs) {
        const part = await prepareImage(bytes, 'alpha', { ...reference, transport: destination });
        expect(['image/png', 'image/webp'], provider).toContain(part.mediaType);
        const sent = Buffer.from(part.data, 'base64');
        expect((await sharp(sent).stats()).isOpaque, provider).toBe(false);
        const { data, info } = await sharp(sent).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        const original = await sharp(bytes).resize(info.width, info.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
        const alphaOf = (buffer: Buffer) => buffer.filter((_, index) => index % 4 === 3);
        const originalAlpha = alphaOf(original);
        const differing = alphaOf(data).filter((value, index) => Math.abs(value - (originalAlpha[index] ?? 0)) > 8).length;
        expect(differing / (info.width * info.height), provider).toBeLessThan(0.02);
      }
    }
  });

  it('sends photos lossy and screenshots exactly, within the vendor limits', async () => {
    const openai = imageDestinationFor('openai:gpt-4o');
    const anthropic = imageDestinationFor('anthropic:claude-sonnet-4-5');
    const photo = await prepareImage(asset('detection/classic_cars.jpg'), 'cars', { ...reference, transport: openai });
    expect(photo.mediaType).toBe('image/webp');
    const seen = openaiSeenSize({ width: 2250, height: 1500 });
    expect(photo.facts?.width).toBeLessThanOrEqual(seen.width);
    expect(photo.facts?.height).toBeLessThanOrEqual(seen.height);
    const big = await prepareImage(asset('ocr/tyger_poem.jpg'), 'tyger', { ...reference, transport: anthropic });
    const limit = anthropicSeenSize({ width: 922, height: 1764 });
    expect((big.facts?.width ?? 0) * (big.facts?.height ?? 0)).toBeLessThanOrEqual(limit.width * limit.height + 4000);
    const screenshot = asset('ocr/testocr.png');
    const exact = await prepareImage(screenshot, 'testocr', { ...reference, transport: anthropic });
    const [sent, original] = await Promise.all([
      sharp(Buffer.from(exact.data, 'base64')).removeAlpha().raw().toBuffer(),
      sharp(screenshot).removeAlpha().raw().toBuffer(),
    ]);
    expect(sent.equals(original)).toBe(true);
  });

  it('classifies by colour statistics: camera photos as photo, rendered text and codes as graphic', async () => {
    for (const name of ['detection/beach_kites.jpg', 'detection/cyclists.jpg', 'barcode/ean13_can.png', 'ocr/paris_signs.jpg']) {
      expect(classOf(await imageStatistics(asset(name))), name).toBe('photo');
    }
    for (const name of ['ocr/testocr.png', 'ocr/prose_text.png', 'barcode/qr_simple.png', 'barcode/code39_screenshot.png']) {
      expect(classOf(await imageStatistics(asset(name))), name).toBe('graphic');
    }
  });

  it('tries the palette PNG only where it can be exact, and still sends it where it is the smallest', async () => {
    // 256 distinct RGB colours fit a palette, 257 do not; with 4 channels alpha makes a colour too.
    const ramp = (count: number) => Uint8Array.from({ length: count * 3 }, (_, index) => [(index / 3) >> 8, (index / 3) & 255, 0][index % 3] ?? 0);
    expect(hasAtMostColours(ramp(256), 3, 256)).toBe(true);
    expect(hasAtMostColours(ramp(257), 3, 256)).toBe(false);
    expect(hasAtMostColours(Uint8Array.from([9, 9, 9, 255, 9, 9, 9, 0]), 4, 1)).toBe(false);
    // Four flat colours in a deliberately uncompressed RGB PNG: the palette PNG wins, exactly.
    const quads = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#204080' } })
      .composite([
        { input: { create: { width: 200, height: 150, channels: 3, background: '#e0c020' } }, top: 0, left: 0 },
        { input: { create: { width: 200, height: 150, channels: 3, background: '#10a050' } }, top: 150, left: 200 },
        { input: { create: { width: 100, height: 100, channels: 3, background: '#ffffff' } }, top: 100, left: 150 },
      ])
      .png({ compressionLevel: 0 })
      .toBuffer();
    const sent = await prepareImage(quads, 'quads', { ...reference, transport: genericDestination });
    const bytes = Buffer.from(sent.data, 'base64');
    expect(sent.mediaType).toBe('image/png');
    expect(bytes[25]).toBe(3); // the IHDR colour type of an indexed (palette) PNG
    const [exact, original] = await Promise.all([sharp(bytes).removeAlpha().raw().toBuffer(), sharp(quads).removeAlpha().raw().toBuffer()]);
    expect(exact.equals(original)).toBe(true);
  });

  it('M3_IMAGE_POLICY=reference sends byte for byte what the reference rule sent before', async () => {
    // SHA-256 of the payloads the previous prepare-image.ts produced (sharp 0.33.5).
    const expected = [
      ['detection/beach_kites.jpg', 'image/jpeg', 'c97b07f9bd09b9b8bd1e828ac02c255a149d51b25daadfa913929f19787e84bb'],
      ['detection/astronaut.png', 'image/jpeg', 'bed0e2b7fda2f25f503c9ae129b9eb5a7d9c51eb953073e19562c6fe21eb4eed'],
      ['detection/classic_cars.jpg', 'image/jpeg', '0714a5cc3c6324237f1ced0b6f28d7f68f8acd242afbdbdb8628e856a390498a'],
      ['barcode/pdf417_photo.png', 'image/png', 'b036c6b9d6c1d36cc44651975004226fb16b5d1bdded83d6461ef473b3c978f1'],
      ['ocr/tyger_poem.jpg', 'image/jpeg', '1028ddc9365b942ddd84d2e9b01f5cbb9b8e96cd3f6564f4d4a46fac97ae8a19'],
    ];
    for (const [name, mediaType, digest] of expected) {
      const part = await prepareImage(asset(name ?? ''), name ?? '', reference);
      expect(part.mediaType, name).toBe(mediaType);
      expect(createHash('sha256').update(Buffer.from(part.data, 'base64')).digest('hex'), name).toBe(digest);
    }
  });
});
