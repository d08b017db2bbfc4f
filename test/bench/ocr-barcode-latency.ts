// Latency of the `ocr` and `pyzbar-mcp` servers as an agent sees it: real child processes over
// MCP stdio, timed per shared image after a warm-up call (model load, WebAssembly compile), which
// is reported as its own row. `npm run bench:vision` prints these rows.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';

export interface LatencyRow {
  label: string;
  ms: number;
}

async function timed<T>(body: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await body();
  return { value, ms: Math.round((performance.now() - start) * 10) / 10 };
}

async function startServer(entry: string, allowedRoot: string): Promise<Client> {
  const env = Object.fromEntries(Object.entries(process.env).filter((pair): pair is [string, string] => pair[1] !== undefined));
  const transport = new StdioClientTransport({
    command: 'node',
    args: ['--import', 'tsx', entry],
    cwd: repoRoot,
    env: { ...env, M3_ALLOWED_ROOTS: allowedRoot },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ocr-barcode-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function callChecked(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const first = (result.content as Array<{ text?: string }>)[0]?.text ?? 'no message';
    throw new Error(`${name} failed during the benchmark: ${first}`);
  }
}

async function measureServer(options: {
  prefix: string;
  entry: string;
  assets: string;
  folder: string;
  call: (client: Client, file: string) => Promise<void>;
}): Promise<LatencyRow[]> {
  const dir = path.join(options.assets, options.folder);
  const files = readdirSync(dir).sort();
  const rows: LatencyRow[] = [];
  const started = await timed(() => startServer(options.entry, options.assets));
  rows.push({ label: `${options.prefix}: start server`, ms: started.ms });
  const client = started.value;
  try {
    const first = files[0];
    if (!first) throw new Error(`${dir} holds no images to benchmark`);
    const warm = await timed(() => options.call(client, path.join(dir, first)));
    rows.push({ label: `${options.prefix}: warm-up call`, ms: warm.ms });
    for (const file of files) {
      const run = await timed(() => options.call(client, path.join(dir, file)));
      rows.push({ label: `${options.prefix} ${file}`, ms: run.ms });
    }
  } finally {
    await client.close();
  }
  return rows;
}

export async function measureOcrAndBarcodes(): Promise<LatencyRow[]> {
  const assets = sharedAssetsDir();
  if (!assets) throw new Error(missingAssetsMessage);
  const ocrRows = await measureServer({
    prefix: 'ocr',
    entry: 'servers/ocr/index.ts',
    assets,
    folder: 'images/ocr',
    call: (client, file) => callChecked(client, 'perform_ocr', { input_data: file, language: 'eng', config: '--oem 3 --psm 6' }),
  });
  const barcodeRows = await measureServer({
    prefix: 'scan',
    entry: 'servers/barcode/index.ts',
    assets,
    folder: 'images/barcode',
    call: (client, file) => callChecked(client, 'scan_barcode', { image_paths: [file] }),
  });
  return [...ocrRows, ...barcodeRows];
}
