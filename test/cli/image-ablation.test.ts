// The image ablation (m3 run --condition images-off), checked at the wire: `m3 run` (in this
// process: test/support/m3-in-process.ts; the requests it sends are the point, not its process)
// against the mock LLM runs the baseline and the ablated cell of one batch; the ablated
// requests carry a flat grey placeholder of each image's size (the task's photo and the image a
// tool returned) and none of the real bytes, while the baseline requests carry the real ones.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { assertAssetsInCi, sharedAssetsDir } from '../support/shared-assets.js';
import { nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-ablation-'));
let mock: MockLlm;
const assets = sharedAssetsDir();

beforeAll(async () => {
  assertAssetsInCi();
  mock = await startMockLlm();
});
afterAll(async () => {
  await mock?.close();
});

/** Every data-URL image of a chat request body, decoded. */
function imagesOf(body: unknown): Buffer[] {
  const found: Buffer[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      const match = /^data:image\/[a-z+]+;base64,(.+)$/s.exec(value);
      if (match?.[1]) found.push(Buffer.from(match[1], 'base64'));
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(body);
  return found;
}

async function pixels(bytes: Buffer): Promise<{ width: number; height: number; grey: boolean }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let grey = true;
  for (let index = 0; index < data.length; index += 1) if (data[index] !== 128) grey = false;
  return { width: info.width, height: info.height, grey };
}

describe.skipIf(!assets)('m3 run --condition images-off', () => {
  it('sends grey placeholders of the same size instead of the task photo and the tool image', async () => {
    const photo = path.join(assets as string, 'images', 'detection', 'apple_orange.jpg');
    copyFileSync(photo, path.join(dir, 'photo.jpg'));
    const size = await sharp(photo).metadata();
    const configFile = path.join(dir, 'servers.json');
    const tasksFile = path.join(dir, 'tasks.json');
    writeFileSync(
      configFile,
      JSON.stringify({ servers: { image: { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/image.ts'), env: {} } } }),
    );
    writeFileSync(
      tasksFile,
      JSON.stringify([{ id: 'a1', image: 'photo.jpg', type: 'vision', prompt: 'make an image', question: 'What fruit is in the photo?' }]),
    );
    const turns = () => [{ toolCalls: [{ name: 'image__make_image', arguments: { width: 40, height: 30 } }] }, { text: 'An apple and an orange.' }];
    mock.enqueue(...turns(), ...turns());
    const outcome = await runM3InProcess(
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
        '--run-dir',
        path.join(dir, 'results'),
        '--store',
        path.join(dir, 'store.sqlite'),
        '--run-id',
        'ablation',
        '--condition',
        'baseline',
        '--condition',
        'images-off',
        '--concurrency',
        '1',
      ],
      { OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000', M3_LLM_MAX_RETRIES: '0', M3_WORKSPACE_MODE: 'isolated' },
    );
    expect(outcome.code, outcome.output).toBe(0);
    const manifest = loadBatchManifest(path.join(dir, 'results', 'ablation.batch.json'));
    expect(manifest.cells.map((cell) => cell.label)).toEqual(['mock-model', 'mock-model+images-off']);
    const generations = mock.generations();
    expect(generations).toHaveLength(4);
    const [baselineFirst, baselineSecond, ablatedFirst, ablatedSecond] = await Promise.all(
      generations.map(async (request) => Promise.all(imagesOf(request.body).map(pixels))),
    );
    // Baseline: the real photo (at most downscaled by the harness), then the red tool image too.
    expect(baselineFirst?.some((image) => !image.grey)).toBe(true);
    expect(baselineSecond?.filter((image) => !image.grey)).toHaveLength(2);
    // Ablated: every image grey, at the size of the one it replaces.
    expect(ablatedFirst?.length).toBeGreaterThan(0);
    expect(ablatedSecond).toHaveLength(2);
    for (const image of [...(ablatedFirst ?? []), ...(ablatedSecond ?? [])]) expect(image.grey).toBe(true);
    expect(ablatedSecond?.some((image) => image.width === 40 && image.height === 30)).toBe(true);
    const photoShown = baselineFirst?.[0];
    expect(ablatedFirst?.[0]).toMatchObject({ width: photoShown?.width, height: photoShown?.height });
    expect(photoShown?.width).toBeLessThanOrEqual(size.width ?? 0);
  }, 240_000);
});
