// The image-delivery audit (m3 runs images) against the wire: `m3 run` (in this process:
// test/support/m3-in-process.ts; the tool servers are real children) runs tasks against the mock
// LLM. One task (its photo, then a tool that returns an image) runs under baseline, images-off and
// images-dropped: for each cell the audit's sent images equal the image parts the mock received in
// that cell's requests, the store's per-request payload summary (count, bytes) is what the mock
// received (placeholder bytes under images-off, 0 under images-dropped), and the ablated cells list
// every replaced or dropped image with the condition as the reason. Another task's tools return
// five images, name a file outside the allowed roots, a corrupt file and a missing one: the four
// images sent are the ones on the wire, and each image that never reached a request is in the audit
// with its reason; in the same run a missing task photo's stand-in is a placeholder, and a task
// whose photo does not decode is listed as ended before any request.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { episodesForRun, modelCallsForEpisode, openStore } from '../../src/store/index.js';
import type { ImageAudit } from '../../src/store/index.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { assertAssetsInCi, sharedAssetsDir } from '../support/shared-assets.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-image-audit-'));
let mock: MockLlm;
const assets = sharedAssetsDir();
const env = () => ({
  OPENAI_BASE_URL: mock.openAiBaseUrl,
  OPENAI_API_KEY: 'sk-test-openai-key-000000000000',
  M3_LLM_MAX_RETRIES: '0',
  M3_WORKSPACE_MODE: 'isolated',
});

beforeAll(async () => {
  assertAssetsInCi();
  mock = await startMockLlm();
});
afterAll(async () => {
  await mock?.close();
});

/** Image parts (data URLs) of a chat request body, decoded. */
function wireImages(body: unknown): Buffer[] {
  const found: Buffer[] = [];
  const visit = (value: unknown) => {
    const match = typeof value === 'string' ? /^data:image\/[a-z+]+;base64,(.*)$/s.exec(value) : null;
    if (match) found.push(Buffer.from(match[1] ?? '', 'base64'));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(body);
  return found;
}

const configFile = path.join(dir, 'servers.json');
const store = path.join(dir, 'store.sqlite');

interface Cell {
  runId: string;
  /** Per request the cell sent, the image payloads the mock received. */
  onWire: Buffer[][];
  audit: ImageAudit;
}

/** One `m3 run` of a task file under one condition; the mock's requests since the last run are this cell's. */
async function runCell(
  tasksFile: string,
  runId: string,
  condition: string,
  turns: Parameters<MockLlm['enqueue']>,
  extraEnv: Record<string, string> = {},
  extraFlags: string[] = [],
): Promise<Cell> {
  const before = mock.generations().length;
  mock.enqueue(...turns);
  // A results folder per cell: the cells' prediction files share the model's name.
  const results = path.join(dir, `results-${runId}`);
  const args = ['--tasks', tasksFile, '--config', configFile, '--image-dir', dir, '--run-dir', results, '--store', store];
  const flags = ['--run-id', runId, '--condition', condition, '--concurrency', '1', '--max-concurrent', '4', ...extraFlags];
  const outcome = await runM3InProcess(['run', '--model', 'openai:mock-model', ...args, ...flags], { ...env(), ...extraEnv });
  expect(outcome.code, outcome.output).toBe(0);
  const cellRunId = loadBatchManifest(path.join(results, `${runId}.batch.json`)).cells[0]?.runId ?? '';
  const onWire = mock
    .generations()
    .slice(before)
    .map((request) => wireImages(request.body));
  const audited = await runM3InProcess(['runs', 'images', cellRunId, '--store', store, '--json'], env());
  expect(audited.code, audited.output).toBe(0);
  return { runId: cellRunId, onWire, audit: JSON.parse(audited.stdout) as ImageAudit };
}

/** The store's model_calls rows of a cell, in request order. */
function storedCalls(runId: string) {
  const db = openStore(store, { readonly: true });
  try {
    return episodesForRun(db, runId).flatMap((episode) => modelCallsForEpisode(db, episode.id));
  } finally {
    db.close();
  }
}

const byteSum = (images: readonly Buffer[]) => images.reduce((sum, image) => sum + image.length, 0);

describe.skipIf(!assets)('m3 runs images', () => {
  beforeAll(() => {
    copyFileSync(path.join(assets as string, 'images', 'detection', 'apple_orange.jpg'), path.join(dir, 'photo.jpg'));
    writeFileSync(
      configFile,
      JSON.stringify({ servers: { image: { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/image.ts'), env: {} } } }),
    );
  });

  it('counts what the wire received, in the audit and the payload summary, and names every replaced or dropped image with its reason', async () => {
    const tasksFile = path.join(dir, 'tasks.json');
    writeFileSync(
      tasksFile,
      JSON.stringify([{ id: 'a1', image: 'photo.jpg', type: 'vision', prompt: 'make an image', question: 'What fruit is in the photo?' }]),
    );
    const turns = () => [{ toolCalls: [{ name: 'image__make_image', arguments: { width: 40, height: 30 } }] }, { text: 'An apple and an orange.' }];
    for (const condition of ['baseline', 'images-off', 'images-dropped']) {
      const { runId, onWire, audit } = await runCell(tasksFile, `audit-${condition}`, condition, turns());
      // Per request, in order: the images the audit says went out are the image parts the mock received, byte for byte.
      expect(audit.perRequest.map((request) => request.images.filter((image) => image.status !== 'dropped').length)).toEqual(
        onWire.map((images) => images.length),
      );
      expect(audit.perRequest.map((request) => request.images.reduce((sum, image) => sum + image.bytes, 0))).toEqual(onWire.map(byteSum));
      // The store's rows are what the audit read, and their payload summary is what the mock received.
      const rows = storedCalls(runId);
      expect(rows.map((row) => row.images)).toEqual(audit.perRequest.map((request) => request.images));
      expect(rows.map((row) => [row.imagePayload.count, row.imagePayload.bytes])).toEqual(onWire.map((images) => [images.length, byteSum(images)]));
      // The task photo in every request, the tool's 40x30 image from the request after its call.
      const entries = audit.perRequest.flatMap((request) => request.images);
      expect(audit.perRequest.every((request) => request.images[0]?.origin === 'task')).toBe(true);
      expect(audit.toolImages).toContainEqual(expect.objectContaining({ width: 40, height: 30, tool: 'image__make_image' }));
      if (condition === 'baseline') {
        expect(onWire.at(-1)).toHaveLength(2);
        expect(entries.every((image) => image.status === 'sent' && image.bytes > 0)).toBe(true);
        expect(audit.reasons).toEqual({});
      } else if (condition === 'images-off') {
        expect(onWire.at(-1)).toHaveLength(2);
        expect(entries.every((image) => image.status === 'placeholder' && image.reason === 'condition images-off')).toBe(true);
        expect(audit.reasons).toEqual({ 'condition images-off': entries.length });
        // The summary's token estimate is the placeholders' (same pixel size), never zero, never the real photo's bytes.
        expect(rows.every((row) => (row.imagePayload.estimatedTokens ?? 0) > 0)).toBe(true);
      } else {
        expect(onWire.every((images) => images.length === 0)).toBe(true);
        expect(rows.map((row) => row.imagePayload)).toEqual(rows.map(() => ({ count: 0, bytes: 0, estimatedTokens: 0 })));
        expect(entries.every((image) => image.status === 'dropped' && image.bytes === 0 && image.reason === 'condition images-dropped')).toBe(true);
        expect(audit.entries.tool.dropped).toBeGreaterThan(0);
        const text = await runM3InProcess(['runs', 'images', runId, '--store', store], env());
        expect(text.stdout).toContain(`${entries.length} dropped (${entries.length} condition images-dropped)`);
        expect(text.stdout).toMatch(/image__make_image \(call [^)]+\): image\/make_image image 1 40x30 [^:\n]*: condition images-dropped/);
        // Each dropped image once, not once per request that repeated it.
        const listed = text.stdout.split('\n').filter((line) => /image__make_image \(call /.test(line));
        expect(listed.length).toBe(audit.toolImages.length);
      }
    }
  }, 560_000);

  it('gives a request the provider refused its audit entries and payload summary too', async () => {
    const tasksFile = path.join(dir, 'tasks-refused.json');
    writeFileSync(tasksFile, JSON.stringify([{ id: 'f1', image: 'photo.jpg', type: 'vision', prompt: 'look', question: 'What fruit is in the photo?' }]));
    const refused = { fault: { kind: 'status' as const, status: 400, message: 'refused by the test' } };
    const { runId, onWire, audit } = await runCell(tasksFile, 'audit-refused', 'images-off', [refused]);
    expect(onWire.map((images) => images.length)).toEqual([1]);
    const rows = storedCalls(runId);
    expect(rows.map((row) => row.errorClass)).toEqual(['invalid_request']);
    expect(rows.map((row) => [row.imagePayload.count, row.imagePayload.bytes])).toEqual([[1, byteSum(onWire[0] ?? [])]]);
    expect(audit.perRequest[0]?.images).toEqual([expect.objectContaining({ origin: 'task', status: 'placeholder', reason: 'condition images-off' })]);
  }, 300_000);

  it('records each tool image that never reached a request (over the per-call limit, outside the allowed roots, corrupt, missing) with its reason', async () => {
    const allowed = path.join(dir, 'allowed');
    const outside = path.join(dir, 'outside');
    mkdirSync(allowed, { recursive: true });
    mkdirSync(outside, { recursive: true });
    const outsideFile = path.join(outside, 'real.jpg');
    copyFileSync(path.join(dir, 'photo.jpg'), outsideFile);
    // A real PNG cut short: its header says PNG, its pixels do not decode.
    const corruptFile = path.join(allowed, 'broken.png');
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 200, b: 40 } } })
      .png()
      .toBuffer();
    writeFileSync(corruptFile, png.subarray(0, Math.floor(png.length * 0.6)));
    const missingFile = path.join(allowed, 'never-written.png');
    const tasksFile = path.join(dir, 'tasks-drops.json');
    // d2's photo does not exist (a stand-in is sent under --placeholder-images); d3's does not decode, so d3 ends before any request.
    copyFileSync(corruptFile, path.join(dir, 'broken-task.png'));
    writeFileSync(
      tasksFile,
      JSON.stringify([
        { id: 'd1', image: 'photo.jpg', type: 'vision', prompt: 'tools', question: 'What fruit is in the photo?' },
        { id: 'd2', image: 'absent-photo.jpg', type: 'vision', prompt: 'look', question: 'What is in the photo?' },
        { id: 'd3', image: 'broken-task.png', type: 'vision', prompt: 'look', question: 'What is in the photo?' },
      ]),
    );
    const calls = [
      { name: 'image__make_images', arguments: { count: 5, width: 20, height: 10 } },
      { name: 'image__name_file', arguments: { path: outsideFile } },
      { name: 'image__name_file', arguments: { path: corruptFile } },
      { name: 'image__name_file', arguments: { path: missingFile } },
    ];
    const { runId, onWire, audit } = await runCell(
      tasksFile,
      'audit-drops',
      'baseline',
      [{ toolCalls: calls }, { text: 'An apple.' }, { text: 'Nothing.' }],
      { M3_ALLOWED_ROOTS: allowed },
      ['--placeholder-images'],
    );
    // d1: the photo, then the photo and the first four of the five tool images; d2: its stand-in; nothing else reached the wire.
    expect(onWire.map((images) => images.length)).toEqual([1, 5, 1]);
    const rows = storedCalls(runId);
    expect(rows.map((row) => [row.imagePayload.count, row.imagePayload.bytes])).toEqual(onWire.map((images) => [images.length, byteSum(images)]));
    const second = audit.perRequest[1]?.images ?? [];
    expect(second.filter((image) => image.status === 'sent')).toHaveLength(5);
    const dropped = second.filter((image) => image.status === 'dropped');
    const callIds = new Set(second.filter((image) => image.origin === 'tool').map((image) => image.callId));
    expect(callIds.size).toBe(4);
    // Compared as plain tuples, so a failure prints every entry in full.
    const droppedFacts = dropped.map((image) => [image.origin, image.tool, image.source, image.bytes, image.reason]);
    expect(droppedFacts.map((facts) => facts.slice(0, 4))).toEqual([
      ['tool', 'image__make_images', 'image/make_images image 5', 0],
      ['tool', 'image__name_file', outsideFile, 0],
      ['tool', 'image__name_file', corruptFile, 0],
      ['tool', 'image__name_file', missingFile, 0],
    ]);
    expect(droppedFacts.map((facts) => facts[4])).toEqual(['over_per_call_limit', 'outside_allowed_roots', expect.any(String), 'file_not_found']);
    expect(droppedFacts[2]?.[4]).toMatch(/^prepare_failed: .*corrupt or unreadable image\/png/);
    expect(dropped.every((image) => image.callId && callIds.has(image.callId))).toBe(true);
    // Each tool image once: five from make_images (four sent, one dropped), one per named file.
    expect(audit.toolImages.map((image) => image.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'dropped', 'dropped', 'dropped', 'dropped']);
    const text = await runM3InProcess(['runs', 'images', runId, '--store', store], env());
    // Counted per kind of reason, placeholders apart and never listed one by one.
    expect(text.stdout).toContain('1 placeholder(s) (1 missing task image: --placeholder-images stand-in), ');
    expect(text.stdout).toContain('4 dropped (1 file_not_found, 1 outside_allowed_roots, 1 over_per_call_limit, 1 prepare_failed)');
    expect(text.stdout).not.toContain('absent-photo.jpg');
    expect(audit.perRequest[2]?.images).toEqual([expect.objectContaining({ origin: 'task', status: 'placeholder', bytes: onWire[2]?.[0]?.length })]);
    // d3 never made a request: listed apart with its error.
    expect(audit.taskImagesNotLoaded).toEqual([expect.objectContaining({ taskId: 'd3', errorCode: 'bad_task_input' })]);
    expect(text.stdout).toMatch(/task images never sent \(the attempt ended before its first request\):\n {2}d3 attempt 1 bad_task_input: .*broken-task\.png/);
    expect(text.stdout).toContain(`): ${outsideFile} size unknown: outside_allowed_roots`);
    const shown = await runM3InProcess(['runs', 'show', runId, '--store', store], env());
    expect(shown.code, shown.output).toBe(0);
    expect(shown.stdout).toContain('4 dropped (1 file_not_found, 1 outside_allowed_roots, 1 over_per_call_limit, 1 prepare_failed)');
  }, 300_000);
});
