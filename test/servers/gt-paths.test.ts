// Every file-path form the original ground truth (test_mcp_GT.json) passes to our local servers
// ("./media/<id>.png", "images/<id>.png", "/tmp/<name>.xlsx", "./media/<name>.pptx", ...,
// enumerated from the GT here, not listed by hand) maps into the task's workspace through
// servers/shared/task-paths.ts: deterministically (the same place for the same argument, whatever
// the task), never outside the workspace, read back under the same name it was written, with the
// mapping on the server's stderr and in the result's `_meta["m3bench/paths"]`, and without any
// change to the arguments (the mapping lives in the server; what the model sent is recorded).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapIntoWorkspace } from '../../servers/shared/task-paths.js';
import { CALL_CONTEXT_META_KEY, type CallContext, type MappedPathMeta, TOOL_PATHS_META_KEY } from '../../src/core/tool-result-contract.js';
import { repoRoot, sharedDataDir } from '../support/shared-assets.js';
import { nodeEntryArgs } from '../support/built-entry.js';

/** Our servers that resolve file arguments through task-paths.ts, by their GT key. */
const localServers = ['ppt', 'excel', 'imagesorcery-mcp', 'dinox-mcp', 'ocr', 'pyzbar-mcp'];
const fileExtension = /\.(png|jpe?g|bmp|gif|webp|tiff?|xlsx|xlsm|xls|pptx)$/i;

interface GtPath {
  taskId: string;
  tool: string;
  key: string;
  value: string;
}

/** String arguments (or array items) that name one file: no blanks or line breaks, a file extension, no URL. */
function collect(value: unknown, key: string, found: (key: string, value: string) => void): void {
  if (typeof value === 'string') {
    if (!/\s/.test(value) && fileExtension.test(value) && !/^(https?|data):/i.test(value)) found(key, value);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, key, found);
  } else if (value && typeof value === 'object') {
    for (const [inner, item] of Object.entries(value)) collect(item, inner, found);
  }
}

function gtPaths(): GtPath[] {
  const dir = sharedDataDir();
  if (!dir) return [];
  const records = JSON.parse(readFileSync(path.join(dir, 'test_mcp_GT.json'), 'utf8')) as Array<{
    id: string;
    steps: Array<{ calls: Array<{ name: string; arguments?: unknown }> }>;
  }>;
  const paths: GtPath[] = [];
  for (const record of records) {
    for (const call of record.steps.flatMap((step) => step.calls)) {
      if (!localServers.includes(call.name.split('/')[0] ?? '')) continue;
      collect(call.arguments ?? {}, '', (key, value) => paths.push({ taskId: record.id, tool: call.name, key, value }));
    }
  }
  return paths;
}

/** The folder part as written, the file name replaced: "./media/<name>.png", "/tmp/<name>.xlsx". */
function formOf(value: string): string {
  const slash = value.lastIndexOf('/');
  return `${value.slice(0, slash + 1)}<name>${path.extname(value).toLowerCase()}`;
}

const all = gtPaths();
const forms = new Map<string, GtPath>();
for (const entry of all) if (!forms.has(formOf(entry.value))) forms.set(formOf(entry.value), entry);
const mediaRoot = realpathSync(path.join(repoRoot, 'media'));

describe.skipIf(all.length === 0)('GT path forms (shared test_mcp_GT.json)', () => {
  it('are found in the GT: several forms, each with the servers that receive it', () => {
    expect(forms.size, [...forms.keys()].join('\n')).toBeGreaterThanOrEqual(6);
  });

  it('map every GT path into the workspace, the same way for every task', () => {
    const [first, second] = ['/work/x/media/runs/r1/00010001', '/srv/other/runs/r9/00990009'];
    const problems: string[] = [];
    for (const { value, taskId, tool } of all) {
      try {
        const a = mapIntoWorkspace(value, first, mediaRoot);
        const b = mapIntoWorkspace(value, second, mediaRoot);
        const relative = path.relative(first, a);
        if (relative.startsWith('..') || path.isAbsolute(relative) || relative === '')
          problems.push(`${taskId} ${tool} "${value}": ${a} is not a file inside the workspace`);
        if (path.relative(second, b) !== relative)
          problems.push(`${taskId} ${tool} "${value}": depends on the workspace (${relative} vs ${path.relative(second, b)})`);
        if (mapIntoWorkspace(value, first, mediaRoot) !== a) problems.push(`${taskId} ${tool} "${value}": not deterministic`);
      } catch (error) {
        problems.push(`${taskId} ${tool} "${value}": ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

interface Started {
  client: Client;
  stderr: string[];
}

const work = mkdtempSync(path.join(tmpdir(), 'm3-gt-paths-'));
const started = new Map<string, Started>();
const context: CallContext = { taskId: '00990001', runId: 'gt-paths', workspace: path.join(realpathSync(work), 'runs', 'gt-paths', '00990001') };

async function start(entry: string): Promise<Started> {
  const client = new Client({ name: 'gt-paths-test', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: nodeEntryArgs(entry),
    cwd: repoRoot,
    env: { ...getDefaultEnvironment(), M3_ALLOWED_ROOTS: work },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  await client.connect(transport);
  return { client, stderr };
}

/** One call with the task context; the result's text and its path mappings. */
async function call(server: string, name: string, args: Record<string, unknown>): Promise<{ text: string; mappings: MappedPathMeta[] }> {
  const connection = started.get(server);
  if (!connection) throw new Error(`${server} not started`);
  const sent = structuredClone(args);
  const result = (await connection.client.callTool({ name, arguments: args, _meta: { [CALL_CONTEXT_META_KEY]: context } })) as {
    isError?: boolean;
    content: Array<{ type: string; text?: string }>;
    _meta?: Record<string, unknown>;
  };
  const text = result.content.find((part) => part.type === 'text')?.text ?? '';
  if (result.isError) throw new Error(`${server}/${name} ${JSON.stringify(args)} failed: ${text}`);
  expect(args, 'the arguments are not rewritten').toEqual(sent);
  return { text, mappings: (result._meta?.[TOOL_PATHS_META_KEY] as MappedPathMeta[] | undefined) ?? [] };
}

beforeAll(async () => {
  mkdirSync(context.workspace, { recursive: true });
  await sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc6633' } })
    .png()
    .toFile(path.join(work, 'photo.png'));
  for (const [name, entry] of [
    ['imagesorcery-mcp', 'servers/imageops/index.ts'],
    ['excel', 'servers/excel/index.ts'],
    ['ppt', 'servers/ppt/index.ts'],
  ] as const)
    started.set(name, await start(entry));
}, 120_000);

afterAll(async () => {
  for (const connection of started.values()) await connection.client.close();
  rmSync(work, { recursive: true, force: true });
});

/** Writes a file under the GT path with the tool that makes that kind of file, then reads it back. */
async function writeAndRead(given: string): Promise<MappedPathMeta[]> {
  const extension = path.extname(given).toLowerCase();
  if (extension === '.xlsx' || extension === '.xlsm' || extension === '.xls') {
    const written = await call('excel', 'create_workbook', { filepath: given });
    const read = await call('excel', 'get_workbook_metadata', { filepath: given });
    return [...written.mappings, ...read.mappings];
  }
  if (extension === '.pptx') {
    await call('ppt', 'create_presentation', {});
    return (await call('ppt', 'save_presentation', { file_path: given })).mappings;
  }
  const source = path.join(work, 'photo.png');
  const written = await call('imagesorcery-mcp', 'resize', { input_path: source, width: 20, output_path: given });
  const read = await call('imagesorcery-mcp', 'get_metadata', { input_path: given });
  expect(read.text).toContain('"width":20');
  return [...written.mappings, ...read.mappings];
}

describe.skipIf(all.length === 0)('GT path forms through the real servers under a task context', () => {
  it('write and read each form inside the workspace, logged on stderr and listed in _meta', async () => {
    for (const [form, example] of forms) {
      const expected = mapIntoWorkspace(example.value, context.workspace, mediaRoot);
      const mappings = await writeAndRead(example.value);
      const file = path.relative(context.workspace, expected).split(path.sep).join('/');
      expect(existsSync(expected), `${form}: ${expected}`).toBe(true);
      expect(mappings.length, form).toBeGreaterThan(0);
      expect(
        mappings.every((entry) => entry.given === example.value && entry.file === file),
        `${form}: ${JSON.stringify(mappings)}`,
      ).toBe(true);
      const logs = [...started.values()].flatMap((connection) => connection.stderr).join('');
      expect(logs, form).toContain(`[paths] task ${context.taskId}: ${JSON.stringify(example.value)} -> ${expected}`);
    }
  }, 120_000);

  it('reads a task image copied into the workspace (as the runner does) under the GT names images/<id>.png and ./media/<id>.png', async () => {
    const imageForms = [...forms.values()].filter((entry) => /^(\.\/)?(images|media)\/[^/]+\.png$/.test(entry.value));
    expect(imageForms.length).toBeGreaterThanOrEqual(2);
    for (const { value } of imageForms) {
      const target = path.join(context.workspace, path.basename(value));
      copyFileSync(path.join(work, 'photo.png'), target);
      const read = await call('imagesorcery-mcp', 'get_metadata', { input_path: value });
      expect(read.text).toContain('"width":40');
      expect(read.mappings).toEqual([{ given: value, file: path.basename(value) }]);
    }
  }, 60_000);
});
