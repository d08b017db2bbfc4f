// `npm run bench:vision`: what does MCP cost on top of the model? For each detection photo,
// the warm latency of `detect-all-objects` through the detector (dinox-mcp) child process (file read,
// decode, letterbox, run, decode + NMS, JSON-RPC) next to a bare InferenceSession.run on the
// same preprocessed tensor, in one run, with the ratio (target <= 1.5). Then the OCR and
// barcode rows, when the helper that measures them exists. Not a test: it prints a table.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createYoloSession, runModel } from '../../servers/yolo/detector.js';
import { prepareImage } from '../../servers/yolo/preprocess.js';
import { missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';

const repeats = Number(process.env.M3_BENCH_REPEATS ?? 5);
const targetRatio = 1.5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

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
  mcpMs: number;
  runMs: number;
  prepareMs: number;
  /** Fastest of the repeats: the least load-disturbed estimate on a busy machine. */
  mcpMinMs: number;
  runMinMs: number;
}

async function measureDetection(assets: string): Promise<Row[]> {
  const model = path.join(assets, 'models', 'yolox_nano.onnx');
  const manifest = JSON.parse(readFileSync(path.join(assets, 'MANIFEST.json'), 'utf8')) as { files: Array<{ path: string }> };
  const photos = manifest.files.map((file) => file.path).filter((file) => file.startsWith('images/detection/'));
  const session = await createYoloSession(model);
  const client = await connectYolo(assets, model);
  const rows: Row[] = [];
  try {
    const first = path.join(assets, photos[0] ?? '');
    // Warm both sides: session creation and first-run allocations are not what we compare.
    await client.callTool({ name: 'detect-all-objects', arguments: { imageFileUri: first, includeDescription: false } });
    await runModel(session, (await prepareImage(readFileSync(first))).data);
    for (const photo of photos) {
      const file = path.join(assets, photo);
      const mcp: number[] = [];
      const bare: number[] = [];
      const prepare: number[] = [];
      let size = '';
      for (let round = 0; round < repeats; round += 1) {
        // Interleaved so drifting machine load hits both columns alike.
        mcp.push(await timed(async () => {
          const result = await client.callTool({ name: 'detect-all-objects', arguments: { imageFileUri: pathToFileURL(file).href, includeDescription: true } });
          if (result.isError) throw new Error(`detect-all-objects failed on ${photo}: ${JSON.stringify(result.content)}`);
        }));
        let prepared: Awaited<ReturnType<typeof prepareImage>> | undefined;
        prepare.push(await timed(async () => {
          prepared = await prepareImage(readFileSync(file));
        }));
        if (!prepared) throw new Error('prepareImage returned nothing');
        const data = prepared.data;
        size = `${prepared.width}x${prepared.height}`;
        bare.push(await timed(() => runModel(session, data)));
      }
      rows.push({ image: path.basename(photo), size, mcpMs: median(mcp), runMs: median(bare), prepareMs: median(prepare), mcpMinMs: Math.min(...mcp), runMinMs: Math.min(...bare) });
    }
  } finally {
    await client.close();
    await session.release();
  }
  return rows;
}

function printDetection(rows: Row[]): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`YOLOX-Nano detect-all-objects: median of ${repeats} warm calls per image`);
  out(`${'image'.padEnd(24)} ${'size'.padStart(9)} ${'MCP ms'.padStart(8)} ${'run ms'.padStart(8)} ${'ratio'.padStart(6)} ${'prep ms'.padStart(8)}`);
  for (const row of rows) {
    const ratio = row.mcpMs / row.runMs;
    out(
      `${row.image.padEnd(24)} ${row.size.padStart(9)} ${row.mcpMs.toFixed(1).padStart(8)} ${row.runMs.toFixed(1).padStart(8)} ` +
        `${ratio.toFixed(2).padStart(6)} ${row.prepareMs.toFixed(1).padStart(8)}${ratio > targetRatio ? '  over target' : ''}`,
    );
  }
  const total = (key: 'mcpMs' | 'runMs' | 'mcpMinMs' | 'runMinMs') => rows.reduce((sum, row) => sum + row[key], 0);
  const ratios = rows.map((row) => row.mcpMs / row.runMs);
  out(
    `overall MCP/run ratio ${(total('mcpMs') / total('runMs')).toFixed(2)} on medians, ${(total('mcpMinMs') / total('runMinMs')).toFixed(2)} on the fastest ` +
      `of each (median per image ${median(ratios).toFixed(2)}; target <= ${targetRatio})`,
  );
  out('"prep ms" is the in-process decode + letterbox, which the MCP column includes and the run column does not');
  out(`machine load average at the end: ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
}

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
