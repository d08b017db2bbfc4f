// The detector's preprocessing and session setup as they were before the single-pipeline
// rewrite (two sharp decodes of the input, a fresh zero-filled tensor per call, onnxruntime's
// default threading): kept as the reference that test/servers/yolo-preprocess-equivalence.test.ts
// and `npm run bench:vision` compare the current path with.
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { computeLetterbox, inputSize, padValue, type PreparedImage } from '../../servers/yolo/preprocess.js';
import { maxImagePixels } from '../../servers/shared/image-input.js';

export const referenceSessionOptions: ort.InferenceSession.SessionOptions = { graphOptimizationLevel: 'all' };

export function createReferenceSession(modelPath: string): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(modelPath, referenceSessionOptions);
}

function referenceTensor(pixels: Uint8Array, width: number, height: number, channels: number, size: number): Float32Array {
  const plane = size * size;
  const data = new Float32Array(3 * plane);
  if (width < size || height < size) data.fill(padValue);
  for (let y = 0; y < height; y += 1) {
    let source = y * width * channels;
    const rowEnd = y * size + width;
    for (let target = y * size; target < rowEnd; target += 1, source += channels) {
      data[2 * plane + target] = pixels[source]!;
      data[plane + target] = pixels[source + 1]!;
      data[target] = pixels[source + 2]!;
    }
  }
  return data;
}

export async function referencePrepareImage(bytes: Buffer, size = inputSize): Promise<PreparedImage> {
  const metadata = await sharp(bytes, { limitInputPixels: maxImagePixels }).metadata();
  const transposed = (metadata.orientation ?? 1) >= 5;
  const width = (transposed ? metadata.height : metadata.width) ?? 0;
  const height = (transposed ? metadata.width : metadata.height) ?? 0;
  const letterbox = computeLetterbox(width, height, size);
  const { data: pixels, info } = await sharp(bytes, { limitInputPixels: maxImagePixels })
    .rotate()
    .resize(letterbox.resizedWidth, letterbox.resizedHeight, { fit: 'fill' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: referenceTensor(pixels, info.width, info.height, info.channels, size), letterbox, width, height };
}
