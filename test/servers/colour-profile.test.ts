// Which embedded ICC profiles the detector may leave unconverted: the profiles of the shared
// photos (sRGB IEC61966-2.1, Adobe RGB (1998), a grey dot-gain profile) and profiles built here
// tag by tag (sRGB as a parametric curve, Display P3, gamma 2.2, with lookup tables, broken).
// What matters is the claim behind "sRGB in all but name": sharp's conversion of an image with
// such a profile changes no 8-bit value by more than one level, and it does for the others.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isSrgbEquivalentProfile } from '../../servers/shared/colour-profile.js';
import { assertAssetsInCi, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';

assertAssetsInCi();
const assets = sharedAssetsDir();
const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-icc-'));

const fixed = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(Math.round(value * 65536));
  return bytes;
};
const xyz = (values: readonly number[]) => Buffer.concat([Buffer.from('XYZ \0\0\0\0', 'latin1'), ...values.map(fixed)]);
const parametric = (kind: number, values: readonly number[]) => {
  const head = Buffer.alloc(12);
  head.write('para', 0, 'latin1');
  head.writeUInt16BE(kind, 8);
  return Buffer.concat([head, ...values.map(fixed)]);
};
const gammaCurve = (gamma: number) => {
  const bytes = Buffer.alloc(14);
  bytes.write('curv', 0, 'latin1');
  bytes.writeUInt32BE(1, 8);
  bytes.writeUInt16BE(Math.round(gamma * 256), 12);
  return bytes;
};
/** sRGB's decoding sampled at `count` points, as a curveType table. */
const tableCurve = (count: number) => {
  const bytes = Buffer.alloc(12 + 2 * count);
  bytes.write('curv', 0, 'latin1');
  bytes.writeUInt32BE(count, 8);
  for (let index = 0; index < count; index += 1) {
    const x = index / (count - 1);
    bytes.writeUInt16BE(Math.round(65535 * (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4)), 12 + 2 * index);
  }
  return bytes;
};
const text = (value: string) => Buffer.concat([Buffer.from('text\0\0\0\0', 'latin1'), Buffer.from(`${value}\0`, 'latin1')]);

/** A v2 display RGB profile made of the given tags (each padded to 4 bytes, as the format asks). */
function profile(tags: Record<string, Buffer>): Buffer {
  const entries = Object.entries(tags);
  let offset = 128 + 4 + 12 * entries.length;
  const table = Buffer.alloc(4 + 12 * entries.length);
  table.writeUInt32BE(entries.length, 0);
  const bodies: Buffer[] = [];
  entries.forEach(([name, body], index) => {
    const padded = Buffer.concat([body, Buffer.alloc((4 - (body.length % 4)) % 4)]);
    table.write(name, 4 + 12 * index, 'latin1');
    table.writeUInt32BE(offset, 8 + 12 * index);
    table.writeUInt32BE(body.length, 12 + 12 * index);
    bodies.push(padded);
    offset += padded.length;
  });
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  header.writeUInt32BE(0x02100000, 8);
  header.write('mntrRGB XYZ ', 12, 'latin1');
  header.write('acsp', 36, 'latin1');
  Buffer.concat([fixed(0.9642), fixed(1), fixed(0.8249)]).copy(header, 68);
  return Buffer.concat([header, table, ...bodies]);
}

const srgbCurve = parametric(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]);
const matrix = (r: number[], g: number[], b: number[]) => ({ rXYZ: xyz(r), gXYZ: xyz(g), bXYZ: xyz(b) });
const srgbMatrix = matrix([0.43607, 0.22249, 0.01392], [0.38515, 0.71687, 0.09708], [0.14307, 0.06061, 0.7141]);
const p3Matrix = matrix([0.51512, 0.24119, -0.00105], [0.29198, 0.69225, 0.04189], [0.1571, 0.06657, 0.78407]);
const common = { desc: text('built by the test'), wtpt: xyz([0.9642, 1, 0.8249]) };
const curves = (curve: Buffer) => ({ rTRC: curve, gTRC: curve, bTRC: curve });

const built = {
  'sRGB, parametric curves': profile({ ...common, ...srgbMatrix, ...curves(srgbCurve) }),
  'sRGB, 1024-entry curve tables': profile({ ...common, ...srgbMatrix, ...curves(tableCurve(1024)) }),
  'Display P3 primaries, sRGB curves': profile({ ...common, ...p3Matrix, ...curves(srgbCurve) }),
  'sRGB primaries, gamma 2.2': profile({ ...common, ...srgbMatrix, ...curves(gammaCurve(2.2)) }),
  'sRGB, plus an A2B0 lookup table': profile({ ...common, ...srgbMatrix, ...curves(srgbCurve), A2B0: Buffer.from('mft2\0\0\0\0\x03\x03\x02\0', 'latin1') }),
};

/** The largest change sharp's conversion to sRGB makes to any 8-bit value of `image`. */
async function conversionChange(image: Buffer): Promise<number> {
  const raw = (ignoreIcc: boolean) => sharp(image, { ignoreIcc }).toColourspace('srgb').removeAlpha().raw().toBuffer();
  const [converted, asStored] = [await raw(false), await raw(true)];
  let largest = 0;
  for (let index = 0; index < converted.length; index += 1) largest = Math.max(largest, Math.abs((converted[index] ?? 0) - (asStored[index] ?? 0)));
  return largest;
}

/** A colourful gradient JPEG carrying `icc` (sharp embeds a profile given as a file). */
async function taggedJpeg(name: string, icc: Buffer): Promise<Buffer> {
  const file = path.join(dir, `${name.replace(/\W+/g, '-')}.icc`);
  writeFileSync(file, icc);
  const [width, height] = [64, 48];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) pixels.set([(x * 4) % 256, (y * 5) % 256, ((x + y) * 3) % 256], (y * width + x) * 3);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .withIccProfile(file)
    .jpeg({ quality: 95 })
    .toBuffer();
}

describe('profiles built tag by tag', () => {
  it('takes sRGB as parametric curves or tables, and refuses other primaries, other curves and lookup tables', () => {
    expect(Object.fromEntries(Object.entries(built).map(([name, icc]) => [name, isSrgbEquivalentProfile(icc)]))).toEqual({
      'sRGB, parametric curves': true,
      'sRGB, 1024-entry curve tables': true,
      'Display P3 primaries, sRGB curves': false,
      'sRGB primaries, gamma 2.2': false,
      'sRGB, plus an A2B0 lookup table': false,
    });
  });

  it('refuses what cannot be read: truncated, a missing curve, not a profile, grey', () => {
    const srgb = built['sRGB, parametric curves'];
    expect(isSrgbEquivalentProfile(srgb.subarray(0, 200))).toBe(false);
    expect(isSrgbEquivalentProfile(profile({ ...common, ...srgbMatrix, rTRC: srgbCurve, gTRC: srgbCurve }))).toBe(false);
    expect(isSrgbEquivalentProfile(Buffer.from('not an ICC profile at all, just some text of some length'.repeat(4)))).toBe(false);
    const grey = Buffer.from(srgb);
    grey.write('GRAY', 16, 'latin1');
    expect(isSrgbEquivalentProfile(grey)).toBe(false);
  });

  it("matches what sharp's conversion does: one level at most where it says sRGB, more elsewhere", async () => {
    for (const [name, icc] of Object.entries(built)) {
      if (name.includes('lookup table')) continue; // not a valid LUT: sharp could not convert with it
      const change = await conversionChange(await taggedJpeg(name, icc));
      if (isSrgbEquivalentProfile(icc)) expect(change, name).toBeLessThanOrEqual(1);
      else expect(change, name).toBeGreaterThan(3);
    }
  });
});

describe.skipIf(!assets)(`the shared photos' profiles${assets ? '' : ` (skipped: ${missingAssetsMessage})`}`, () => {
  const photo = (name: string) => readFileSync(path.join(assets ?? '', 'images', name));
  const cases: Array<[string, boolean]> = [
    ['detection/dog_bicycle_car.jpg', true], // sRGB IEC61966-2.1 (HP, 1024-entry curves)
    ['detection/astronaut.png', true],
    ['detection/ship_deck_crew.jpg', false], // Adobe RGB (1998)
    ['ocr/scanned_page.png', false], // grey, Dot Gain 20%
  ];
  for (const [name, srgb] of cases) {
    it(`${name}: ${srgb ? 'sRGB, and converting it changes no pixel' : 'not sRGB, and converting it changes pixels'}`, async () => {
      const bytes = photo(name);
      const { icc } = await sharp(bytes).metadata();
      expect(icc).toBeDefined();
      expect(isSrgbEquivalentProfile(icc as Buffer)).toBe(srgb);
      const change = await conversionChange(bytes);
      if (srgb) expect(change).toBe(0);
      else expect(change).toBeGreaterThan(3);
    });
  }
});
