// `npm run bench:images`: what the image payload policies send for the 55 shared assets. Per
// asset, in one run: the raw bytes, the reference rule (M3_IMAGE_POLICY=reference: re-encode above
// 512 KB, longest edge 1568) and the transport policy for OpenAI, Anthropic and Gemini; each
// payload's estimated image tokens per vendor (src/media/vision-tokens.ts); and legibility: our
// OCR engine (servers/ocr) and detector (servers/yolo) run on the original and on every sent
// image, reported as agreement with the original (text similarity; label multiset overlap).
// Not a test: it prints a table, with the machine load.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import type * as ort from 'onnxruntime-node';
import { recogniseLines } from '../../servers/ocr/engine.js';
import { createYoloSession, detectObjects } from '../../servers/yolo/detector.js';
import { imageDestinationFor } from '../../src/llm/image-destination.js';
import { classOf, imageStatistics, type ImageClass } from '../../src/media/image-class.js';
import { prepareImage } from '../../src/media/prepare-image.js';
import { type VisionVendor, visionTokens } from '../../src/media/vision-tokens.js';
import { missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';

const vendors: VisionVendor[] = ['openai', 'anthropic', 'gemini'];
const specs: Record<VisionVendor, string> = { openai: 'openai:gpt-4o', anthropic: 'anthropic:claude-sonnet-4-5', gemini: 'gemini:gemini-2.5-flash' };
const reference = { recodeOverKb: 512, maxEdge: 1568 };
const bytesGoal = 0.4;

interface Sent {
  bytes: number;
  tokens: Record<VisionVendor, number>;
  ocr: number | undefined;
  detection: number | undefined;
}

interface Row {
  name: string;
  kind: ImageClass;
  raw: number;
  reference: Sent;
  ours: Record<VisionVendor, Sent>;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** 1 - normalised edit distance of the recognised text (whitespace-insensitive). */
function textAgreement(original: string, sent: string): number {
  const a = original.replace(/\s+/g, '');
  const b = sent.replace(/\s+/g, '');
  if (a.length === 0 && b.length === 0) return 1;
  return 1 - editDistance(a, b) / Math.max(a.length, b.length);
}

/** Shared labels / all labels, counting repeats (2 dogs vs 1 dog agree on 1 of 2). */
function labelAgreement(original: string[], sent: string[]): number {
  if (original.length === 0 && sent.length === 0) return 1;
  const left = new Map<string, number>();
  for (const label of original) left.set(label, (left.get(label) ?? 0) + 1);
  let shared = 0;
  for (const label of sent) {
    const count = left.get(label) ?? 0;
    if (count > 0) {
      shared += 1;
      left.set(label, count - 1);
    }
  }
  return shared / Math.max(original.length, sent.length);
}

interface Legibility {
  text: string;
  labels: string[];
}

/** Per payload digest: the vendors often get the same bytes, and a passed-through original needs no second run. */
const seenBefore = new Map<string, Promise<Legibility>>();

/** M3_BENCH_LEGIBILITY=0 skips OCR and the detector (bytes and tokens only: minutes instead of tens of minutes on a busy machine). */
const withLegibility = process.env.M3_BENCH_LEGIBILITY !== '0';

function legibility(bytes: Buffer, session: ort.InferenceSession): Promise<Legibility> {
  if (!withLegibility) return Promise.resolve({ text: '', labels: [] });
  const digest = createHash('sha256').update(bytes).digest('hex');
  let pending = seenBefore.get(digest);
  if (!pending) {
    pending = (async () => {
      const text = (await recogniseLines(bytes)).map((line) => line.text).join(' ');
      const labels = (await detectObjects(session, bytes)).detections.map((detection) => detection.category).sort();
      return { text, labels };
    })();
    seenBefore.set(digest, pending);
  }
  return pending;
}

async function measure(part: { data: string; facts?: { width: number; height: number } }, original: Legibility, session: ort.InferenceSession): Promise<Sent> {
  const bytes = Buffer.from(part.data, 'base64');
  const size = { width: part.facts?.width ?? 0, height: part.facts?.height ?? 0 };
  const tokens = Object.fromEntries(vendors.map((vendor) => [vendor, visionTokens(vendor, size)])) as Record<VisionVendor, number>;
  const seen = await legibility(bytes, session);
  return {
    bytes: bytes.length,
    tokens,
    ocr: original.text ? textAgreement(original.text, seen.text) : undefined,
    detection: original.labels.length > 0 ? labelAgreement(original.labels, seen.labels) : undefined,
  };
}

async function measureAsset(file: string, session: ort.InferenceSession): Promise<Row> {
  const bytes = readFileSync(file);
  const original = await legibility(bytes, session);
  const kind = classOf(await imageStatistics(bytes));
  const referencePart = await prepareImage(bytes, file, reference);
  const ours = {} as Record<VisionVendor, Sent>;
  for (const vendor of vendors) {
    const part = await prepareImage(bytes, file, { ...reference, transport: imageDestinationFor(specs[vendor]) });
    ours[vendor] = await measure(part, original, session);
  }
  return {
    name: path.relative(path.dirname(path.dirname(file)), file),
    kind,
    raw: bytes.length,
    reference: await measure(referencePart, original, session),
    ours,
  };
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(0);
const percent = (value: number | undefined): string => (value === undefined ? '-' : `${(value * 100).toFixed(0)}`);

function mean(values: Array<number | undefined>): number | undefined {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length === 0 ? undefined : present.reduce((sum, value) => sum + value, 0) / present.length;
}

function worst(values: Array<number | undefined>): number | undefined {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length === 0 ? undefined : Math.min(...present);
}

function printHeader(): void {
  console.log(
    'asset                               class    raw KB  ref KB | ours KB O/A/G    | tokens ref O/A/G  | tokens ours O/A/G | OCR% ref/ours | det% ref/ours',
  );
}

function printRow(row: Row): void {
  const ours = vendors.map((vendor) => kb(row.ours[vendor].bytes)).join('/');
  const refTokens = vendors.map((vendor) => row.reference.tokens[vendor]).join('/');
  const ourTokens = vendors.map((vendor) => row.ours[vendor].tokens[vendor]).join('/');
  const ocr = `${percent(row.reference.ocr)}/${percent(worst(vendors.map((vendor) => row.ours[vendor].ocr)))}`;
  const det = `${percent(row.reference.detection)}/${percent(worst(vendors.map((vendor) => row.ours[vendor].detection)))}`;
  console.log(
    `${row.name.padEnd(35)} ${row.kind.padEnd(8)} ${kb(row.raw).padStart(6)} ${kb(row.reference.bytes).padStart(7)} | ${ours.padEnd(16)} | ${refTokens.padEnd(17)} | ${ourTokens.padEnd(17)} | ${ocr.padEnd(13)} | ${det}`,
  );
}

function printSummary(label: string, rows: Row[]): void {
  if (rows.length === 0) return;
  const sum = (pick: (row: Row) => number): number => rows.reduce((total, row) => total + pick(row), 0);
  const raw = sum((row) => row.raw);
  const ref = sum((row) => row.reference.bytes);
  console.log(`\n${label} (${rows.length} assets): raw ${kb(raw)} KB, reference ${kb(ref)} KB (${percent(ref / raw)} % of raw)`);
  for (const vendor of vendors) {
    const ours = sum((row) => row.ours[vendor].bytes);
    const refTokens = sum((row) => row.reference.tokens[vendor]);
    const ourTokens = sum((row) => row.ours[vendor].tokens[vendor]);
    const ratio = ours / ref;
    console.log(
      `  ${vendor.padEnd(9)} ours ${kb(ours).padStart(6)} KB = ${ratio.toFixed(3)} x reference (goal <= ${bytesGoal}: ${ratio <= bytesGoal ? 'met' : 'NOT met'}), ` +
        `tokens ${refTokens} -> ${ourTokens} (${(ourTokens / refTokens).toFixed(3)} x), ` +
        `OCR agreement ref ${percent(mean(rows.map((row) => row.reference.ocr)))} % / ours ${percent(mean(rows.map((row) => row.ours[vendor].ocr)))} %, ` +
        `detector agreement ref ${percent(mean(rows.map((row) => row.reference.detection)))} % / ours ${percent(mean(rows.map((row) => row.ours[vendor].detection)))} %`,
    );
  }
}

async function main(): Promise<void> {
  const assets = sharedAssetsDir();
  if (!assets) {
    console.log(missingAssetsMessage);
    return;
  }
  const imagesDir = path.join(assets, 'images');
  const files = readdirSync(imagesDir)
    .flatMap((dir) => readdirSync(path.join(imagesDir, dir)).map((name) => path.join(imagesDir, dir, name)))
    .sort();
  const session = await createYoloSession(path.join(assets, 'models', 'yolox_nano.onnx'));
  const loadBefore = loadavg();
  const rows: Row[] = [];
  // Rows are printed as they are measured, so an interrupted run still shows what it measured.
  printHeader();
  for (const file of files) {
    const row = await measureAsset(file, session);
    rows.push(row);
    printRow(row);
  }
  const loadAfter = loadavg();
  printSummary(
    'photo',
    rows.filter((row) => row.kind === 'photo'),
  );
  printSummary(
    'screenshot-chart-text',
    rows.filter((row) => row.kind === 'graphic'),
  );
  printSummary('all', rows);
  const fmt = (load: number[]): string => load.map((value) => value.toFixed(2)).join(' ');
  console.log(`\nmachine load (1/5/15 min) before ${fmt(loadBefore)}, after ${fmt(loadAfter)}; ${availableParallelism()} cores`);
  console.log('OCR%: text agreement with the original (1 - edit distance / length; ours = worst of the 3 vendors per asset);');
  console.log('det%: detector label agreement with the original (shared labels / labels); "-": the original has no text / no detection.');
}

await main();
