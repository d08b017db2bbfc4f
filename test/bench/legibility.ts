// Legibility of a sent image, for `npm run bench:images`: our OCR engine (servers/ocr) and
// detector (servers/yolo) run on a baseline image and on the image a policy sends, and the
// comparison counts what a model could still read or find. Only what is clearly there counts:
// OCR lines the engine is sure of and objects well above the detector's threshold; text or
// objects that hover at the threshold flip with any re-encoding (and between the vendors' own
// resizes), which says nothing about what a vision model sees.
import { createHash } from 'node:crypto';
import type * as ort from 'onnxruntime-node';
import { recogniseLines } from '../../servers/ocr/engine.js';
import { detectObjects } from '../../servers/yolo/detector.js';

/** OCR lines at or above this confidence, with at least two characters, must be read again. */
export const confidentLine = 0.8;
/** Detections at or above this score (the detector keeps >= 0.4) must be found again. */
export const confidentObject = 0.5;
/** A found object is the same one when its label matches and its box overlaps by this IoU. */
const sameBoxIou = 0.5;

interface Seen {
  width: number;
  lines: Array<{ text: string; confidence: number }>;
  objects: Array<{ category: string; score: number; x1: number; y1: number; x2: number; y2: number }>;
}

export interface Agreement {
  /** Confident baseline lines / how many of them the sent image's OCR text still contains. */
  lines: number;
  linesKept: number;
  /** Confident baseline objects / how many a detection of the same label and box matches. */
  objects: number;
  objectsKept: number;
}

const normalise = (text: string): string => text.toLowerCase().replace(/\s+/g, '');

/** Per image digest: vendors often get the same bytes, and an unchanged image needs one run. */
const seenBefore = new Map<string, Promise<Seen>>();

export function see(bytes: Buffer, session: ort.InferenceSession): Promise<Seen> {
  const digest = createHash('sha256').update(bytes).digest('hex');
  let pending = seenBefore.get(digest);
  if (!pending) {
    pending = (async () => {
      const lines = (await recogniseLines(bytes)).map(({ text, confidence }) => ({ text, confidence }));
      const run = await detectObjects(session, bytes);
      return { width: run.width, lines, objects: run.detections };
    })();
    seenBefore.set(digest, pending);
  }
  return pending;
}

function iou(a: Seen['objects'][number], b: Seen['objects'][number]): number {
  const width = Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1));
  const height = Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1));
  const overlap = width * height;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - overlap;
  return union > 0 ? overlap / union : 0;
}

/** What of `baseline` can still be read and found in `sent` (boxes compared in the baseline's pixels). */
export function agreement(baseline: Seen, sent: Seen): Agreement {
  const wanted = baseline.lines.filter((line) => line.confidence >= confidentLine && normalise(line.text).length >= 2);
  const sentText = normalise(sent.lines.map((line) => line.text).join(' '));
  const scale = baseline.width / Math.max(1, sent.width);
  const found = sent.objects.map((object) => ({ ...object, x1: object.x1 * scale, y1: object.y1 * scale, x2: object.x2 * scale, y2: object.y2 * scale }));
  const confident = baseline.objects.filter((object) => object.score >= confidentObject);
  const unmatched = [...found];
  let objectsKept = 0;
  for (const object of confident) {
    const index = unmatched.findIndex((candidate) => candidate.category === object.category && iou(candidate, object) >= sameBoxIou);
    if (index >= 0) {
      objectsKept += 1;
      unmatched.splice(index, 1);
    }
  }
  return {
    lines: wanted.length,
    linesKept: wanted.filter((line) => sentText.includes(normalise(line.text))).length,
    objects: confident.length,
    objectsKept,
  };
}

export function addAgreements(values: Agreement[]): Agreement & { sameText: number; sameObjects: number; withText: number; withObjects: number } {
  const total = { lines: 0, linesKept: 0, objects: 0, objectsKept: 0, sameText: 0, sameObjects: 0, withText: 0, withObjects: 0 };
  for (const value of values) {
    total.lines += value.lines;
    total.linesKept += value.linesKept;
    total.objects += value.objects;
    total.objectsKept += value.objectsKept;
    if (value.lines > 0) total.withText += 1;
    if (value.lines > 0 && value.linesKept === value.lines) total.sameText += 1;
    if (value.objects > 0) total.withObjects += 1;
    if (value.objects > 0 && value.objectsKept === value.objects) total.sameObjects += 1;
  }
  return total;
}

export const legibilityDefinition = [
  `text kept: of the OCR lines the engine reads on the baseline with confidence >= ${confidentLine} (2+ characters), the share whose text`,
  '  (case and spaces ignored) the OCR of the sent image still contains; "same text" = assets where every such line is kept.',
  `objects kept: of the detections on the baseline with score >= ${confidentObject} (the detector reports >= 0.4), the share matched on the`,
  `  sent image by a detection of the same label with box IoU >= ${sameBoxIou}; "same labels" = assets where every such object is kept.`,
  "baselines: the original file, and what the vendor itself keeps of it (the original resized to the vendor's own limits,",
  "  src/media/vision-tokens.ts, sent losslessly): the second isolates what the policy loses beyond the vendor's own resize.",
];
