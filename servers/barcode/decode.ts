// Barcode decoding with zxing-wasm's reader on RGBA pixels from sharp. The reader fetches its
// .wasm from a CDN unless given the bytes, so the packaged file is loaded once before first use.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes, type ReaderOptions, type ReadInputBarcodeFormat, type ReadResult } from 'zxing-wasm/reader';
import { z } from 'zod';
import { maxImagePixels } from '../shared/image-input.js';

interface Point {
  x: number;
  y: number;
}

export interface DecodedCode {
  format: string;
  text: string;
  position: { topLeft: Point; topRight: Point; bottomRight: Point; bottomLeft: Point };
  /** For UPC-A / UPC-E: the same number as a 13-digit EAN, as some databases index it. */
  ean13?: string;
}

let ready: Promise<void> | undefined;

/** Loads the reader's WebAssembly from node_modules (idempotent). */
export function prepareDecoder(): Promise<void> {
  ready ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = await readFile(wasmPath);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })().catch((error: unknown) => {
    ready = undefined;
    throw new Error(`could not load zxing-wasm's reader (zxing_reader.wasm): ${(error as Error).message}`);
  });
  return ready;
}

const baseOptions: ReaderOptions = {
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  tryDownscale: true,
  maxNumberOfSymbols: 255,
};

interface Pass {
  options: ReaderOptions;
  upscale: number;
  /** zxing's tryInvert covers matrix codes only, so light-on-dark linear codes get their own pass. */
  negate: boolean;
}

// Tried in order until one finds something: the default local-average binarizer, then a global
// histogram with denoising (uneven light, speckled prints), a 2x upscale for tiny codes, and
// inverted pixels.
const passes: Pass[] = [
  { options: {}, upscale: 1, negate: false },
  { options: { binarizer: 'GlobalHistogram', tryDenoise: true }, upscale: 1, negate: false },
  { options: {}, upscale: 2, negate: false },
  { options: {}, upscale: 1, negate: true },
];

interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

async function toPixels(bytes: Buffer, { upscale, negate }: Pass, orientedWidth: number): Promise<Pixels> {
  let pipeline = sharp(bytes, { limitInputPixels: maxImagePixels }).rotate().flatten({ background: '#ffffff' });
  if (negate) pipeline = pipeline.negate({ alpha: false });
  if (upscale !== 1) pipeline = pipeline.resize({ width: orientedWidth * upscale, kernel: 'nearest' });
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** Upscaling only helps small images; on large photos it would just cost memory. */
const maxSideToUpscale = 1000;

const extraSchema = z.object({ UPCE: z.string().optional() }).loose();

function scalePoint(point: Point, factor: number): Point {
  return { x: Math.round(point.x / factor), y: Math.round(point.y / factor) };
}

/**
 * Reports UPC codes the way they are printed: zxing returns UPC-A as a 13-digit EAN with a
 * leading zero, and UPC-E expanded to 13 digits (the printed 8 digits sit in `extra`).
 */
function toDecodedCode(result: ReadResult, wanted: readonly string[], factor: number): DecodedCode {
  const { topLeft, topRight, bottomRight, bottomLeft } = result.position;
  const position = {
    topLeft: scalePoint(topLeft, factor),
    topRight: scalePoint(topRight, factor),
    bottomRight: scalePoint(bottomRight, factor),
    bottomLeft: scalePoint(bottomLeft, factor),
  };
  const upcaWanted = wanted.length === 0 || wanted.includes('UPCA') || wanted.includes('EANUPC');
  if (result.format === 'EAN13' && result.text.startsWith('0') && upcaWanted) {
    return { format: 'UPCA', text: result.text.slice(1), position, ean13: result.text };
  }
  if (result.format === 'UPCE') {
    const parsed = extraSchema.safeParse(result.extra ? JSON.parse(result.extra) : {});
    const printed = parsed.success ? parsed.data.UPCE : undefined;
    if (printed) return { format: 'UPCE', text: printed, position, ean13: result.text };
  }
  return { format: result.format, text: result.text, position };
}

/** Decodes every barcode in an image; `formats` are zxing reader names (empty means all). */
export async function decodeImage(bytes: Buffer, formats: readonly string[] = []): Promise<DecodedCode[]> {
  await prepareDecoder();
  // zxing reports UPC-A as EAN-13, so asking for UPC-A alone must still let it find EAN-13 symbols;
  // the true EAN-13 codes that brings in are dropped again below.
  const injectedEan13 = formats.includes('UPCA') && !formats.includes('EAN13');
  const readerFormats = (injectedEan13 ? [...formats, 'EAN13'] : [...formats]) as ReadInputBarcodeFormat[];
  const metadata = await sharp(bytes, { limitInputPixels: maxImagePixels }).metadata();
  // EXIF orientations 5-8 swap the sides once applied.
  const [width, height] = (metadata.orientation ?? 1) >= 5 ? [metadata.height ?? 0, metadata.width ?? 0] : [metadata.width ?? 0, metadata.height ?? 0];
  const pixelsByVariant = new Map<string, Pixels>();
  for (const pass of passes) {
    if (pass.upscale !== 1 && Math.max(width, height) >= maxSideToUpscale) continue;
    const variant = `${pass.upscale}:${pass.negate}`;
    const pixels = pixelsByVariant.get(variant) ?? (await toPixels(bytes, pass, width));
    pixelsByVariant.set(variant, pixels);
    const results = await readBarcodes(pixels, { ...baseOptions, ...pass.options, formats: readerFormats });
    const codes = results
      .filter((result) => result.isValid)
      .map((result) => toDecodedCode(result, formats, pass.upscale))
      .filter((code) => !(injectedEan13 && code.format === 'EAN13'));
    if (codes.length > 0) return codes;
  }
  return [];
}
