// The JSON the detection tools return, in the spirit of the reference cloud detector:
//   { model, image: {source, width, height}, scoreThreshold, count, counts: {category: n},
//     objects: [{ category, score, bbox: {x1, y1, x2, y2}, description? }], ... }
// Boxes are corner coordinates in integer pixels of the displayed image (EXIF orientation
// applied), top-left origin, clipped to the image; scores are rounded to 3 decimals and objects
// are sorted by score, best first. detect-objects-by-text adds
//   prompt, matched: [{term, categories}], unsupported: [terms], and a message when some terms
//   are outside the 80 COCO classes.
import type { Detection } from './detector.js';
import type { PromptMapping } from './prompt-classes.js';

export const modelLabel = 'YOLOX-Nano (COCO 80 classes, local ONNX)';

export interface DetectedObject {
  category: string;
  score: number;
  bbox: { x1: number; y1: number; x2: number; y2: number };
  description?: string;
}

export interface DetectionPayload {
  model: string;
  image: { source: string; width: number; height: number };
  scoreThreshold: number;
  count: number;
  counts: Record<string, number>;
  objects: DetectedObject[];
  annotated?: boolean;
}

export interface TextDetectionPayload extends DetectionPayload {
  prompt: string;
  matched: PromptMapping['matched'];
  unsupported: string[];
  message?: string;
}

export function describeObject(object: Omit<DetectedObject, 'description'>): string {
  const { x1, y1, x2, y2 } = object.bbox;
  return `${object.category} at (${x1},${y1})-(${x2},${y2}), ${Math.round(object.score * 100)}%`;
}

export function toDetectedObjects(detections: readonly Detection[], includeDescription: boolean): DetectedObject[] {
  return [...detections]
    .sort((a, b) => b.score - a.score)
    .map((detection) => {
      const object = {
        category: detection.category,
        score: Math.round(detection.score * 1000) / 1000,
        bbox: { x1: Math.round(detection.x1), y1: Math.round(detection.y1), x2: Math.round(detection.x2), y2: Math.round(detection.y2) },
      };
      return includeDescription ? { ...object, description: describeObject(object) } : object;
    });
}

export function countByCategory(objects: readonly DetectedObject[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const object of objects) counts[object.category] = (counts[object.category] ?? 0) + 1;
  return counts;
}

export function createDetectionPayload(
  detections: readonly Detection[],
  image: DetectionPayload['image'],
  options: { includeDescription: boolean; scoreThreshold: number },
): DetectionPayload {
  const objects = toDetectedObjects(detections, options.includeDescription);
  return { model: modelLabel, image, scoreThreshold: options.scoreThreshold, count: objects.length, counts: countByCategory(objects), objects };
}

export function unsupportedMessage(unsupported: readonly string[]): string | undefined {
  if (unsupported.length === 0) return undefined;
  const terms = unsupported.map((term) => `"${term}"`).join(', ');
  return (
    `${terms} ${unsupported.length === 1 ? 'is' : 'are'} outside this model's vocabulary (the 80 COCO classes) and ` +
    `${unsupported.length === 1 ? 'was' : 'were'} not searched for; absence from the results says nothing about ` +
    `${unsupported.length === 1 ? 'it' : 'them'}.`
  );
}

/** Keeps only the prompt's classes and adds the mapping, so the caller sees what was searched. */
export function createTextDetectionPayload(
  detections: readonly Detection[],
  image: DetectionPayload['image'],
  prompt: string,
  mapping: PromptMapping,
  options: { includeDescription: boolean; scoreThreshold: number },
): TextDetectionPayload {
  const wanted = new Set<string>(mapping.categories);
  const base = createDetectionPayload(
    detections.filter((detection) => wanted.has(detection.category)),
    image,
    options,
  );
  const message = unsupportedMessage(mapping.unsupported);
  return { ...base, prompt, matched: mapping.matched, unsupported: mapping.unsupported, ...(message ? { message } : {}) };
}
