// What the model reads about tool images the harness does not show it: a tool's text alone
// would suggest it sees every image the tool made or named. Real PNGs made with sharp, real
// files in a temp folder; the notes, the images shown and the audit's drops must agree.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { withToolImages } from '../../src/agent/tool-images.js';
import type { ToolCallOutcome } from '../../src/mcp/types.js';
import { repoRoot } from '../support/shared-assets.js';

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

describe('saved documents are the tool output, never images (issue 31 item 5)', () => {
  // Real documents committed in the repository: a deck the ppt server saved, a workbook the
  // excel server saved, a paper PDF of the fallback fixtures; and a CSV written here.
  const documents = {
    pptx: path.join(repoRoot, 'media', '00170005_recreated.pptx'),
    xlsx: path.join(repoRoot, 'media', 'amoxicillin_word_frequency.xlsx'),
    pdf: path.join(repoRoot, 'tools', 'mock_runtime', 'fixtures', 'paper_search', 'assets', '2509.02295v1.pdf'),
  };

  beforeAll(() => {
    for (const [extension, source] of Object.entries(documents)) copyFileSync(source, path.join(allowed, `saved.${extension}`));
    writeFileSync(path.join(allowed, 'saved.csv'), 'word,count\namoxicillin,12\n');
  });

  for (const [extension, key] of [
    ['pptx', 'file_path'],
    ['xlsx', 'output_path'],
    ['pdf', 'saved_path'],
    ['csv', 'file_path'],
  ] as const) {
    it(`a saved ${extension} under ${key} is not shown, not noted, not audited`, async () => {
      const text = JSON.stringify({ message: `saved to allowed/saved.${extension}`, [key]: `allowed/saved.${extension}` });
      const seen = await withToolImages(outcome({ canonicalName: 'ppt/save_presentation', text }), policy, [allowed], dir);
      expect(seen).toEqual({ text, images: [], dropped: [] });
    });
  }

  it('a document path that does not exist is not noted either; a missing .png still is', async () => {
    const missingDeck = JSON.stringify({ file_path: 'allowed/not-written.pptx' });
    expect((await withToolImages(outcome({ text: missingDeck }), policy, [allowed], dir)).text).toBe(missingDeck);
    const missingImage = JSON.stringify({ output_path: 'allowed/not-written.png' });
    const seen = await withToolImages(outcome({ text: missingImage }), policy, [allowed], dir);
    expect(seen.dropped.map((entry) => entry.reason)).toEqual(['file_not_found']);
    expect(seen.text).toBe(`${missingImage}\n[image note] allowed/not-written.png does not exist, so it is not shown`);
  });

  it('an image saved under a document-like name is still shown (its bytes decide)', async () => {
    writeFileSync(path.join(allowed, 'chart.out'), png);
    const seen = await withToolImages(outcome({ text: JSON.stringify({ output_path: 'allowed/chart.out' }) }), policy, [allowed], dir);
    expect(seen.images).toHaveLength(1);
  });
});
