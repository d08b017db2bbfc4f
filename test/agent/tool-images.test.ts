// What the model reads about tool images the harness does not show it: a tool's text alone
// would suggest it sees every image the tool made or named. Real PNGs made with sharp, real
// files in a temp folder; the notes, the images shown and the audit's drops must agree.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { withToolImages } from '../../src/agent/tool-images.js';
import type { ToolCallOutcome } from '../../src/mcp/types.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-tool-images-'));
const allowed = path.join(dir, 'allowed');
const outside = path.join(dir, 'outside');
const policy = { recodeOverKb: 512, maxEdge: 1568 };
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
  mkdirSync(allowed, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(allowed, 'kept.png'), png);
  writeFileSync(path.join(outside, 'elsewhere.png'), png);
});

const outcome = (fields: Partial<ToolCallOutcome>): ToolCallOutcome => ({
  canonicalName: 'image/tool',
  content: [],
  isError: false,
  text: '',
  durationMs: 1,
  ...fields,
});

describe('tool images the model is not shown are noted in the text it reads', () => {
  it('says how many inline images were left out over the per-call limit', async () => {
    const inline = Array.from({ length: 6 }, () => ({ type: 'image' as const, data: png.toString('base64'), mimeType: 'image/png' }));
    const seen = await withToolImages(outcome({ content: inline, text: 'six images' }), policy, [allowed], dir);
    expect(seen.images).toHaveLength(4);
    expect(seen.dropped.map((entry) => entry.reason)).toEqual(['over_per_call_limit', 'over_per_call_limit']);
    expect(seen.text).toBe('six images\n[image note] 2 of the 6 images are not shown: at most 4 per tool call');
  });

  it('names a file outside the allowed folders and a file that does not exist, as the tool gave them', async () => {
    const text = JSON.stringify({ images: ['allowed/kept.png', path.join(outside, 'elsewhere.png'), 'allowed/never-written.png'] });
    const seen = await withToolImages(outcome({ text }), policy, [allowed], dir);
    expect(seen.images).toHaveLength(1);
    expect(seen.dropped.map((entry) => entry.reason)).toEqual(['outside_allowed_roots', 'file_not_found']);
    expect(seen.text).toBe(
      `${text}\n[image note] ${path.join(outside, 'elsewhere.png')} is outside the folders images are shown from, so it is not shown; allowed/never-written.png does not exist, so it is not shown`,
    );
  });

  it('adds nothing when every image is shown', async () => {
    const seen = await withToolImages(outcome({ text: JSON.stringify({ output_path: 'allowed/kept.png' }) }), policy, [allowed], dir);
    expect(seen.images).toHaveLength(1);
    expect(seen.dropped).toEqual([]);
    expect(seen.text).toBe(JSON.stringify({ output_path: 'allowed/kept.png' }));
  });
});
