// `npm run bench:vision`: what does `detect-all-objects` cost on top of the model? For each
// detection photo, in one run and interleaved round by round (so drifting load hits every column
// alike): the call through the detector (dinox-mcp) child process, the in-process stages of the current path
// (decode + resize, letterbox into a pooled tensor, run, decode + NMS), the previous
// preprocessing and onnxruntime defaults (test/support/yolo-reference-preprocess.ts), and a bare
// InferenceSession.run. Cold rows are each photo's first call on a fresh server (libvips' cache is
// off there, so warm rows are not flattered by a content cache). Not a test: it prints a table.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as ort from 'onnxruntime-node';
import { createYoloSession, defaultScoreThreshold, nmsIouThreshold, runModel } from '../../servers/yolo/detector.js';
import { cocoLabels } from '../../servers/yolo/labels.js';
import { decodeOutput, nonMaxSuppression, toOriginalFrame } from '../../servers/yolo/postprocess.js';
import { decodeForLetterbox, inputSize, toInputTensorData } from '../../servers/yolo/preprocess.js';
import { disableImageCache, takeTensorBuffer } from '../../servers/yolo/session-options.js';
import { createReferenceSession, referencePrepareImage } from '../support/yolo-reference-preprocess.js';
import { missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';

const repeats = Number(process.env.M3_BENCH_REPEATS ?? 5);
const targetRatio = 1.5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const settleMs = 50;
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, settleMs));

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

async function connectYolo(assets: string, model: string): Promise<Client> {
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'servers/yolo/index.ts'],
    cwd: repoRoot,
    env: { ...env, M3_YOLO_MODEL: model, M3_ALLOWED_ROOTS: assets },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'vision-bench', version: '0.1.0' });
  await client.connect(transport);
  return client;
}

interface Row {
  image: string;
  size: string;
  coldMs: number;
  mcpMs: number;
  decodeMs: number;
  letterboxMs: number;
  runMs: number;
  postMs: number;
  oldPrepMs: number;
  oldRunMs: number;
}

type Stage = Exclude<keyof Row, 'image' | 'size'>;
const stages: Stage[] = ['coldMs', 'mcpMs', 'decodeMs', 'letterboxMs', 'runMs', 'postMs', 'oldPrepMs', 'oldRunMs'];

async function callDetect(client: Client, file: string): Promise<void> {
  const result = await client.callTool({ name: 'detect-all-objects', arguments: { imageFileUri: pathToFileURL(file).href, includeDescription: true } });
  if (result.isError) throw new Error(`detect-all-objects failed on ${file}: ${JSON.stringify(result.content)}`);
}

/** One round of every in-process column on one photo; returns milliseconds per stage. */
async function measureRound(
  file: string,
  current: ort.InferenceSession,
  reference: ort.InferenceSession,
): Promise<Omit<Row, 'image' | 'size' | 'coldMs' | 'mcpMs'> & { size: string }> {
  const bytes = readFileSync(file);
  const buffer = takeTensorBuffer();
  try {
    let at = performance.now();
    const decoded = await decodeForLetterbox(bytes);
    const decodeMs = performance.now() - at;
    at = performance.now();
    const data = toInputTensorData(decoded.pixels, decoded.info.width, decoded.info.height, decoded.info.channels, inputSize, buffer.data);
    const letterboxMs = performance.now() - at;
    at = performance.now();
    const output = await runModel(current, data);
    const runMs = performance.now() - at;
    at = performance.now();
    const boxes = decodeOutput(output, { size: inputSize, numClasses: cocoLabels.length, scoreThreshold: defaultScoreThreshold });
    toOriginalFrame(nonMaxSuppression(boxes, nmsIouThreshold), decoded.letterbox.scale, decoded.width, decoded.height);
    const postMs = performance.now() - at;
    at = performance.now();
    const old = await referencePrepareImage(readFileSync(file));
    const oldPrepMs = performance.now() - at;
    const oldRunMs = await timed(() => runModel(reference, old.data));
    // The previous session options let onnxruntime's workers spin-wait after a run; on 2 cores that
    // spinning took the CPU from whatever was timed next (the next MCP call showed 10-20 ms more).
    await settle();
    return { size: `${decoded.width}x${decoded.height}`, decodeMs, letterboxMs, runMs, postMs, oldPrepMs, oldRunMs };
  } finally {
    buffer.release();
  }
}

async function measureDetection(assets: string): Promise<{ rows: Row[]; firstCallMs: number }> {
  const model = path.join(assets, 'models', 'yolox_nano.onnx');
  const manifest = JSON.parse(readFileSync(path.join(assets, 'MANIFEST.json'), 'utf8')) as { files: Array<{ path: string }> };
  const photos = manifest.files.map((file) => file.path).filter((file) => file.startsWith('images/detection/'));
  disableImageCache();
  const current = await createYoloSession(model);
  const reference = await createReferenceSession(model);
  const client = await connectYolo(assets, model);
  const rows: Row[] = [];
  try {
    // The server's very first call includes loading the model: reported apart, on a photo
    // that is measured again below (its cold row is then a second-seen photo, like the others).
    const firstCallMs = await timed(() => callDetect(client, path.join(assets, photos[0] ?? '')));
    await measureRound(path.join(assets, photos[0] ?? ''), current, reference);
    for (const photo of photos) {
      const file = path.join(assets, photo);
      const coldMs = photo === photos[0] ? Number.NaN : await timed(() => callDetect(client, file));
      const samples: Record<string, number[]> = Object.fromEntries(stages.map((stage) => [stage, []]));
      let size = '';
      for (let round = 0; round < repeats; round += 1) {
        samples.mcpMs!.push(await timed(() => callDetect(client, file)));
        const measured = await measureRound(file, current, reference);
        size = measured.size;
        for (const stage of stages.slice(2)) samples[stage]!.push(measured[stage as Exclude<Stage, 'coldMs' | 'mcpMs'>]);
      }
      const medians = Object.fromEntries(stages.slice(1).map((stage) => [stage, median(samples[stage]!)])) as Omit<Row, 'image' | 'size' | 'coldMs'>;
      rows.push({ image: path.basename(photo), size, coldMs, ...medians });
    }
    return { rows, firstCallMs };
  } finally {
    await client.close();
    await current.release();
    await reference.release();
  }
}

const fixed = (value: number, width: number) => (Number.isNaN(value) ? '-' : value.toFixed(1)).padStart(width);

function printDetection({ rows, firstCallMs }: { rows: Row[]; firstCallMs: number }): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
  out(`YOLOX-Nano detect-all-objects: cold = first call per photo, warm = median of ${repeats} interleaved rounds (ms)`);
  out(
    ['image'.padEnd(24), 'size'.padStart(9), 'cold', 'warm MCP', 'decode', 'letterbox', 'run', 'post', 'MCP rest', 'MCP/run', 'old prep', 'old run']
      .map((h, i) => (i < 2 ? h : h.padStart(9)))
      .join(' '),
  );
  for (const row of rows) {
    const rest = row.mcpMs - row.decodeMs - row.letterboxMs - row.runMs - row.postMs;
    out(
      `${row.image.padEnd(24)} ${row.size.padStart(9)} ${[row.coldMs, row.mcpMs, row.decodeMs, row.letterboxMs, row.runMs, row.postMs, rest].map((v) => fixed(v, 9)).join(' ')} ` +
        `${(row.mcpMs / row.runMs).toFixed(2).padStart(9)} ${fixed(row.oldPrepMs, 9)} ${fixed(row.oldRunMs, 9)}`,
    );
  }
  const total = (key: Stage) => rows.reduce((sum, row) => sum + (Number.isNaN(row[key]) ? 0 : row[key]), 0);
  const prep = total('decodeMs') + total('letterboxMs');
  const colds = rows.filter((row) => !Number.isNaN(row.coldMs));
  out(`first call of the fresh server (model load included): ${firstCallMs.toFixed(1)} ms`);
  out(`cold/warm MCP ratio over the photos after the first: ${(colds.reduce((s, r) => s + r.coldMs, 0) / colds.reduce((s, r) => s + r.mcpMs, 0)).toFixed(2)}`);
  out(
    `warm MCP/run ratio ${(total('mcpMs') / total('runMs')).toFixed(2)} on the summed medians (median per image ${median(rows.map((r) => r.mcpMs / r.runMs)).toFixed(2)}; target <= ${targetRatio})`,
  );
  out(
    `stage shares of warm MCP: decode ${share(total('decodeMs'), total('mcpMs'))}, letterbox ${share(total('letterboxMs'), total('mcpMs'))}, run ${share(total('runMs'), total('mcpMs'))}, post ${share(total('postMs'), total('mcpMs'))}`,
  );
  out(
    `preprocessing now/previous ${(prep / total('oldPrepMs')).toFixed(2)}; run with tuned/default session options ${(total('runMs') / total('oldRunMs')).toFixed(2)}`,
  );
  out(`machine load average at the end: ${load()} on ${availableParallelism()} cores`);
}

const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)} %`;

async function printOcrAndBarcodes(): Promise<void> {
  const helper = path.join(repoRoot, 'test', 'bench', 'ocr-barcode-latency.ts');
  if (!existsSync(helper)) {
    process.stdout.write('\nOCR / barcode: test/bench/ocr-barcode-latency.ts not present, skipped\n');
    return;
  }
  const module = (await import(pathToFileURL(helper).href)) as { measureOcrAndBarcodes?: () => Promise<Array<{ label: string; ms: number }>> };
  if (typeof module.measureOcrAndBarcodes !== 'function') throw new Error(`${helper} does not export measureOcrAndBarcodes()`);
  const rows = await module.measureOcrAndBarcodes();
  process.stdout.write('\nOCR / barcode latency\n');
  for (const row of rows) process.stdout.write(`${row.label.padEnd(48)} ${row.ms.toFixed(1).padStart(9)} ms\n`);
}

async function main(): Promise<void> {
  const assets = sharedAssetsDir();
  if (!assets) throw new Error(missingAssetsMessage);
  printDetection(await measureDetection(assets));
  await printOcrAndBarcodes();
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:vision: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
