// Ultralytics YOLO pose models (YOLOv8/YOLO11 "-pose" ONNX exports): input preparation and
// output decoding, split from the session so both can be checked on hand-made arrays.
// Input: [1, 3, S, S] RGB scaled to 0-1, the image resized to fit and centred, padded with 114.
// Output: [1, 56, N] channel-major, N anchors of the three strides (8, 16, 32) of an S x S input:
// rows 0-3 box centre x, y, width, height (input pixels), row 4 person score, then for each of the
// 17 COCO keypoints x, y and a visibility score (sigmoid applied inside the export).
import { intersectionOverUnion } from './postprocess.js';

export const keypointNames = [
  'nose',
  'leftEye',
  'rightEye',
  'leftEar',
  'rightEar',
  'leftShoulder',
  'rightShoulder',
  'leftElbow',
  'rightElbow',
  'leftWrist',
  'rightWrist',
  'leftHip',
  'rightHip',
  'leftKnee',
  'rightKnee',
  'leftAnkle',
  'rightAnkle',
] as const;

const poseRows = 5 + 3 * keypointNames.length;
const padValue = 114 / 255;

/** Anchors of an S x S input: (S/8)^2 + (S/16)^2 + (S/32)^2 (8400 for 640). */
export function anchorCount(size: number): number {
  return (size / 8) ** 2 + (size / 16) ** 2 + (size / 32) ** 2;
}

export interface CentredLetterbox {
  scale: number;
  padX: number;
  padY: number;
  resizedWidth: number;
  resizedHeight: number;
}

/** Ultralytics' letterbox: scale to fit, centre, padding split in two (the left/top half rounded down). */
export function centredLetterbox(width: number, height: number, size: number): CentredLetterbox {
  if (!(width > 0 && height > 0)) throw new Error(`cannot letterbox an image of ${width}x${height} pixels`);
  const scale = Math.min(size / width, size / height);
  const resizedWidth = Math.min(size, Math.max(1, Math.round(width * scale)));
  const resizedHeight = Math.min(size, Math.max(1, Math.round(height * scale)));
  return { scale, resizedWidth, resizedHeight, padX: Math.floor((size - resizedWidth) / 2), padY: Math.floor((size - resizedHeight) / 2) };
}

/** Interleaved RGB(A) pixels of the resized image → the centred [3, S, S] RGB 0-1 tensor. */
export function toPoseTensor(pixels: Uint8Array, channels: number, box: CentredLetterbox, size: number): Float32Array {
  const { resizedWidth: width, resizedHeight: height, padX, padY } = box;
  if (pixels.length < width * height * channels) throw new Error(`pixel buffer holds ${pixels.length} bytes, expected ${width * height * channels}`);
  const plane = size * size;
  const data = new Float32Array(3 * plane).fill(padValue);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const source = (y * width + x) * channels;
      const target = (y + padY) * size + x + padX;
      data[target] = (pixels[source] ?? 0) / 255;
      data[plane + target] = (pixels[source + 1] ?? 0) / 255;
      data[2 * plane + target] = (pixels[source + 2] ?? 0) / 255;
    }
  }
  return data;
}

interface Keypoint {
  x: number;
  y: number;
  /** The model's visibility score, 0-1. */
  score: number;
}

export interface PoseDetection {
  score: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  keypoints: Keypoint[];
}

export interface PoseDecodeOptions {
  anchors: number;
  scoreThreshold: number;
  iouThreshold: number;
}

/** Persons above the threshold, best first, overlapping ones suppressed; input-pixel coordinates. */
export function decodePoseOutput(output: Float32Array, options: PoseDecodeOptions): PoseDetection[] {
  const { anchors } = options;
  if (output.length !== poseRows * anchors) {
    throw new Error(`pose model output has ${output.length} values, expected ${poseRows} x ${anchors} (a YOLO pose export with 17 keypoints)`);
  }
  const at = (row: number, anchor: number) => output[row * anchors + anchor] ?? 0;
  const candidates: PoseDetection[] = [];
  for (let i = 0; i < anchors; i += 1) {
    const score = at(4, i);
    if (!(score > options.scoreThreshold)) continue;
    const [cx, cy, w, h] = [at(0, i), at(1, i), at(2, i), at(3, i)];
    const keypoints = keypointNames.map((_name, k) => ({ x: at(5 + 3 * k, i), y: at(6 + 3 * k, i), score: at(7 + 3 * k, i) }));
    candidates.push({ score, x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2, keypoints });
  }
  candidates.sort((a, b) => b.score - a.score);
  const kept: PoseDetection[] = [];
  for (const candidate of candidates) {
    if (!kept.some((person) => intersectionOverUnion(person, candidate) > options.iouThreshold)) kept.push(candidate);
  }
  return kept;
}

/** Input pixels → pixels of the original image (padding removed, scaled back, clipped). */
export function toImageFrame(people: readonly PoseDetection[], box: CentredLetterbox, width: number, height: number): PoseDetection[] {
  const clip = (value: number, limit: number) => Math.min(Math.max(value, 0), limit);
  const x = (value: number) => clip((value - box.padX) / box.scale, width);
  const y = (value: number) => clip((value - box.padY) / box.scale, height);
  return people.map((person) => ({
    score: person.score,
    x1: x(person.x1),
    y1: y(person.y1),
    x2: x(person.x2),
    y2: y(person.y2),
    keypoints: person.keypoints.map((point) => ({ x: x(point.x), y: y(point.y), score: point.score })),
  }));
}
