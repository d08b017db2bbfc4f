// What the detection tools answer, in the content layout of the reference's cloud detector
// (DINO-X's stdio server, kept word for word by the reference's 2026 local YOLO replacement):
// three text blocks,
//   1. "Objects detected in image: dog (2), person (1)."   ("none" when nothing was found, as the
//      local replacement writes it)
//   2. "Detailed object detection results: " + the objects as indented JSON, each
//      {name, bbox: {xmin, ymin, xmax, ymax}, score, description?}: the reference's keys plus our
//      score; bbox in pixels of the displayed image (EXIF orientation applied), top-left origin,
//      clipped to the image, rounded to 1 decimal as the reference does; best score first
//   3. the reference's note on the bbox format (each tool's own wording)
// and a fourth block of our own: which model ran, the image as the caller named it, its size and
// the score threshold; for detect-objects-by-text also how the prompt's terms mapped onto the 80
// COCO classes and which terms could not be searched. The same facts, machine-readable, go in
// `structuredContent` ({model, image, scoreThreshold, count, counts, objects, prompt?, matched?,
// unsupported?}); models see the text blocks, checkers (src/tasks/facts.ts) read the structure.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Detection } from './detector.js';
import type { PromptMapping } from './prompt-classes.js';

const modelLabel = 'YOLOX-Nano (COCO 80 classes, local ONNX)';

interface DetectedObject {
  name: string;
  bbox: { xmin: number; ymin: number; xmax: number; ymax: number };
  score: number;
  description?: string;
}

interface DetectionFrame {
  /** The image as the caller gave it (a path, a file:// URI, or "data URL"), never a resolved path. */
  source: string;
  width: number;
  height: number;
}

interface DetectionOptions {
  includeDescription: boolean;
  scoreThreshold: number;
  /** The model that ran, when not YOLOX-Nano (the open-vocabulary path). */
  model?: string;
}

// The reference's wording, per tool.
const notes = {
  all: 'Note: The bbox coordinates are in [xmin, ymin, xmax, ymax] format, where the origin (0,0) is at the top-left corner of the image. These coordinates help determine the exact position and spatial relationships of objects in the image.',
  text: 'Note: The bbox coordinates are in {xmin, ymin, xmax, ymax} format, where the origin (0,0) is at the top-left corner of the image. These coordinates help determine the exact position and spatial relationships of objects in the image.',
};

const oneDecimal = (value: number): number => Math.round(value * 10) / 10;

function describeObject(object: Omit<DetectedObject, 'description'>): string {
  const { xmin, ymin, xmax, ymax } = object.bbox;
  return `${object.name} at (${Math.round(xmin)},${Math.round(ymin)})-(${Math.round(xmax)},${Math.round(ymax)}), ${Math.round(object.score * 100)}%`;
}

function toDetectedObjects(detections: readonly Detection[], includeDescription: boolean): DetectedObject[] {
  return [...detections]
    .sort((a, b) => b.score - a.score)
    .map((detection) => {
      const object = {
        name: detection.category,
        bbox: { xmin: oneDecimal(detection.x1), ymin: oneDecimal(detection.y1), xmax: oneDecimal(detection.x2), ymax: oneDecimal(detection.y2) },
        score: Math.round(detection.score * 1000) / 1000,
      };
      return includeDescription ? { ...object, description: describeObject(object) } : object;
    });
}

/** Per name, in order of first appearance (best score first), as the reference's summary lists them. */
function countByName(objects: readonly DetectedObject[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const object of objects) counts.set(object.name, (counts.get(object.name) ?? 0) + 1);
  return counts;
}

function summaryLine(objects: readonly DetectedObject[]): string {
  const parts = [...countByName(objects)].map(([name, count]) => `${name} (${count})`);
  return `Objects detected in image: ${parts.length > 0 ? parts.join(', ') : 'none'}.`;
}

function detectorLine(frame: DetectionFrame, options: DetectionOptions): string {
  return `Detector: ${options.model ?? modelLabel}; image ${JSON.stringify(frame.source)} (${frame.width}x${frame.height} pixels); objects with score above ${options.scoreThreshold}.`;
}

function unsupportedMessage(unsupported: readonly string[]): string | undefined {
  if (unsupported.length === 0) return undefined;
  const terms = unsupported.map((term) => `"${term}"`).join(', ');
  return (
    `${terms} ${unsupported.length === 1 ? 'is' : 'are'} outside this model's vocabulary (the 80 COCO classes) and ` +
    `${unsupported.length === 1 ? 'was' : 'were'} not searched for; absence from the results says nothing about ` +
    `${unsupported.length === 1 ? 'it' : 'them'}.`
  );
}

function mappingLine(mapping: PromptMapping): string {
  const searched = mapping.matched.map((entry) => `"${entry.term}" -> ${entry.categories.join(' | ')}`);
  const message = unsupportedMessage(mapping.unsupported);
  return `Prompt terms searched as COCO classes: ${searched.length > 0 ? searched.join(', ') : 'none'}.${message ? ` ${message}` : ''}`;
}

export interface DetectionAnswer {
  objects: DetectedObject[];
  /** The text blocks, in the layout described above. */
  blocks: string[];
  structured: Record<string, unknown>;
}

function structuredOf(
  objects: DetectedObject[],
  frame: DetectionFrame,
  options: DetectionOptions,
  mapping?: PromptMapping,
  prompt?: string,
): Record<string, unknown> {
  return {
    model: options.model ?? modelLabel,
    image: frame,
    scoreThreshold: options.scoreThreshold,
    count: objects.length,
    counts: Object.fromEntries(countByName(objects)),
    objects,
    ...(mapping ? { prompt, matched: mapping.matched, unsupported: mapping.unsupported } : {}),
  };
}

export function createDetectionAnswer(detections: readonly Detection[], frame: DetectionFrame, options: DetectionOptions): DetectionAnswer {
  const objects = toDetectedObjects(detections, options.includeDescription);
  return {
    objects,
    blocks: [summaryLine(objects), `Detailed object detection results: ${JSON.stringify(objects, null, 2)}`, notes.all, detectorLine(frame, options)],
    structured: structuredOf(objects, frame, options),
  };
}

/** Keeps only the prompt's classes and says how the prompt was understood. */
export function createTextDetectionAnswer(
  detections: readonly Detection[],
  frame: DetectionFrame,
  prompt: string,
  mapping: PromptMapping,
  options: DetectionOptions,
): DetectionAnswer {
  const wanted = new Set<string>(mapping.categories);
  const objects = toDetectedObjects(
    detections.filter((detection) => wanted.has(detection.category)),
    options.includeDescription,
  );
  return {
    objects,
    blocks: [
      summaryLine(objects),
      `Detailed object detection results: ${JSON.stringify(objects, null, 2)}`,
      notes.text,
      `${detectorLine(frame, options)} ${mappingLine(mapping)}`,
    ],
    structured: structuredOf(objects, frame, options, mapping, prompt),
  };
}

/** detect-objects-by-text on the open-vocabulary path: every term was searched as written. */
export function createOpenVocabAnswer(
  detections: readonly Detection[],
  frame: DetectionFrame,
  prompt: string,
  terms: readonly string[],
  options: DetectionOptions,
): DetectionAnswer {
  const objects = toDetectedObjects(detections, options.includeDescription);
  const searched = terms.map((term) => JSON.stringify(term)).join(', ');
  return {
    objects,
    blocks: [
      summaryLine(objects),
      `Detailed object detection results: ${JSON.stringify(objects, null, 2)}`,
      notes.text,
      `${detectorLine(frame, options)} Prompt terms searched by the open-vocabulary model: ${searched}.`,
    ],
    structured: { ...structuredOf(objects, frame, options), prompt, terms },
  };
}

export function toToolResult(answer: DetectionAnswer, images: Array<{ data: Buffer; mimeType: string }> = []): CallToolResult {
  return {
    content: [
      ...answer.blocks.map((text) => ({ type: 'text' as const, text })),
      ...images.map((image) => ({ type: 'image' as const, data: image.data.toString('base64'), mimeType: image.mimeType })),
    ],
    structuredContent: answer.structured,
  };
}
