// Open-vocabulary detection for detect-objects-by-text: a YOLO-World v2 ONNX export that takes
// the prompt's text embeddings as an input (images [1, 3, S, S] RGB 0-1, the image resized to
// S x S without letterbox; txt_feats [1, K, D]; output [1, 4 + K, N]: box centre x, y, width,
// height in input pixels, then one score per prompt slot), with the CLIP text encoder making the
// embeddings (clip-text.ts). This is the layout and preprocessing of the public export pinned in
// media/vision-models.json (ODLabel's yolov8s-worldv2.onnx and its yoloworld_onnx.py): unused
// slots get zero embeddings, more terms than K run in several passes.
// The files: M3_YOLO_WORLD_MODEL, M3_CLIP_TEXT_MODEL and M3_CLIP_TOKENIZER, else the assets
// "yolov8s-worldv2", "clip-vit-b32/text-model" and "clip-vit-b32/tokenizer" of
// media/vision-models.json. All three must be present, else the COCO-80 path answers.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { assetPath, loadAssetManifest, visionModelManifestFile } from '../../src/assets/index.js';
import { maxImagePixels } from '../shared/image-input.js';
import { loadTextEncoder, type TextEncoder } from './clip-text.js';
import { type Detection, ModelUnavailableError, nmsIouThreshold } from './detector.js';
import { anchorCount, toPoseTensor } from './pose-decode.js';
import { type Box, nonMaxSuppression } from './postprocess.js';
import { yoloSessionOptions } from './session-options.js';

export interface OpenVocabFiles {
  world: string;
  textModel: string;
  tokenizer: string;
}

const parts = [
  { key: 'world', variable: 'M3_YOLO_WORLD_MODEL', asset: 'yolov8s-worldv2' },
  { key: 'textModel', variable: 'M3_CLIP_TEXT_MODEL', asset: 'clip-vit-b32/text-model' },
  { key: 'tokenizer', variable: 'M3_CLIP_TOKENIZER', asset: 'clip-vit-b32/tokenizer' },
] as const;

/** The three files, or undefined when any is neither configured nor pulled. A configured path that does not exist is an error. */
export function findOpenVocabModels(env: NodeJS.ProcessEnv = process.env, manifestFile = visionModelManifestFile): OpenVocabFiles | undefined {
  const found: Partial<OpenVocabFiles> = {};
  for (const part of parts) {
    const configured = env[part.variable]?.trim();
    if (configured) {
      const file = path.resolve(configured);
      if (!existsSync(file)) throw new ModelUnavailableError(`${part.variable} points at ${file}, which does not exist`);
      found[part.key] = file;
      continue;
    }
    try {
      found[part.key] = assetPath(part.asset, { manifest: loadAssetManifest(manifestFile) });
    } catch {
      return undefined;
    }
  }
  return found as OpenVocabFiles;
}

export interface OpenVocab {
  files: OpenVocabFiles;
  session: ort.InferenceSession;
  imageInput: string;
  textInput: string;
  size: number;
  /** Prompt slots per pass (K). */
  slots: number;
  /** Embedding width (D). */
  width: number;
  text: TextEncoder;
}

function dims(session: ort.InferenceSession, name: string): ReadonlyArray<number | string> {
  const metadata = session.inputMetadata.find((entry) => entry.name === name);
  return metadata?.isTensor ? metadata.shape : [];
}

export async function loadOpenVocab(files: OpenVocabFiles, env: NodeJS.ProcessEnv = process.env): Promise<OpenVocab> {
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(files.world, yoloSessionOptions(env));
  } catch (error) {
    throw new ModelUnavailableError(`cannot load the YOLO-World model ${files.world}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const imageInput = session.inputNames.find((name) => dims(session, name).length === 4);
  const textInput = session.inputNames.find((name) => dims(session, name).length === 3);
  if (!imageInput || !textInput) {
    throw new ModelUnavailableError(`${files.world} is not a YOLO-World export with text-embedding input: inputs ${session.inputNames.join(', ')}`);
  }
  // A symbolic image side means the export's 640; the prompt slots must be fixed (ODLabel reads them the same way).
  const side = dims(session, imageInput)[3];
  const [, slots, width] = dims(session, textInput);
  if (typeof slots !== 'number') throw new ModelUnavailableError(`${files.world}: expected a fixed number of prompt slots K in the text input [1,K,D]`);
  const size = typeof side === 'number' && side > 0 ? side : 640;
  const text = await loadTextEncoder(files.textModel, files.tokenizer, env);
  return { files, session, imageInput, textInput, size, slots, width: typeof width === 'number' ? width : 512, text };
}

/**
 * Best prompt slot per anchor above the threshold, in input pixels (the [4 + K, N] layout).
 * @internal Exported for its tests.
 */
export function decodeWorldOutput(output: Float32Array, options: { slots: number; anchors: number; scoreThreshold: number }): Box[] {
  const { slots, anchors } = options;
  if (output.length !== (4 + slots) * anchors) throw new Error(`YOLO-World output has ${output.length} values, expected ${4 + slots} x ${anchors}`);
  const boxes: Box[] = [];
  for (let i = 0; i < anchors; i += 1) {
    let classId = 0;
    let score = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < slots; k += 1) {
      const value = output[(4 + k) * anchors + i] ?? 0;
      if (value > score) [score, classId] = [value, k];
    }
    if (!(score > options.scoreThreshold)) continue;
    const [cx, cy, w, h] = [0, 1, 2, 3].map((row) => output[row * anchors + i] ?? 0) as [number, number, number, number];
    boxes.push({ classId, score, x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 });
  }
  return boxes;
}

async function prepare(bytes: Buffer, size: number): Promise<{ tensor: Float32Array; width: number; height: number }> {
  const metadata = await sharp(bytes, { limitInputPixels: maxImagePixels }).metadata();
  const transposed = (metadata.orientation ?? 1) >= 5;
  const width = (transposed ? metadata.height : metadata.width) ?? 0;
  const height = (transposed ? metadata.width : metadata.height) ?? 0;
  const { data, info } = await sharp(bytes, { limitInputPixels: maxImagePixels })
    .rotate()
    .resize(size, size, { fit: 'fill' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const box = { scale: 1, padX: 0, padY: 0, resizedWidth: size, resizedHeight: size };
  return { tensor: toPoseTensor(data, info.channels, box, size), width, height };
}

/** Detections of the given terms (category = the term), in image pixels. */
export async function detectTerms(
  model: OpenVocab,
  bytes: Buffer,
  terms: readonly string[],
  scoreThreshold: number,
): Promise<{ detections: Detection[]; width: number; height: number }> {
  const { tensor, width, height } = await prepare(bytes, model.size);
  const embeddings = await model.text.encode(terms);
  const mismatch = embeddings.find((embedding) => embedding.length !== model.width);
  if (mismatch)
    throw new Error(
      `the CLIP text encoder gives ${mismatch.length} values per term, the YOLO-World model expects ${model.width}: use the text encoder the detector was exported with`,
    );
  const image = new ort.Tensor('float32', tensor, [1, 3, model.size, model.size]);
  const found: Box[] = [];
  for (let first = 0; first < terms.length; first += model.slots) {
    const feats = new Float32Array(model.slots * model.width);
    embeddings.slice(first, first + model.slots).forEach((embedding, k) => {
      feats.set(embedding, k * model.width);
    });
    const outputs = await model.session.run({ [model.imageInput]: image, [model.textInput]: new ort.Tensor('float32', feats, [1, model.slots, model.width]) });
    const output = outputs[model.session.outputNames[0] ?? ''];
    if (!output || !(output.data instanceof Float32Array)) throw new Error('YOLO-World model returned no float32 output');
    const boxes = decodeWorldOutput(output.data, { slots: model.slots, anchors: anchorCount(model.size), scoreThreshold });
    found.push(...boxes.filter((box) => first + box.classId < terms.length).map((box) => ({ ...box, classId: first + box.classId })));
  }
  const [sx, sy] = [width / model.size, height / model.size];
  const clip = (value: number, limit: number) => Math.min(Math.max(value, 0), limit);
  const detections = nonMaxSuppression(found, nmsIouThreshold).map((box) => ({
    ...box,
    x1: clip(box.x1 * sx, width),
    y1: clip(box.y1 * sy, height),
    x2: clip(box.x2 * sx, width),
    y2: clip(box.y2 * sy, height),
    category: terms[box.classId] ?? `term ${box.classId}`,
  }));
  return { detections, width, height };
}
