// Tool-surface parity of the local servers with the reference catalog (tools_catalog.json):
// every catalog tool is listed with the same property names, types, defaults, nullability and
// required set, except the tools this repository cannot serve and a few documented extras; and
// every ground-truth call to these servers passes the harness's argument check
// (src/mcp/argument-check.ts), except the one call the reference server also refused.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentCheckProblems, catalogTools, gtCalls, schemaParityProblems } from '../support/reference-tools.js';
import { connectInProcess, serverKeyOf } from '../support/in-process-servers.js';
import { tinyPoseOnnx } from '../support/tiny-pose-model.js';

interface LocalServer {
  catalog: string;
  entry: string;
  gtCalls: number;
  /** Catalog tools not offered, with the reason (docs/servers.md "Local servers and tools"). */
  leftOut: string[];
  /** Optional properties of ours beyond the reference schema. */
  extras: string[];
  /** Tools whose required set is deliberately smaller, with the set expected instead. */
  relaxedRequired?: Record<string, string[]>;
  /** GT calls the reference server refused too (arguments outside its schema). */
  refused?: RegExp[];
  /** Extra environment of the server. */
  env?: () => Record<string, string>;
}

let tinyPoseModel = '';

const servers: LocalServer[] = [
  {
    catalog: 'ppt',
    entry: 'servers/ppt/index.ts',
    gtCalls: 88,
    leftOut: [],
    extras: ['create_presentation.presentation_id'],
  },
  { catalog: 'excel', entry: 'servers/excel/index.ts', gtCalls: 62, leftOut: [], extras: ['create_workbook.sheet_name'] },
  {
    catalog: 'imagesorcery-mcp',
    entry: 'servers/imageops/index.ts',
    gtCalls: 51,
    leftOut: [],
    extras: [],
    // 00070008 (first copy) calls draw_circles with {image_path, coordinates}: FastMCP rejected it
    // (input_path and circles are required), and so does the argument check.
    refused: [/^00070008 draw_circles .*must have required property 'input_path'; arguments must have required property 'circles'$/],
  },
  { catalog: 'math', entry: 'servers/math/index.ts', gtCalls: 13, leftOut: [], extras: [] },
  {
    catalog: 'dinox-mcp',
    entry: 'servers/yolo/index.ts',
    gtCalls: 58,
    // The pose tool is listed only with a pose model: the server runs with the tiny generated one.
    leftOut: [],
    env: () => ({ M3_YOLO_POSE_MODEL: tinyPoseModel }),
    extras: [
      'detect-all-objects.annotate',
      'detect-all-objects.scoreThreshold',
      'detect-objects-by-text.annotate',
      'detect-objects-by-text.scoreThreshold',
      'visualize-detection-result.outputPath',
    ],
    // As the reference's own local detector (the reference's 2026 local YOLO replacement): includeDescription defaults to false.
    relaxedRequired: {
      'detect-all-objects': ['imageFileUri'],
      'detect-objects-by-text': ['imageFileUri', 'textPrompt'],
      'detect-human-pose-keypoints': ['imageFileUri'],
    },
  },
  { catalog: 'ocr', entry: 'servers/ocr/index.ts', gtCalls: 32, leftOut: [], extras: [] },
  { catalog: 'pyzbar-mcp', entry: 'servers/barcode/index.ts', gtCalls: 13, leftOut: [], extras: ['scan_barcode.formats'] },
];

const listed = new Map<string, Tool[]>();
const clients: Client[] = [];

beforeAll(async () => {
  tinyPoseModel = path.join(await mkdtemp(path.join(tmpdir(), 'm3-parity-')), 'tiny-pose.onnx');
  await writeFile(tinyPoseModel, tinyPoseOnnx());
  for (const server of servers) {
    const { client } = await connectInProcess(serverKeyOf(server.entry), { env: server.env?.() ?? {} });
    clients.push(client);
    listed.set(server.catalog, (await client.listTools()).tools);
  }
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  if (tinyPoseModel) await rm(path.dirname(tinyPoseModel), { recursive: true, force: true });
});

describe.each(servers)('$catalog', (server) => {
  it('lists every catalog tool it can serve, with the reference input schema', () => {
    const catalog = catalogTools(server.catalog);
    if (!catalog) return void console.warn('shared catalog absent: skipping schema parity');
    const tools = listed.get(server.catalog) ?? [];
    const missing = Object.keys(catalog).filter((name) => !tools.some((tool) => tool.name === name));
    expect(missing.sort()).toEqual([...server.leftOut].sort());
    const served = Object.fromEntries(Object.entries(catalog).filter(([name]) => !server.leftOut.includes(name)));
    const problems = schemaParityProblems(tools, served, server.relaxedRequired);
    const extras = problems
      .filter((problem) => problem.endsWith(': not in the reference schema'))
      .map((problem) => problem.replace(': not in the reference schema', ''));
    expect(extras.sort()).toEqual([...server.extras].sort());
    expect(problems.filter((problem) => !problem.endsWith(': not in the reference schema'))).toEqual([]);
  });

  it('accepts every ground-truth call (the way the reference did)', () => {
    const calls = gtCalls(server.catalog);
    if (!calls) return void console.warn('shared GT absent: skipping the GT argument check');
    expect(calls).toHaveLength(server.gtCalls);
    const problems = argumentCheckProblems(server.catalog, listed.get(server.catalog) ?? [], calls);
    const refused = server.refused ?? [];
    expect(problems.filter((problem) => !refused.some((pattern) => pattern.test(problem)))).toEqual([]);
    expect(problems).toHaveLength(refused.length);
  });
});

describe('GT calls outside the schema (STATS.md §8)', () => {
  it('accepts the stray image_paths of 00110003 on crop and detect-objects-by-text, as FastMCP and zod ignored it', () => {
    const crop = (gtCalls('imagesorcery-mcp') ?? []).filter((call) => call.taskId === '00110003' && 'image_paths' in call.arguments);
    const detect = (gtCalls('dinox-mcp') ?? []).filter((call) => call.taskId === '00110003' && 'image_paths' in call.arguments);
    if (!gtCalls('dinox-mcp')) return;
    expect([crop.length, detect.length]).toEqual([3, 1]);
    expect(argumentCheckProblems('imagesorcery-mcp', listed.get('imagesorcery-mcp') ?? [], crop)).toEqual([]);
    expect(argumentCheckProblems('dinox-mcp', listed.get('dinox-mcp') ?? [], detect)).toEqual([]);
  });
});
