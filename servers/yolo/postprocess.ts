// YOLOX head decoding and non-maximum suppression. The exported model has no decode inside:
// each of the 3549 rows is [tx, ty, tw, th, objectness, 80 class probabilities] on the
// 52x52, 26x26 and 13x13 grids of strides 8, 16 and 32 (row-major, y then x).

const strides = [8, 16, 32] as const;

/** A box in some pixel frame with its class id and score (objectness x class probability). */
export interface Box {
  classId: number;
  score: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface DecodeOptions {
  size: number;
  numClasses: number;
  /** Keep boxes whose score is strictly above this. */
  scoreThreshold: number;
}

/** @internal Exported for its tests. */
export function expectedRows(size: number): number {
  return strides.reduce((sum, stride) => sum + (size / stride) ** 2, 0);
}

/** Decodes the raw head into boxes in model-input pixels, best class per anchor. */
export function decodeOutput(output: Float32Array, options: DecodeOptions): Box[] {
  const rowLength = 5 + options.numClasses;
  const rows = expectedRows(options.size);
  if (output.length !== rows * rowLength) {
    throw new Error(`model output has ${output.length} values, expected ${rows} rows x ${rowLength} (input ${options.size}, ${options.numClasses} classes)`);
  }
  const boxes: Box[] = [];
  let row = 0;
  for (const stride of strides) {
    const grid = options.size / stride;
    for (let gy = 0; gy < grid; gy += 1) {
      for (let gx = 0; gx < grid; gx += 1, row += 1) {
        const offset = row * rowLength;
        const objectness = output[offset + 4] ?? 0;
        if (objectness <= options.scoreThreshold) continue; // score <= objectness, so it cannot pass
        let classId = 0;
        let best = -Infinity;
        for (let c = 0; c < options.numClasses; c += 1) {
          const probability = output[offset + 5 + c] ?? 0;
          if (probability > best) {
            best = probability;
            classId = c;
          }
        }
        const score = objectness * best;
        if (!(score > options.scoreThreshold)) continue;
        const cx = ((output[offset] ?? 0) + gx) * stride;
        const cy = ((output[offset + 1] ?? 0) + gy) * stride;
        const w = Math.exp(output[offset + 2] ?? 0) * stride;
        const h = Math.exp(output[offset + 3] ?? 0) * stride;
        boxes.push({ classId, score, x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 });
      }
    }
  }
  return boxes;
}

export function intersectionOverUnion(a: Omit<Box, 'classId' | 'score'>, b: Omit<Box, 'classId' | 'score'>): number {
  const width = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const height = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (width <= 0 || height <= 0) return 0;
  const intersection = width * height;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - intersection;
  return union > 0 ? intersection / union : 0;
}

/** Greedy NMS within each class; boxes of different classes never suppress each other. */
export function nonMaxSuppression(boxes: readonly Box[], iouThreshold: number): Box[] {
  const sorted = [...boxes].sort((a, b) => b.score - a.score);
  const kept: Box[] = [];
  for (const candidate of sorted) {
    const overlaps = kept.some((box) => box.classId === candidate.classId && intersectionOverUnion(box, candidate) > iouThreshold);
    if (!overlaps) kept.push(candidate);
  }
  return kept;
}

/** Maps model-input boxes back to the original frame (divide by the letterbox scale) and clips. */
export function toOriginalFrame(boxes: readonly Box[], scale: number, width: number, height: number): Box[] {
  const clip = (value: number, limit: number) => Math.min(Math.max(value, 0), limit);
  return boxes
    .map((box) => ({
      ...box,
      x1: clip(box.x1 / scale, width),
      y1: clip(box.y1 / scale, height),
      x2: clip(box.x2 / scale, width),
      y2: clip(box.y2 / scale, height),
    }))
    .filter((box) => box.x2 > box.x1 && box.y2 > box.y1);
}
