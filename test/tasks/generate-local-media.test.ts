// tools/generate-local-media.ts: deterministic output (two runs into temp folders give the same
// bytes), and the committed media/local/ images are exactly what the generator draws, each
// listed in media/local/MANIFEST.json with its sha256, size, generator and licence.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ean13, generateLocalMedia, generatorName, mediaLicense, mediaSpecs, type ManifestEntry } from '../../tools/generate-local-media.js';
import { repoRoot } from '../support/shared-assets.js';

const committedDir = path.join(repoRoot, 'media', 'local');
const first = mkdtempSync(path.join(tmpdir(), 'm3-local-media-a-'));
const second = mkdtempSync(path.join(tmpdir(), 'm3-local-media-b-'));
let entries: ManifestEntry[] = [];

const manifestSchema = z.object({
  generator: z.literal(generatorName),
  license: z.string(),
  files: z.array(
    z
      .object({
        name: z.string(),
        path: z.string(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        bytes: z.number().int().positive(),
        width: z.number().int().positive(),
        height: z.number().int().positive(),
        generator: z.literal(generatorName),
        license: z.literal(mediaLicense),
        description: z.string().min(10),
      })
      .loose(),
  ),
});

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

beforeAll(async () => {
  entries = await generateLocalMedia(first);
  await generateLocalMedia(second);
}, 120_000);

afterAll(() => {
  rmSync(first, { recursive: true, force: true });
  rmSync(second, { recursive: true, force: true });
});

describe('generate-local-media', () => {
  it('writes the same bytes on every run', () => {
    const files = readdirSync(first).sort();
    expect(files).toEqual(readdirSync(second).sort());
    expect(files).toContain('MANIFEST.json');
    expect(files.filter((file) => file.endsWith('.png'))).toHaveLength(mediaSpecs.length);
    for (const file of files) expect(sha256(path.join(second, file)), file).toBe(sha256(path.join(first, file)));
  });

  it('records real sizes and hashes, and draws opaque PNGs', async () => {
    for (const entry of entries) {
      const file = path.join(first, entry.name);
      const metadata = await sharp(file).metadata();
      expect(metadata.format, entry.name).toBe('png');
      expect([metadata.width, metadata.height, metadata.hasAlpha], entry.name).toEqual([entry.width, entry.height, false]);
      expect(entry.sha256).toBe(sha256(file));
      expect(entry.bytes).toBe(readFileSync(file).length);
    }
  });

  it('matches the committed media/local folder and its manifest byte for byte', () => {
    // A machine with other fonts or another libvips draws different pixels: regenerate there with
    // `npx tsx tools/generate-local-media.ts` and re-run `m3 tasks verify` before committing.
    const manifest = manifestSchema.parse(JSON.parse(readFileSync(path.join(committedDir, 'MANIFEST.json'), 'utf8')));
    const committedImages = readdirSync(committedDir)
      .filter((file) => file !== 'MANIFEST.json')
      .sort();
    expect(committedImages).toEqual(manifest.files.map((file) => file.name).sort());
    for (const file of manifest.files) {
      expect(file.path).toBe(`media/local/${file.name}`);
      expect(sha256(path.join(committedDir, file.name)), file.name).toBe(file.sha256);
    }
    expect(readFileSync(path.join(committedDir, 'MANIFEST.json'), 'utf8')).toBe(readFileSync(path.join(first, 'MANIFEST.json'), 'utf8'));
  });

  it('prints valid EAN-13 numbers on the product labels', () => {
    expect(ean13('400638133393')).toBe('4006381333931');
    expect(ean13('590123412345')).toBe('5901234123457');
    expect(ean13('978030640615')).toBe('9780306406157');
    const codes = entries.flatMap((entry) => entry.content.codes ?? []).filter((code) => code.format === 'EAN13');
    expect(codes.map((code) => code.text)).toEqual(['4006381333931', '5901234123457', '9780306406157']);
  });
});
