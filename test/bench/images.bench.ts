// `npm run bench:images`: what the image payload policies send for the 55 shared assets. Per
// asset, in one run: the raw bytes, the reference rule (M3_IMAGE_POLICY=reference: re-encode above
// 512 KB, longest edge 1568) and the transport policy for OpenAI, Anthropic and Gemini; each
// payload's estimated image tokens per vendor (src/media/vision-tokens.ts); and legibility: our
// OCR engine (servers/ocr) and detector (servers/yolo) run on the original and on every sent
// image, reported as what of the original's confident text and objects the sent image keeps,
// against the original file and against what the vendor itself keeps of it (test/bench/legibility.ts
// defines both, and the output prints the definitions). M3_BENCH_ONLY=<text> measures only the
// assets whose path contains it. Not a test: it prints a table, with the machine load.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import type * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { createYoloSession } from '../../servers/yolo/detector.js';
import { imageDestinationFor } from '../../src/llm/image-destination.js';
import { classOf, imageStatistics, type ImageClass } from '../../src/media/image-class.js';
import { prepareImage } from '../../src/media/prepare-image.js';
import { vendorCap } from '../../src/media/transport-size.js';
import { type VisionVendor, visionTokens } from '../../src/media/vision-tokens.js';
import { missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';
import { type Agreement, addAgreements, agreement, legibilityDefinition, see } from './legibility.js';

const vendors: VisionVendor[] = ['openai', 'anthropic', 'gemini'];
const specs: Record<VisionVendor, string> = { openai: 'openai:gpt-4o', anthropic: 'anthropic:claude-sonnet-4-5', gemini: 'gemini:gemini-2.5-flash' };
const reference = { recodeOverKb: 512, maxEdge: 1568 };
const bytesGoal = 0.4;

interface Sent {
  bytes: number;
  tokens: Record<VisionVendor, number>;
  /** Legibility against the original file. */
  original: Agreement;
  /** Against what the vendor itself keeps of the original (ours only, per vendor). */
  vendorView?: Agreement;
}

interface Row {
  name: string;
  kind: ImageClass;
  raw: number;
  reference: Sent;
  ours: Record<VisionVendor, Sent>;
}

/** M3_BENCH_LEGIBILITY=0 skips OCR and the detector (bytes and tokens only: minutes instead of tens of minutes on a busy machine). */
const withLegibility = process.env.M3_BENCH_LEGIBILITY !== '0';
const none: Agreement = { lines: 0, linesKept: 0, objects: 0, objectsKept: 0 };

/** The original as the vendor's own pipeline would resize it, losslessly (the original itself when no resize applies). */
async function vendorView(bytes: Buffer, vendor: VisionVendor): Promise<Buffer> {
  const metadata = await sharp(bytes).metadata();
  const turned = (metadata.orientation ?? 1) >= 5;
  const size = { width: (turned ? metadata.height : metadata.width) ?? 0, height: (turned ? metadata.width : metadata.height) ?? 0 };
  const kept = vendorCap(size, imageDestinationFor(specs[vendor]));
  if (kept.width === size.width && kept.height === size.height) return bytes;
  return sharp(bytes).rotate().resize(kept.width, kept.height, { fit: 'fill' }).png().toBuffer();
}

async function measure(part: { data: string; facts?: { width: number; height: number } }, session: ort.InferenceSession, baselines: Buffer[]): Promise<Sent> {
  const bytes = Buffer.from(part.data, 'base64');
  const size = { width: part.facts?.width ?? 0, height: part.facts?.height ?? 0 };
  const tokens = Object.fromEntries(vendors.map((vendor) => [vendor, visionTokens(vendor, size)])) as Record<VisionVendor, number>;
  if (!withLegibility) return { bytes: bytes.length, tokens, original: none };
  // One at a time: OCR and the detector each use every core they get.
  const seen = [];
  for (const image of [bytes, ...baselines]) seen.push(await see(image, session));
  const [sent, original, vendorKept] = seen;
  return {
    bytes: bytes.length,
    tokens,
    original: agreement(original!, sent!),
    ...(vendorKept ? { vendorView: agreement(vendorKept, sent!) } : {}),
  };
}

async function measureAsset(file: string, session: ort.InferenceSession): Promise<Row> {
  const bytes = readFileSync(file);
  const kind = classOf(await imageStatistics(bytes));
  const referencePart = await prepareImage(bytes, file, reference);
  const ours = {} as Record<VisionVendor, Sent>;
  for (const vendor of vendors) {
    const part = await prepareImage(bytes, file, { ...reference, transport: imageDestinationFor(specs[vendor]) });
    ours[vendor] = await measure(part, session, withLegibility ? [bytes, await vendorView(bytes, vendor)] : []);
  }
  return {
    name: path.relative(path.dirname(path.dirname(file)), file),
    kind,
    raw: bytes.length,
    reference: await measure(referencePart, session, [bytes]),
    ours,
  };
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(0);
const kept = (part: number, whole: number): string => (whole === 0 ? '-' : `${part}/${whole}`);
const share = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(0)} %`);

function printHeader(): void {
  console.log(
    'asset                               class    raw KB  ref KB | ours KB O/A/G    | tokens ref O/A/G  | tokens ours O/A/G | text kept ref | ours O/A/G    | objects kept ref | ours O/A/G',
  );
}

function printRow(row: Row): void {
  const ours = vendors.map((vendor) => kb(row.ours[vendor].bytes)).join('/');
  const refTokens = vendors.map((vendor) => row.reference.tokens[vendor]).join('/');
  const ourTokens = vendors.map((vendor) => row.ours[vendor].tokens[vendor]).join('/');
  const text = vendors.map((vendor) => kept(row.ours[vendor].original.linesKept, row.ours[vendor].original.lines)).join(' ');
  const objects = vendors.map((vendor) => kept(row.ours[vendor].original.objectsKept, row.ours[vendor].original.objects)).join(' ');
  console.log(
    `${row.name.padEnd(35)} ${row.kind.padEnd(8)} ${kb(row.raw).padStart(6)} ${kb(row.reference.bytes).padStart(7)} | ${ours.padEnd(16)} | ${refTokens.padEnd(17)} | ${ourTokens.padEnd(17)} | ` +
      `${kept(row.reference.original.linesKept, row.reference.original.lines).padEnd(13)} | ${text.padEnd(13)} | ${kept(row.reference.original.objectsKept, row.reference.original.objects).padEnd(16)} | ${objects}`,
  );
}

function legibilityLine(label: string, values: Agreement[]): string {
  const total = addAgreements(values);
  return (
    `${label}: text kept ${share(total.linesKept, total.lines)} (${total.linesKept}/${total.lines} lines; same text ${total.sameText}/${total.withText} assets), ` +
    `objects kept ${share(total.objectsKept, total.objects)} (${total.objectsKept}/${total.objects}; same labels ${total.sameObjects}/${total.withObjects} assets)`
  );
}

function printSummary(label: string, rows: Row[]): void {
  if (rows.length === 0) return;
  const sum = (pick: (row: Row) => number): number => rows.reduce((total, row) => total + pick(row), 0);
  const raw = sum((row) => row.raw);
  const ref = sum((row) => row.reference.bytes);
  console.log(`\n${label} (${rows.length} assets): raw ${kb(raw)} KB, reference ${kb(ref)} KB (${share(ref, raw)} of raw)`);
  if (withLegibility)
    console.log(
      `  ${legibilityLine(
        'reference vs original',
        rows.map((row) => row.reference.original),
      )}`,
    );
  for (const vendor of vendors) {
    const ours = sum((row) => row.ours[vendor].bytes);
    const refTokens = sum((row) => row.reference.tokens[vendor]);
    const ourTokens = sum((row) => row.ours[vendor].tokens[vendor]);
    const ratio = ours / ref;
    console.log(
      `  ${vendor.padEnd(9)} ours ${kb(ours).padStart(6)} KB = ${ratio.toFixed(3)} x reference (goal <= ${bytesGoal}: ${ratio <= bytesGoal ? 'met' : 'NOT met'}), ` +
        `tokens ${refTokens} -> ${ourTokens} (${(ourTokens / refTokens).toFixed(3)} x)`,
    );
    if (!withLegibility) continue;
    console.log(
      `            ${legibilityLine(
        'vs original',
        rows.map((row) => row.ours[vendor].original),
      )}`,
    );
    console.log(
      `            ${legibilityLine(
        `vs what ${vendor} keeps of the original`,
        rows.map((row) => row.ours[vendor].vendorView ?? none),
      )}`,
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
    .filter((file) => file.includes(process.env.M3_BENCH_ONLY ?? ''))
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
  if (withLegibility)
    for (const line of ['', ...legibilityDefinition, 'Rows: kept/confident against the original; "-": nothing confident to read or find.']) console.log(line);
}

await main();
