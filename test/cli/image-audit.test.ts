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
    mock.enqueue(...turns(), ...turns(), ...turns());
    const conditions = ['baseline', 'images-off', 'images-dropped'];
    const outcome = await runM3(
      [
        'run',
        '--model',
        'openai:mock-model',
        '--tasks',
        tasksFile,
        '--config',
        configFile,
        '--image-dir',
        dir,
        '--results-dir',
        path.join(dir, 'results'),
        '--store',
        store,
        '--run-id',
        'audit',
        ...conditions.flatMap((condition) => ['--condition', condition]),
        '--concurrency',
        '1',
      ],
      env(),
    );
    expect(outcome.code, outcome.output).toBe(0);
    const cells = loadBatchManifest(path.join(dir, 'results', 'audit.batch.json')).cells;
    expect(cells).toHaveLength(3);
    const generations = mock.generations();
    expect(generations).toHaveLength(6);

    for (const [index, cell] of cells.entries()) {
      const audited = await runM3(['runs', 'images', cell.runId, '--store', store, '--json'], env());
      expect(audited.code, audited.output).toBe(0);
      const audit = JSON.parse(audited.stdout) as ImageAudit;
      const requests = generations.slice(index * 2, index * 2 + 2);
      const onWire = requests.map((request) => wireImages(request.body));
      // Per request: the images the audit says went out are the image parts the mock received.
      expect(audit.perRequest.map((request) => request.images.filter((image) => image.status !== 'dropped').length)).toEqual(onWire);
      // The store's rows are what the audit read.
      const db = openStore(store, { readonly: true });
      try {
        const rows = episodesForRun(db, cell.runId).flatMap((episode) => modelCallsForEpisode(db, episode.id));
        expect(rows.map((row) => row.images)).toEqual(audit.perRequest.map((request) => request.images));
      } finally {
        db.close();
      }
      // One task photo in both requests, the tool's 40x30 image in the second.
      expect(audit.perRequest.map((request) => request.images.map((image) => image.origin))).toEqual([['task'], ['task', 'tool']]);
      expect(audit.toolImages).toHaveLength(1);
      expect(audit.toolImages[0]).toMatchObject({ width: 40, height: 30, round: 2 });
      const condition = conditions[index];
      const entries = audit.perRequest.flatMap((request) => request.images);
      if (condition === 'baseline') {
        expect(onWire).toEqual([1, 2]);
        expect(entries.every((image) => image.status === 'sent' && image.bytes > 0)).toBe(true);
        expect(audit.reasons).toEqual({});
      } else if (condition === 'images-off') {
        expect(onWire).toEqual([1, 2]);
        expect(entries.every((image) => image.status === 'placeholder' && image.reason === 'condition images-off')).toBe(true);
        expect(audit.reasons).toEqual({ 'condition images-off': 3 });
      } else {
        expect(onWire).toEqual([0, 0]);
        expect(entries.every((image) => image.status === 'dropped' && image.bytes === 0 && image.reason === 'condition images-dropped')).toBe(true);
        expect(audit.entries.tool.dropped).toBe(1);
        const text = await runM3(['runs', 'images', cell.runId, '--store', store], env());
        expect(text.stdout).toContain('3 dropped (3 condition images-dropped)');
        expect(text.stdout).toMatch(/tool image image\/make_image image 1 40x30 dropped: condition images-dropped/);
      }
    }
  }, 300_000);
});
