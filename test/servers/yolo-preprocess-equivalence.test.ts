// The single-pipeline preprocessing, the reused tensor buffers and the tuned session options
// must not change a single detection: on every real detection photo of the shared assets, the
// current path (prepareImage into a pooled buffer + yoloSessionOptions) is compared with the
// reference path of test/support/yolo-reference-preprocess.ts computed in the same run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cocoLabels } from '../../servers/yolo/labels.js';
import { decodeOutput, nonMaxSuppression, toOriginalFrame, type Box } from '../../servers/yolo/postprocess.js';
import { createYoloSession, defaultScoreThreshold, detectObjects, nmsIouThreshold, runModel } from '../../servers/yolo/detector.js';
import { checkImageBytes } from '../../servers/shared/image-input.js';
import { inputSize, type PreparedImage, prepareImage } from '../../servers/yolo/preprocess.js';
import { createReferenceSession, referencePrepareImage } from '../support/yolo-reference-preprocess.js';
import { assertAssetsInCi, loadSharedManifest, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';

assertAssetsInCi();
const assets = sharedAssetsDir();
const photos = ((loadSharedManifest()?.files ?? []) as Array<{ path: string }>).map((file) => file.path).filter((file) => file.startsWith('images/detection/'));

// The reference tensor of each photo, made once: the tensor test compares it with the current
// path, the detection test runs the reference session on it (each sharp pass costs tens of ms).
const referenceInputs = new Map<string, Promise<PreparedImage>>();
function referenceInput(photo: string, bytes: Buffer): Promise<PreparedImage> {
  let prepared = referenceInputs.get(photo);
  if (!prepared) {
    prepared = referencePrepareImage(bytes);
    referenceInputs.set(photo, prepared);
  }
  return prepared;
}

async function referenceDetections(session: ort.InferenceSession, photo: string, bytes: Buffer): Promise<Box[]> {
  const prepared = await referenceInput(photo, bytes);
  const output = await runModel(session, prepared.data);
  const decoded = decodeOutput(output, { size: inputSize, numClasses: cocoLabels.length, scoreThreshold: defaultScoreThreshold });
  return toOriginalFrame(nonMaxSuppression(decoded, nmsIouThreshold), prepared.letterbox.scale, prepared.width, prepared.height);
}

describe.skipIf(!assets)(`detector preprocessing before and after${assets ? '' : ` (skipped: ${missingAssetsMessage})`}`, () => {
  let reference: ort.InferenceSession;
  let current: ort.InferenceSession;
  beforeAll(async () => {
    const model = path.join(assets ?? '', 'models', 'yolox_nano.onnx');
    reference = await createReferenceSession(model);
    current = await createYoloSession(model);
  });
  afterAll(async () => {
    await reference?.release();
    await current?.release();
  });

  it('finds the shared detection photos', () => {
    expect(photos.length).toBeGreaterThan(20);
  });

  it('builds the same input tensor, also when a pooled buffer held another image before', async () => {
    // A buffer first filled by a large image, then reused for a smaller one, must be re-padded.
    const reused = new Float32Array(3 * inputSize * inputSize).fill(-1);
    for (const photo of photos) {
      const bytes = readFileSync(path.join(assets ?? '', photo));
      const before = await referenceInput(photo, bytes);
      const after = await prepareImage(bytes, inputSize, reused);
      expect([after.width, after.height, after.letterbox], photo).toEqual([before.width, before.height, before.letterbox]);
      expect(Buffer.from(after.data.buffer).equals(Buffer.from(before.data.buffer)), `${photo}: tensors differ`).toBe(true);
    }
  });

  it('builds the same tensor from the header the server already read (servers/shared/image-input.ts), EXIF orientation included', async () => {
    const first = readFileSync(path.join(assets ?? '', photos[0] ?? ''));
    // Orientation 6 (rotate 90 degrees): the displayed frame is the stored one transposed.
    const turned = await sharp(first).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const inputs: Array<[string, Buffer]> = [
      ...photos.map((photo): [string, Buffer] => [photo, readFileSync(path.join(assets ?? '', photo))]),
      ['orientation 6', turned],
    ];
    for (const [name, bytes] of inputs) {
      const header = await checkImageBytes(bytes, name);
      const given = await prepareImage(bytes, inputSize, undefined, header);
      const read = await prepareImage(bytes, inputSize);
      expect([given.width, given.height, given.letterbox], name).toEqual([read.width, read.height, read.letterbox]);
      expect(Buffer.from(given.data.buffer).equals(Buffer.from(read.data.buffer)), `${name}: tensors differ`).toBe(true);
    }
    const turnedHeader = await checkImageBytes(turned, 'orientation 6');
    expect(turnedHeader.orientation).toBe(6);
    const shown = await prepareImage(turned, inputSize, undefined, turnedHeader);
    expect([shown.width, shown.height]).toEqual([turnedHeader.height, turnedHeader.width]);
  });

  it('returns the same detections: labels, boxes within 1 px, scores within 1e-3', async () => {
    let compared = 0;
    for (const photo of photos) {
      const bytes = readFileSync(path.join(assets ?? '', photo));
      const before = await referenceDetections(reference, photo, bytes);
      const after = (await detectObjects(current, bytes)).detections;
      expect(
        after.map((box) => box.category),
        photo,
      ).toEqual(before.map((box) => cocoLabels[box.classId]));
      after.forEach((box, index) => {
        const old = before[index]!;
        for (const key of ['x1', 'y1', 'x2', 'y2'] as const) expect(Math.abs(box[key] - old[key]), `${photo} #${index} ${key}`).toBeLessThanOrEqual(1);
        expect(Math.abs(box.score - old.score), `${photo} #${index} score`).toBeLessThanOrEqual(1e-3);
      });
      compared += after.length;
    }
    expect(compared).toBeGreaterThan(50);
  });
});
