// Open-vocabulary detect-objects-by-text on tiny generated models (test/support/tiny-world-model.ts):
// the prompt's terms go through the real tokenizer and text-encoder session, their embeddings
// reach the YOLO-World-shaped detector (two slots per pass, so a three-term prompt takes two
// passes), and the boxes decode into the reference's payload named by the terms. Without the
// models the tool keeps its COCO-80 description.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInProcess } from '../support/in-process-servers.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAssetManifest } from '../../src/assets/index.js';
import { loadTextEncoder } from '../../servers/yolo/clip-text.js';
import { decodeWorldOutput, findOpenVocabModels } from '../../servers/yolo/world-model.js';
import { repoRoot } from '../support/shared-assets.js';
import { tinyClipTextOnnx, tinyClipTokenizerJson, tinyWorldOnnx } from '../support/tiny-world-model.js';

let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'm3-open-vocab-'));
  env = {
    M3_YOLO_WORLD_MODEL: path.join(work, 'world.onnx'),
    M3_CLIP_TEXT_MODEL: path.join(work, 'text_model.onnx'),
    M3_CLIP_TOKENIZER: path.join(work, 'tokenizer.json'),
  };
  await writeFile(env.M3_YOLO_WORLD_MODEL as string, tinyWorldOnnx());
  await writeFile(env.M3_CLIP_TEXT_MODEL as string, tinyClipTextOnnx());
  await writeFile(env.M3_CLIP_TOKENIZER as string, JSON.stringify(tinyClipTokenizerJson()));
  // 64 x 32: the 32 x 32 input is stretched back by 2 horizontally and 1 vertically.
  await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 90, g: 90, b: 90 } } })
    .png()
    .toFile(path.join(work, 'site.png'));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('open-vocabulary parts (in-process)', () => {
  it('encodes each term with the tokenizer and the text model, L2-normalised', async () => {
    const encoder = await loadTextEncoder(env.M3_CLIP_TEXT_MODEL as string, env.M3_CLIP_TOKENIZER as string);
    const [ladder, hardhat, unknown] = await encoder.encode(['Ladder', 'hardhat', 'pineapple']);
    expect([...(ladder ?? [])]).toEqual([0, 1, 0, 0]);
    expect([...(hardhat ?? [])]).toEqual([1, 0, 0, 0]);
    expect([...(unknown ?? [])]).toEqual([0, 0, 0, 1]);
  });

  it('decodes the best slot per anchor and names a wrong layout', () => {
    // 2 anchors, 2 slots: anchor 0 slot 1 (0.7), anchor 1 below the threshold.
    const output = Float32Array.from([10, 30, 10, 30, 4, 6, 4, 6, 0.1, 0.2, 0.7, 0.1]);
    expect(decodeWorldOutput(output, { slots: 2, anchors: 2, scoreThreshold: 0.25 })).toEqual([
      { classId: 1, score: expect.closeTo(0.7, 5), x1: 8, y1: 8, x2: 12, y2: 12 },
    ]);
    expect(() => decodeWorldOutput(output, { slots: 3, anchors: 2, scoreThreshold: 0.25 })).toThrow(/output has 12 values, expected 7 x 2/);
  });

  it('finds the three files through the switches or the vision-models manifest, else none', async () => {
    expect(findOpenVocabModels(env)).toEqual({ world: env.M3_YOLO_WORLD_MODEL, textModel: env.M3_CLIP_TEXT_MODEL, tokenizer: env.M3_CLIP_TOKENIZER });
    expect(() => findOpenVocabModels({ ...env, M3_CLIP_TOKENIZER: path.join(work, 'absent.json') })).toThrow(/M3_CLIP_TOKENIZER points at .*absent\.json/);
    const shipped = JSON.parse(await readFile(path.join(repoRoot, 'media', 'vision-models.json'), 'utf8')) as { assets: Array<{ name: string; path: string }> };
    const manifest = parseAssetManifest(shipped, 'media/vision-models.json');
    expect(manifest.assets.map((asset) => asset.name)).toEqual(['yolo11n-pose', 'yolov8s-worldv2', 'clip-vit-b32/text-model', 'clip-vit-b32/tokenizer']);
    const unpulled = path.join(work, 'vision-models.json');
    await writeFile(unpulled, JSON.stringify({ ...shipped, assets: shipped.assets.map((asset) => ({ ...asset, path: `not-pulled/${asset.path}` })) }));
    // Only the world model configured: the text encoder is neither configured nor pulled.
    expect(findOpenVocabModels({ M3_YOLO_WORLD_MODEL: env.M3_YOLO_WORLD_MODEL }, unpulled)).toBeUndefined();
  });
});

async function connect(extra: Record<string, string>): Promise<Client> {
  return (await connectInProcess('dinox-mcp', { env: { M3_ALLOWED_ROOTS: work, ...extra } })).client;
}

type Answer = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };

describe('detect-objects-by-text over MCP with the open-vocabulary models', () => {
  it('searches every term as written and names the model that ran', async () => {
    const client = await connect(env);
    try {
      const tool = (await client.listTools()).tools.find((entry) => entry.name === 'detect-objects-by-text');
      expect(tool?.description).toMatch(/open-vocabulary detector \(YOLO-World\)/);
      const ask = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: 'detect-objects-by-text', arguments: { imageFileUri: path.join(work, 'site.png'), ...args } })) as Answer;
      const answer = await ask({ textPrompt: 'ladder. hardhat. wolf', includeDescription: true });
      expect(answer.isError).not.toBe(true);
      const [summary, details, , modelLine] = answer.content.map((part) => part.text);
      expect(summary).toBe('Objects detected in image: hardhat (1), ladder (1).');
      const objects = JSON.parse((details ?? '').replace(/^Detailed object detection results: /, '')) as unknown[];
      expect(objects).toEqual([
        { name: 'hardhat', bbox: { xmin: 8, ymin: 4, xmax: 24, ymax: 12 }, score: 0.9, description: 'hardhat at (8,4)-(24,12), 90%' },
        { name: 'ladder', bbox: { xmin: 32, ymin: 12, xmax: 48, ymax: 28 }, score: 0.6, description: 'ladder at (32,12)-(48,28), 60%' },
      ]);
      expect(modelLine).toMatch(/^Detector: YOLO-World \(open vocabulary, local ONNX world\.onnx, CLIP text encoder\); .*score above 0\.25\./);
      expect(modelLine).toMatch(/Prompt terms searched by the open-vocabulary model: "ladder", "hardhat", "wolf"\.$/);
      // The third term ran in a second pass: under a lower threshold it is found.
      const low = await ask({ textPrompt: 'ladder. hardhat. wolf', scoreThreshold: 0.05 });
      expect(low.structuredContent?.counts).toEqual({ hardhat: 1, ladder: 1, wolf: 1 });
      expect((low.structuredContent?.objects as Array<{ name: string; bbox: unknown }>).find((object) => object.name === 'wolf')?.bbox).toEqual({
        xmin: 52,
        ymin: 2,
        xmax: 60,
        ymax: 6,
      });
    } finally {
      await client.close();
    }
  });

  it('keeps the COCO-80 description without the models', async () => {
    const client = await connect({});
    try {
      const tool = (await client.listTools()).tools.find((entry) => entry.name === 'detect-objects-by-text');
      expect(tool?.description).toMatch(/mapped onto the 80 COCO classes/);
    } finally {
      await client.close();
    }
  });
});
