// The image-delivery audit (m3 runs images) against the wire: a real `m3 run` child process runs
// one task (its photo, then a tool that returns an image) under baseline, images-off and
// images-dropped against the mock LLM. For each cell the audit's sent images equal the image
// parts the mock received in that cell's requests, the store's rows say the same, and the
// ablated cells list every replaced or dropped image with the condition as the reason.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { episodesForRun, modelCallsForEpisode, openStore } from '../../src/store/index.js';
import type { ImageAudit } from '../../src/store/index.js';
import { runM3 } from '../support/m3-child.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { assertAssetsInCi, sharedAssetsDir } from '../support/shared-assets.js';

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

/** Image parts (data URLs) of a chat request body. */
function wireImages(body: unknown): number {
  let found = 0;
  const visit = (value: unknown) => {
    if (typeof value === 'string') found += /^data:image\/[a-z+]+;base64,/.test(value) ? 1 : 0;
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(body);
  return found;
}

describe.skipIf(!assets)('m3 runs images', () => {
  it('counts what the wire received and names every replaced or dropped image with its reason', async () => {
    copyFileSync(path.join(assets as string, 'images', 'detection', 'apple_orange.jpg'), path.join(dir, 'photo.jpg'));
    const configFile = path.join(dir, 'servers.json');
    const tasksFile = path.join(dir, 'tasks.json');
    const store = path.join(dir, 'store.sqlite');
    writeFileSync(
      configFile,
      JSON.stringify({ servers: { image: { command: 'node', args: ['--import', 'tsx', 'test/support/fixture-servers/image.ts'], env: {} } } }),
    );
    writeFileSync(
      tasksFile,
      JSON.stringify([{ id: 'a1', image: 'photo.jpg', type: 'vision', prompt: 'make an image', question: 'What fruit is in the photo?' }]),
    );
    const turns = () => [{ toolCalls: [{ name: 'image__make_image', arguments: { width: 40, height: 30 } }] }, { text: 'An apple and an orange.' }];
    const conditions = ['baseline', 'images-off', 'images-dropped'];
    for (const condition of conditions) {
      // One `m3 run` per condition, so the requests the mock received since the last one are this cell's.
      const before = mock.generations().length;
      mock.enqueue(...turns());
      const runId = `audit-${condition}`;
      const args = ['--tasks', tasksFile, '--config', configFile, '--image-dir', dir, '--results-dir', path.join(dir, 'results'), '--store', store];
      const outcome = await runM3(['run', '--model', 'openai:mock-model', ...args, '--run-id', runId, '--condition', condition, '--concurrency', '1'], env());
      expect(outcome.code, outcome.output).toBe(0);
      const cellRunId = loadBatchManifest(path.join(dir, 'results', `${runId}.batch.json`)).cells[0]?.runId ?? '';
      const onWire = mock
        .generations()
        .slice(before)
        .map((request) => wireImages(request.body));
      const audited = await runM3(['runs', 'images', cellRunId, '--store', store, '--json'], env());
      expect(audited.code, audited.output).toBe(0);
      const audit = JSON.parse(audited.stdout) as ImageAudit;
      // Per request, in order: the images the audit says went out are the image parts the mock received.
      expect(audit.perRequest.map((request) => request.images.filter((image) => image.status !== 'dropped').length)).toEqual(onWire);
      // The store's rows are what the audit read.
      const db = openStore(store, { readonly: true });
      try {
        const rows = episodesForRun(db, cellRunId).flatMap((episode) => modelCallsForEpisode(db, episode.id));
        expect(rows.map((row) => row.images)).toEqual(audit.perRequest.map((request) => request.images));
      } finally {
        db.close();
      }
      // The task photo in every request, the tool's 40x30 image from the request after its call.
      const entries = audit.perRequest.flatMap((request) => request.images);
      expect(audit.perRequest.every((request) => request.images[0]?.origin === 'task')).toBe(true);
      expect(audit.toolImages).toContainEqual(expect.objectContaining({ width: 40, height: 30, tool: 'image__make_image' }));
      if (condition === 'baseline') {
        expect(onWire.at(-1)).toBe(2);
        expect(entries.every((image) => image.status === 'sent' && image.bytes > 0)).toBe(true);
        expect(audit.reasons).toEqual({});
      } else if (condition === 'images-off') {
        expect(onWire.at(-1)).toBe(2);
        expect(entries.every((image) => image.status === 'placeholder' && image.reason === 'condition images-off')).toBe(true);
        expect(audit.reasons).toEqual({ 'condition images-off': entries.length });
      } else {
        expect(onWire.every((count) => count === 0)).toBe(true);
        expect(entries.every((image) => image.status === 'dropped' && image.bytes === 0 && image.reason === 'condition images-dropped')).toBe(true);
        expect(audit.entries.tool.dropped).toBeGreaterThan(0);
        const text = await runM3(['runs', 'images', cellRunId, '--store', store], env());
        expect(text.stdout).toContain(`${entries.length} dropped (${entries.length} condition images-dropped)`);
        expect(text.stdout).toMatch(/tool image image\/make_image image 1 40x30 dropped \(call [^)]+ image__make_image\): condition images-dropped/);
      }
    }
  }, 560_000);
});
