// The stand-in for a missing task image (`m3 run --placeholder-images`): a real PNG under the
// original file name whose visible text says what it is (read back by our OCR engine, the one
// the `ocr` server runs), the same bytes for the same name, and a clear label string.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { standInLabel, writeMissingImageStandIn } from '../../src/media/missing-image-stand-in.js';
import { recogniseLines } from '../../servers/ocr/engine.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-stand-in-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('missing-image stand-in', () => {
  it('writes a labelled PNG under the original name that OCR reads as PLACEHOLDER and the name', async () => {
    const file = await writeMissingImageStandIn('images/000400002.png', dir);
    expect(file).toBe(path.join(dir, '000400002.png'));
    const bytes = readFileSync(file);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 640, 480]);
    const text = (await recogniseLines(bytes)).map((line) => line.text).join('\n');
    expect(text).toContain('PLACEHOLDER');
    expect(text.replace(/\s/g, '')).toContain('000400002.png');
    expect(standInLabel('./images/00170009.png')).toBe('PLACEHOLDER — 00170009.png');
  }, 120_000);

  it('gives the same bytes for the same name and escapes names for the drawing', async () => {
    const first = readFileSync(await writeMissingImageStandIn('images/a<b>&.png', dir));
    const again = readFileSync(await writeMissingImageStandIn('./images/a<b>&.png', dir));
    expect(again.equals(first)).toBe(true);
    expect(readFileSync(await writeMissingImageStandIn('images/other.png', dir)).equals(first)).toBe(false);
  });
});
