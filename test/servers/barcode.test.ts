// The `pyzbar-mcp` server as a real child process over MCP stdio: the shared barcode photos decode
// to the manifest payloads, every named format survives generate → scan, and per-image errors
// are reported next to the codes of the images that worked.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertAssetsInCi, loadSharedManifest, missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';
import { connectInProcess } from '../support/in-process-servers.js';

assertAssetsInCi();
const assets = sharedAssetsDir();
const workDir = mkdtempSync(path.join(tmpdir(), 'm3-barcode-test-'));

const pointSchema = z.object({ x: z.number(), y: z.number() });
const scanSchema = z.object({
  results: z.array(
    z.object({
      path: z.string(),
      codes: z.array(
        z.object({
          format: z.string(),
          text: z.string(),
          position: z.object({ topLeft: pointSchema, topRight: pointSchema, bottomRight: pointSchema, bottomLeft: pointSchema }),
          ean13: z.string().optional(),
        }),
      ),
      error: z.string().optional(),
    }),
  ),
});
type ScanOutput = z.infer<typeof scanSchema>;
const generatedSchema = z.object({ path: z.string(), format: z.string(), text: z.string(), width: z.number(), height: z.number() });
const contentSchema = z.array(z.object({ type: z.string(), text: z.string().optional(), data: z.string().optional(), mimeType: z.string().optional() }));
const manifestSchema = z.object({
  files: z.array(z.object({ path: z.string(), payload: z.union([z.string(), z.array(z.string())]).optional() }).loose()),
});

/** Every format the brief names, with content valid for it and what a scan must report back. */
const roundTrips: Array<{ format: string; text: string; expectFormat: string; expectText?: string }> = [
  { format: 'QRCode', text: 'https://example.org/m3bench?q=ocr&n=42', expectFormat: 'QRCode' },
  { format: 'EAN-13', text: '590123412345', expectFormat: 'EAN13', expectText: '5901234123457' },
  { format: 'EAN8', text: '96385074', expectFormat: 'EAN8' },
  { format: 'UPC-A', text: '036000291452', expectFormat: 'UPCA' },
  { format: 'UPCE', text: '01234565', expectFormat: 'UPCE' },
  { format: 'Code 128', text: 'Rana temporaria 128', expectFormat: 'Code128' },
  { format: 'code39', text: 'M3 BENCH-39', expectFormat: 'Code39' },
  { format: 'Code93', text: 'CODE93 TEST', expectFormat: 'Code93' },
  { format: 'ITF', text: '30712345000010', expectFormat: 'ITF' },
  { format: 'Codabar', text: 'A40156B', expectFormat: 'Codabar' },
  { format: 'Data Matrix', text: 'DataMatrix: 2026-11-29 lot 7', expectFormat: 'DataMatrix' },
  { format: 'PDF417', text: 'PDF417 round trip 1234567890', expectFormat: 'PDF417' },
  { format: 'Aztec', text: 'Aztec code, round trip', expectFormat: 'Aztec' },
];

let client: Client;

async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; content: z.infer<typeof contentSchema> }> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, content: contentSchema.parse(result.content) };
}

async function scan(args: Record<string, unknown>): Promise<ScanOutput> {
  const result = await call('scan_barcode', args);
  expect(result.isError, result.content[0]?.text).toBe(false);
  return scanSchema.parse(JSON.parse(result.content[0]?.text ?? '{}'));
}

async function generate(args: Record<string, unknown>): Promise<{ summary: z.infer<typeof generatedSchema>; png: Buffer }> {
  const result = await call('generate_barcode', args);
  expect(result.isError, result.content[0]?.text).toBe(false);
  const image = result.content.find((part) => part.type === 'image');
  expect(image?.mimeType).toBe('image/png');
  return { summary: generatedSchema.parse(JSON.parse(result.content[0]?.text ?? '{}')), png: Buffer.from(image?.data ?? '', 'base64') };
}

describe.skipIf(!assets)(assets ? 'barcode server over MCP (zxing-wasm, bwip-js, qrcode)' : `barcode server: ${missingAssetsMessage}`, () => {
  beforeAll(async () => {
    client = (await connectInProcess('pyzbar-mcp', { env: { M3_ALLOWED_ROOTS: [assets ?? '', workDir].join(path.delimiter) } })).client;
  });

  afterAll(async () => {
    await client?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('lists scan_barcode with the reference argument and generate_barcode', async () => {
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(['generate_barcode', 'scan_barcode']);
    expect(tools.find((tool) => tool.name === 'scan_barcode')?.inputSchema.required).toEqual(['image_paths']);
  });

  const barcodeDir = assets ? path.join(assets, 'images/barcode') : '';
  const images = assets ? readdirSync(barcodeDir).sort() : [];
  const manifest = manifestSchema.parse(loadSharedManifest() ?? { files: [] });

  it.each(images)('decodes %s to the manifest payload', async (name) => {
    const payload = manifest.files.find((file) => file.path === `images/barcode/${name}`)?.payload;
    if (payload === undefined) throw new Error(`MANIFEST.json has no "payload" for images/barcode/${name}`);
    const output = await scan({ image_paths: path.join(barcodeDir, name) });
    expect(output.results).toHaveLength(1);
    const texts = output.results[0]?.codes.map((code) => code.text).sort();
    expect(texts).toEqual((Array.isArray(payload) ? payload : [payload]).slice().sort());
  });

  it.each(roundTrips)('generates $format and scans it back', async ({ format, text, expectFormat, expectText }) => {
    const output = path.join(workDir, `${expectFormat.toLowerCase()}.png`);
    const { summary, png } = await generate({ format, text, output_path: output, scale: 3 });
    expect(summary.format).toBe(expectFormat);
    expect(readFileSync(output).equals(png)).toBe(true);
    const metadata = await sharp(png).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', summary.width, summary.height]);
    const scanned = await scan({ image_paths: [summary.path] });
    expect(scanned.results[0]?.codes.map((code) => [code.format, code.text])).toEqual([[expectFormat, expectText ?? text]]);
  });

  it('reports UPC codes as printed, with the 13-digit EAN alongside', async () => {
    const upca = await generate({ format: 'UPCA', text: '036000291452', output_path: path.join(workDir, 'upca-ean.png') });
    const [code] = (await scan({ image_paths: upca.summary.path })).results[0]?.codes ?? [];
    expect(code).toMatchObject({ format: 'UPCA', text: '036000291452', ean13: '0036000291452' });
    const onlyEan = await scan({ image_paths: upca.summary.path, formats: ['EAN-13'] });
    expect(onlyEan.results[0]?.codes.map((entry) => [entry.format, entry.text])).toEqual([['EAN13', '0036000291452']]);
  });

  it('finds codes that are rotated and inverted (light on dark)', async () => {
    const { png } = await generate({ format: 'Code128', text: 'ROTATED 90', output_path: path.join(workDir, 'upright.png') });
    const rotated = path.join(workDir, 'rotated-inverted.png');
    await sharp(png).rotate(90).negate({ alpha: false }).toFile(rotated);
    const output = await scan({ image_paths: rotated });
    expect(output.results[0]?.codes.map((code) => code.text)).toEqual(['ROTATED 90']);
    const qr = await generate({ format: 'QR', text: 'upside down', output_path: path.join(workDir, 'qr-upright.png') });
    const flipped = path.join(workDir, 'qr-flipped.png');
    await sharp(qr.png).rotate(180).negate({ alpha: false }).toFile(flipped);
    expect((await scan({ image_paths: flipped })).results[0]?.codes.map((code) => code.text)).toEqual(['upside down']);
  });

  it('restricts the search to the requested formats and rejects unknown ones', async () => {
    const file = path.join(barcodeDir, 'code128_two.png');
    expect((await scan({ image_paths: file, formats: ['QR'] })).results[0]?.codes).toEqual([]);
    expect((await scan({ image_paths: file, formats: ['Code 128'] })).results[0]?.codes).toHaveLength(2);
    const unknown = await call('scan_barcode', { image_paths: file, formats: ['Morse'] });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]?.text).toContain('"Morse" is not a barcode format');
  });

  it('reports a missing file next to the codes of a good one, and fails only when every image fails', async () => {
    const good = path.join(barcodeDir, 'qr_simple.png');
    const missing = path.join(workDir, 'no-such-barcode.png');
    const mixed = await scan({ image_paths: [good, missing] });
    expect(mixed.results.map((result) => result.path)).toEqual([good, missing]);
    expect(mixed.results[0]?.codes.map((code) => code.text)).toEqual(['Thalassiodracon']);
    expect(mixed.results[0]?.error).toBeUndefined();
    expect(mixed.results[1]?.codes).toEqual([]);
    expect(mixed.results[1]?.error).toContain('ENOENT');
    const asJsonString = await scan({ image_paths: JSON.stringify([good]) });
    expect(asJsonString.results[0]?.codes.map((code) => code.text)).toEqual(['Thalassiodracon']);
    const text = path.join(workDir, 'not-an-image.png');
    writeFileSync(text, 'plain text pretending to be a PNG');
    const allBad = await call('scan_barcode', { image_paths: [missing, text, path.join(repoRoot, 'package.json')] });
    expect(allBad.isError).toBe(true);
    expect(allBad.content[0]?.text).toContain('no image could be scanned');
    expect(allBad.content[0]?.text).toContain('ENOENT');
    expect(allBad.content[0]?.text).toContain('is not a supported image');
    expect(allBad.content[0]?.text).toContain('outside the allowed folders');
  });

  it('saves under media/generated by default and refuses bad content or output paths', async () => {
    const generatedDir = path.join(repoRoot, 'media', 'generated');
    const hadDir = existsSync(generatedDir);
    const { summary } = await generate({ format: 'qrcode', text: `default path ${process.pid}` });
    try {
      expect(summary.path).toMatch(/^media\/generated\/qrcode-[0-9a-f]{12}\.png$/);
      expect(existsSync(path.join(repoRoot, summary.path))).toBe(true);
    } finally {
      rmSync(path.join(repoRoot, summary.path), { force: true });
      if (!hadDir && readdirSync(generatedDir).length === 0) rmdirSync(generatedDir);
    }
    const badDigits = await call('generate_barcode', { format: 'EAN13', text: 'ABC', output_path: path.join(workDir, 'bad.png') });
    expect(badDigits.isError).toBe(true);
    expect(badDigits.content[0]?.text).toContain('cannot encode "ABC" as EAN13');
    const outside = await call('generate_barcode', { format: 'QR', text: 'x', output_path: '/etc/m3-barcode.png' });
    expect(outside.content[0]?.text).toContain('outside the allowed folders');
    const unknownFormat = await call('generate_barcode', { format: 'hieroglyph', text: 'x' });
    expect(unknownFormat.content[0]?.text).toContain('"hieroglyph" is not a barcode format');
    const notPng = await call('generate_barcode', { format: 'QR', text: 'x', output_path: path.join(workDir, 'code.jpg') });
    expect(notPng.content[0]?.text).toContain('must end in .png');
  });
});
