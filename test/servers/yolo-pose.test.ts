// detect-human-pose-keypoints on a tiny generated pose model (test/support/tiny-pose-model.ts)
// whose output is known by hand: the real loading (onnxruntime-node), letterbox, decoding, NMS
// and the mapping back to image pixels, in-process and through the server over MCP; and without
// a pose model the tool is not listed.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInProcess } from '../support/in-process-servers.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAssetManifest } from '../../src/assets/index.js';
import { decodePoseOutput, keypointNames } from '../../servers/yolo/pose-decode.js';
import { detectPoses, findPoseModel, loadPoseSession } from '../../servers/yolo/pose-model.js';
import { repoRoot } from '../support/shared-assets.js';
import { POSE_ANCHORS, tinyPoseOnnx } from '../support/tiny-pose-model.js';

let work: string;
let model: string;

/** A 64 x 32 image of one colour: scale 0.5, resized to 32 x 16, 8 rows of padding above and below. */
const flatImage = (value: number) =>
  sharp({ create: { width: 64, height: 32, channels: 3, background: { r: value, g: value, b: value } } })
    .png()
    .toBuffer();

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'm3-pose-'));
  model = path.join(work, 'tiny-pose.onnx');
  await writeFile(model, tinyPoseOnnx());
  await writeFile(path.join(work, 'white.png'), await flatImage(255));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Anchor 0 of the tiny model in image pixels: (input - pad) / scale, clipped to 64 x 32. */
const firstPerson = {
  x1: 16,
  y1: 0,
  x2: 48,
  y2: 32,
  keypoints: keypointNames.map((_name, k) => ({ x: 20 + 2 * k, y: Math.max(0, 2 * k - 6), score: k % 2 === 0 ? 0.9 : 0.1 })),
};

describe('pose model (in-process)', () => {
  it('reads the input size from the model and decodes persons into image pixels', async () => {
    const session = await loadPoseSession(model);
    expect(session.size).toBe(32);
    // Dark image: the input mean (0.5 * 114/255) stays under the 0.25 threshold, so only anchor 0;
    // anchor 1 overlaps it (IoU > 0.7) and is suppressed.
    const dark = await detectPoses(session, await flatImage(0));
    expect({ width: dark.width, height: dark.height }).toEqual({ width: 64, height: 32 });
    expect(dark.people).toHaveLength(1);
    const [person] = dark.people;
    expect(person?.score).toBeCloseTo(0.9, 5);
    expect({ x1: person?.x1, y1: person?.y1, x2: person?.x2, y2: person?.y2 }).toEqual({ x1: 16, y1: 0, x2: 48, y2: 32 });
    person?.keypoints.forEach((point, k) => {
      const expected = firstPerson.keypoints[k];
      expect([point.x, point.y, point.score]).toEqual([expected?.x, expected?.y, expect.closeTo(expected?.score ?? -1, 5)]);
    });
    // White image: mean 0.5 + 0.5 * 114/255 = 0.7235 becomes anchor 2's score, a second person.
    const bright = await detectPoses(session, await flatImage(255));
    expect(bright.people.map((entry) => Math.round(entry.score * 10000) / 10000)).toEqual([0.9, 0.7235]);
    expect(bright.people[1]).toMatchObject({ x1: 12, y1: 0, x2: 20, y2: 4 });
  });

  it('names a wrong output layout', () => {
    expect(() => decodePoseOutput(new Float32Array(55 * POSE_ANCHORS), { anchors: POSE_ANCHORS, scoreThreshold: 0.25, iouThreshold: 0.7 })).toThrow(
      /pose model output has 1155 values, expected 56 x 21/,
    );
  });

  it('finds the model through M3_YOLO_POSE_MODEL or the vision-models manifest, else none', async () => {
    expect(findPoseModel({ M3_YOLO_POSE_MODEL: model })).toBe(model);
    expect(() => findPoseModel({ M3_YOLO_POSE_MODEL: path.join(work, 'absent.onnx') })).toThrow(/absent\.onnx, which does not exist/);
    const manifest = path.join(work, 'vision-models.json');
    const shipped = JSON.parse(await readFile(path.join(repoRoot, 'media', 'vision-models.json'), 'utf8')) as { assets: Array<Record<string, unknown>> };
    expect(parseAssetManifest(shipped, 'media/vision-models.json').assets.map((asset) => asset.name)).toContain('yolo11n-pose');
    // The shipped entry with a path that is not pulled here: no model.
    shipped.assets[0] = { ...shipped.assets[0], path: 'models/not-pulled-pose.onnx' };
    await writeFile(manifest, JSON.stringify(shipped));
    expect(findPoseModel({}, manifest)).toBeUndefined();
  });
});

async function connect(env: Record<string, string>): Promise<Client> {
  return (await connectInProcess('dinox-mcp', { env: { M3_ALLOWED_ROOTS: work, ...env } })).client;
}

describe('detect-human-pose-keypoints over MCP', () => {
  it("answers in the reference's layout when a pose model is present", async () => {
    const client = await connect({ M3_YOLO_POSE_MODEL: model });
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('detect-human-pose-keypoints');
      const result = (await client.callTool({
        name: 'detect-human-pose-keypoints',
        arguments: { imageFileUri: path.join(work, 'white.png'), includeDescription: true },
      })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError).not.toBe(true);
      const [count, details, note, modelLine] = result.content.map((part) => part.text);
      expect(count).toBe('2 human(s) detected in image.');
      expect(note).toMatch(/^Note: The bbox coordinates are in \{xmin, ymin, xmax, ymax\} format/);
      expect(modelLine).toMatch(/^Pose model: YOLO pose \(Ultralytics export, local ONNX tiny-pose\.onnx\); image ".*white\.png" \(64x32 pixels\)/);
      const objects = JSON.parse((details ?? '').replace(/^Detailed human pose keypoints detection results: /, '')) as Array<Record<string, unknown>>;
      expect(objects[0]).toMatchObject({
        name: 'person',
        bbox: { xmin: 16, ymin: 0, xmax: 48, ymax: 32 },
        score: 0.9,
        description: 'person at (16,0)-(48,32), 90%, 9 of 17 keypoints visible',
      });
      const pose = objects[0]?.pose as Record<string, { x: number; y: number; visible: string }>;
      expect(Object.keys(pose)).toEqual([...keypointNames]);
      expect(pose.nose).toEqual({ x: 20, y: 0, visible: 'visible' });
      expect(pose.leftEye).toEqual({ x: 22, y: 0, visible: 'not visible' });
      expect(pose.rightAnkle).toEqual({ x: 52, y: 26, visible: 'visible' });
    } finally {
      await client.close();
    }
  });

  it('is not listed without a pose model', async () => {
    const client = await connect({ M3_ALLOWED_ROOTS: work });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('detect-all-objects');
      expect(names).not.toContain('detect-human-pose-keypoints');
    } finally {
      await client.close();
    }
  });
});
