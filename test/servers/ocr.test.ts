// The `ocr` server as a real child process over MCP stdio, with the real PP-OCRv4 models, on the
// shared OCR photos (compared with the manifest's reference text) and on images rendered here.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertAssetsInCi, loadSharedManifest, missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';
import { connectInProcess } from '../support/in-process-servers.js';

assertAssetsInCi();
const assets = sharedAssetsDir();
const workDir = mkdtempSync(path.join(tmpdir(), 'm3-ocr-test-'));

const ocrOutputSchema = z.object({
  text: z.string(),
  lines: z.array(z.object({ text: z.string(), confidence: z.number().min(0).max(1), box: z.array(z.tuple([z.number(), z.number()])) })),
  language: z.string(),
  engine: z.literal('ppocr-v4'),
  ignored_config: z.array(z.string()).optional(),
});
type OcrOutput = z.infer<typeof ocrOutputSchema>;

const manifestSchema = z.object({ files: z.array(z.object({ path: z.string(), text: z.string().optional() }).loose()) });

/** How each shared image is judged: character error rate against the full reference, or word recall
 * where the reference covers only part of the image (first stanza, one of two identical plates). */
const expectations: Record<string, { maxCer?: number; minRecall?: number; words: string[] }> = {
  'testocr.png': { maxCer: 0.03, words: ['quick brown dog', 'lazy fox', 'file format'] },
  'prose_text.png': { maxCer: 0.03, words: ['detestable', 'stock-companies', 'costliest robes'] },
  'scanned_page.png': { maxCer: 0.06, words: ['region-based segmentation', 'histogram of grey values', 'unambiguously'] },
  'hello_cosmic.png': { maxCer: 0.08, words: ['world', 'from beyond', 'the cosmic void'] },
  'copy_centre.jpg': { maxCer: 0.1, words: ['copy centre'] },
  'paris_signs.jpg': { maxCer: 0.15, words: ['mairie', 'louvre', 'les arts decoratifs', 'palais-royal'] },
  'sports_centre_sign.jpg': { maxCer: 0.12, words: ['sports centre', 'conference centre', 'car parks'] },
  'tyger_poem.jpg': { minRecall: 0.9, words: ['the tyger', 'burning bright', 'fearful symmetry'] },
  'no_parking_barrier.jpg': { minRecall: 1, words: ['no parking'] },
  'priory_galleries.jpg': { minRecall: 0.75, words: ['galleries', 'the ship'] },
  'chinese_street_sign.jpg': { minRecall: 0.85, words: ['愚园路', 'yuyuan rd', '315'] },
};

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function levenshtein(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

function characterErrorRate(got: string, reference: string): number {
  return levenshtein(normalise(got), normalise(reference)) / normalise(reference).length;
}

function wordRecall(got: string, reference: string): number {
  const words = normalise(reference)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const text = normalise(got);
  return words.filter((word) => text.includes(word)).length / words.length;
}

let client: Client;

async function callOcr(args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const result = await client.callTool({ name: 'perform_ocr', arguments: args });
  const content = z.array(z.object({ type: z.string(), text: z.string().optional() })).parse(result.content);
  return { isError: result.isError === true, text: content[0]?.text ?? '' };
}

async function readImage(args: Record<string, unknown>): Promise<OcrOutput> {
  const result = await callOcr(args);
  expect(result.isError, result.text).toBe(false);
  return ocrOutputSchema.parse(JSON.parse(result.text));
}

async function renderText(lines: string[], options: { transparent?: boolean } = {}): Promise<Buffer> {
  const rows = lines.map((line, index) => `<text x="30" y="${70 + index * 70}" font-family="DejaVu Sans, sans-serif" font-size="40">${line}</text>`);
  const background = options.transparent ? '' : '<rect width="100%" height="100%" fill="white"/>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="${60 + lines.length * 70}">${background}${rows.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe.skipIf(!assets)(assets ? 'ocr server over MCP (PP-OCRv4)' : `ocr server: ${missingAssetsMessage}`, () => {
  beforeAll(async () => {
    client = (await connectInProcess('ocr', { env: { M3_ALLOWED_ROOTS: [assets ?? '', workDir].join(path.delimiter) } })).client;
  });

  afterAll(async () => {
    await client?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('lists the reference tool names with the reference arguments', async () => {
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_supported_languages', 'perform_ocr']);
    const perform = tools.find((tool) => tool.name === 'perform_ocr');
    expect(Object.keys(perform?.inputSchema.properties ?? {}).sort()).toEqual(['config', 'input_data', 'language']);
    expect(perform?.inputSchema.required).toEqual(['input_data']);
  });

  const ocrDir = assets ? path.join(assets, 'images/ocr') : '';
  const images = assets ? readdirSync(ocrDir).sort() : [];
  const manifest = manifestSchema.parse(loadSharedManifest() ?? { files: [] });
  // OCR costs up to seconds per photo: each shared image is read once and the tests share it.
  const sharedOutputs = new Map<string, Promise<OcrOutput>>();
  const readShared = (name: string): Promise<OcrOutput> => {
    const existing = sharedOutputs.get(name);
    if (existing) return existing;
    const output = readImage({ input_data: path.join(ocrDir, name), language: 'eng', config: '--oem 3 --psm 6' });
    sharedOutputs.set(name, output);
    return output;
  };

  it.each(images)('reads %s close to the manifest text', async (name) => {
    const expected = expectations[name];
    if (!expected) throw new Error(`no expectation for shared OCR image ${name}: add one to this test`);
    const reference = manifest.files.find((file) => file.path === `images/ocr/${name}`)?.text;
    if (reference === undefined) throw new Error(`MANIFEST.json has no "text" for images/ocr/${name}`);
    const output = await readShared(name);
    expect(output.lines.length).toBeGreaterThan(0);
    expect(output.text).toBe(output.lines.map((line) => line.text).join('\n'));
    for (const line of output.lines) expect(line.box).toHaveLength(4);
    if (expected.maxCer !== undefined) expect(characterErrorRate(output.text, reference)).toBeLessThanOrEqual(expected.maxCer);
    if (expected.minRecall !== undefined) expect(wordRecall(output.text, reference)).toBeGreaterThanOrEqual(expected.minRecall);
    for (const word of expected.words) expect(normalise(output.text)).toContain(word);
  });

  it('puts line boxes in original image pixels, in reading order', async () => {
    const output = await readShared('testocr.png');
    const first = output.lines[0];
    expect(first?.text).toBe('This is a lot of 12 point text to test the');
    const tops = output.lines.map((line) => line.box[0]?.[1] ?? 0);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    for (const line of output.lines) {
      for (const [x, y] of line.box) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(640);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(480);
      }
    }
    // A strip with the first line, enlarged to 2560 px wide, is shrunk before detection; its boxes
    // must still come back in the strip's own pixels.
    const strip = path.join(workDir, 'testocr-strip-x4.png');
    await sharp(path.join(ocrDir, 'testocr.png')).extract({ left: 0, top: 60, width: 640, height: 80 }).resize({ width: 2560 }).toFile(strip);
    const enlarged = await readImage({ input_data: strip });
    expect(enlarged.lines[0]?.text).toBe(first?.text);
    const expected = (first?.box ?? []).flatMap(([x, y]) => [x * 4, (y - 60) * 4]);
    const actual = (enlarged.lines[0]?.box ?? []).flat();
    expect(actual).toHaveLength(expected.length);
    actual.forEach((value, index) => expect(Math.abs(value - (expected[index] ?? 0))).toBeLessThanOrEqual(24));
  });

  it('reads black text on a transparent background after flattening it onto white', async () => {
    const output = await readShared('hello_cosmic.png');
    expect(output.lines.map((line) => normalise(line.text))).toEqual(['hello world', 'from beyond', 'the cosmic void']);
    const generated = await renderText(['TRANSPARENT', 'BACKGROUND'], { transparent: true });
    const { channels } = await sharp(generated).stats();
    expect(channels[3]?.min).toBe(0); // the rendered image really is transparent
    const fromDataUrl = await readImage({ input_data: `data:image/png;base64,${generated.toString('base64')}` });
    expect(fromDataUrl.text).toBe('TRANSPARENT\nBACKGROUND');
  });

  it('reads back a text image rendered by the test, from a path, a file:// URI, a data URL and bare base64', async () => {
    const png = await renderText(['INVOICE 2026', 'TOTAL 42.50']);
    const file = path.join(workDir, 'invoice.png');
    writeFileSync(file, png);
    for (const input of [file, pathToFileURL(file).href, `data:image/png;base64,${png.toString('base64')}`, png.toString('base64')]) {
      const output = await readImage({ input_data: input });
      expect(output.text).toBe('INVOICE 2026\nTOTAL 42.50');
    }
  });

  it('applies the Tesseract-style config: single-line page mode and a character whitelist', async () => {
    const file = path.join(workDir, 'invoice-config.png');
    writeFileSync(file, await renderText(['INVOICE 2026', 'TOTAL 42.50']));
    const singleLine = await readImage({ input_data: file, config: '--oem 1 --psm 7' });
    expect(singleLine.text).toBe('INVOICE 2026 TOTAL 42.50');
    const digits = await readImage({ input_data: file, config: '--psm 6 -c tessedit_char_whitelist=0123456789. -c textord_debug=1' });
    expect(digits.text).toBe('2026\n42.50');
    expect(digits.ignored_config).toEqual(['-c textord_debug=1']);
    const unknown = await callOcr({ input_data: file, config: '--fast' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('unknown option "--fast"');
  });

  it('validates and echoes the language, and lists the supported ones', async () => {
    const chinese = await readImage({ input_data: path.join(ocrDir, 'chinese_street_sign.jpg'), language: 'chi_sim+eng' });
    expect(chinese.language).toBe('chi_sim+eng');
    expect(chinese.text).toContain('愚园路');
    const french = await callOcr({ input_data: path.join(ocrDir, 'paris_signs.jpg'), language: 'fra' });
    expect(french.isError).toBe(true);
    expect(french.text).toContain('language "fra" is not supported');
    expect(french.text).toContain('eng, chi_sim');
    const listed = await client.callTool({ name: 'get_supported_languages', arguments: {} });
    const content = z.array(z.object({ text: z.string() })).parse(listed.content);
    const languages = z.object({ languages: z.array(z.string()) }).parse(JSON.parse(content[0]?.text ?? '{}')).languages;
    expect(languages).toEqual(expect.arrayContaining(['eng', 'chi_sim']));
  });

  it('rejects non-images, paths outside the allowed folders and web URLs with clear messages', async () => {
    const fake = path.join(workDir, 'notes.png');
    writeFileSync(fake, 'this is plain text, not a PNG\n');
    const notImage = await callOcr({ input_data: fake });
    expect(notImage.isError).toBe(true);
    expect(notImage.text).toMatch(/notes\.png" is not a supported image/);
    const outside = await callOcr({ input_data: path.join(repoRoot, 'package.json') });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('outside the allowed folders');
    const web = await callOcr({ input_data: 'https://example.com/poster.png' });
    expect(web.isError).toBe(true);
    expect(web.text).toContain('does not download images');
    const missing = await callOcr({ input_data: path.join(workDir, 'absent.png') });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('ENOENT');
  });
});
