// The local detector (servers/yolo, served as dinox-mcp): the model math on hand-made arrays,
// then the server as a real child process over MCP stdio with the real YOLOX-Nano model on the
// shared photos, compared with the manifest's reference detections (YOLOX-Nano output at score > 0.4, original pixels).
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInProcess } from '../support/in-process-servers.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelUnavailableError, resolveModelPath } from '../../servers/yolo/detector.js';
import { cocoLabels } from '../../servers/yolo/labels.js';
import { decodeOutput, expectedRows, intersectionOverUnion, nonMaxSuppression, toOriginalFrame } from '../../servers/yolo/postprocess.js';
import { computeLetterbox, padValue, prepareImage, toInputTensorData } from '../../servers/yolo/preprocess.js';
import { mapPromptToClasses, splitPrompt } from '../../servers/yolo/prompt-classes.js';
import { assertAssetsInCi, loadSharedManifest, missingAssetsMessage, repoRoot, sharedAssetsDir } from '../support/shared-assets.js';

describe('letterbox and input tensor', () => {
  it('scales the longer side to 416 and truncates like YOLOX', () => {
    expect(computeLetterbox(768, 576)).toEqual({ scale: 416 / 768, resizedWidth: 416, resizedHeight: 312 });
    expect(computeLetterbox(688, 1024)).toMatchObject({ resizedWidth: 279, resizedHeight: 416 });
    expect(computeLetterbox(100, 50)).toEqual({ scale: 4.16, resizedWidth: 416, resizedHeight: 208 });
    expect(() => computeLetterbox(0, 10)).toThrow(/0x10/);
  });

  it('places BGR planes top-left and pads the rest with 114', () => {
    // 2x1 RGB image: red then blue, into a 4x4 input
    const data = toInputTensorData(Uint8Array.from([255, 0, 0, 0, 0, 255]), 2, 1, 3, 4);
    const plane = 16;
    expect([data[0], data[plane], data[2 * plane]]).toEqual([0, 0, 255]); // red pixel: B=0, G=0, R=255
    expect([data[1], data[plane + 1], data[2 * plane + 1]]).toEqual([255, 0, 0]);
    expect(data[2]).toBe(padValue);
    expect(data[4]).toBe(padValue); // second row
    expect(data.length).toBe(48);
    expect(() => toInputTensorData(new Uint8Array(3), 2, 1, 3, 4)).toThrow(/expected 6/);
  });
});

describe('prepareImage on generated images', () => {
  it('applies EXIF orientation before letterboxing', async () => {
    // Stored 80x40 with orientation 6 (rotate 90 degrees clockwise): displayed 40x80, left half red.
    const stored = await sharp({ create: { width: 80, height: 40, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .composite([{ input: { create: { width: 40, height: 40, channels: 3, background: { r: 255, g: 0, b: 0 } } }, left: 0, top: 0 }])
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const prepared = await prepareImage(stored);
    expect([prepared.width, prepared.height, prepared.letterbox.resizedWidth, prepared.letterbox.resizedHeight]).toEqual([40, 80, 208, 416]);
    const plane = 416 * 416;
    const at = (x: number, y: number) =>
      [prepared.data[y * 416 + x], prepared.data[plane + y * 416 + x], prepared.data[2 * plane + y * 416 + x]].map((value) => Math.round((value ?? 0) / 40));
    // After rotating clockwise the stored left (red) half is on top: BGR of red, then of blue below.
    expect(at(100, 50)).toEqual([0, 0, 6]);
    expect(at(100, 350)).toEqual([6, 0, 0]);
    expect(prepared.data[300]).toBe(padValue); // right of the 208-pixel-wide content
  });

  it('expands a grayscale image to three equal planes', async () => {
    const gray = await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 90, g: 90, b: 90 } } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    expect((await sharp(gray).metadata()).channels).toBe(1);
    const prepared = await prepareImage(gray);
    const plane = 416 * 416;
    expect([prepared.data[1000], prepared.data[plane + 1000], prepared.data[2 * plane + 1000]]).toEqual([90, 90, 90]);
  });
});

describe('decode and NMS', () => {
  const size = 32; // grids 4x4, 2x2, 1x1 = 21 rows
  const numClasses = 3;
  const rowLength = 5 + numClasses;
  function head(rows: Record<number, number[]>): Float32Array {
    const output = new Float32Array(expectedRows(size) * rowLength);
    for (const [row, values] of Object.entries(rows)) output.set(values, Number(row) * rowLength);
    return output;
  }

  it('decodes grid offsets, exp sizes and obj x cls scores per stride', () => {
    // row 5 = stride 8, gx 1, gy 1; row 16 = stride 16, gx 0, gy 0; row 20 = stride 32
    const output = head({
      5: [0.5, 0.5, Math.log(2), 0, 0.9, 0.1, 0.8, 0.2],
      16: [0, 0, 0, 0, 0.5, 0.9, 0, 0], // score 0.45
      20: [0, 0, 0, 0, 0.5, 0.7, 0, 0], // score 0.35: dropped
    });
    const boxes = decodeOutput(output, { size, numClasses, scoreThreshold: 0.4 });
    expect(boxes).toHaveLength(2);
    const [first, second] = boxes;
    expect(first?.classId).toBe(1);
    expect(first?.score).toBeCloseTo(0.72, 5);
    // cx = (0.5 + 1) * 8 = 12, w = 2 * 8 = 16, h = 8
    expect([first?.x1, first?.y1, first?.x2, first?.y2].map((value) => Number(value?.toFixed(4)))).toEqual([4, 8, 20, 16]);
    expect(second).toMatchObject({ classId: 0, x1: -8, y1: -8, x2: 8, y2: 8 });
    expect(() => decodeOutput(new Float32Array(10), { size, numClasses, scoreThreshold: 0.4 })).toThrow(/expected 21 rows x 8/);
  });

  it('suppresses overlapping boxes of one class only', () => {
    const box = (classId: number, score: number, x1: number) => ({ classId, score, x1, y1: 0, x2: x1 + 10, y2: 10 });
    const kept = nonMaxSuppression([box(0, 0.6, 1), box(0, 0.9, 0), box(1, 0.8, 0), box(0, 0.7, 20)], 0.45);
    expect(kept.map((entry) => [entry.classId, entry.score])).toEqual([
      [0, 0.9],
      [1, 0.8],
      [0, 0.7],
    ]);
    expect(intersectionOverUnion(box(0, 1, 0), box(0, 1, 5))).toBeCloseTo(50 / 150, 6);
  });

  it('maps boxes back by the letterbox scale and clips them to the image', () => {
    const mapped = toOriginalFrame([{ classId: 0, score: 1, x1: -4, y1: 10, x2: 300, y2: 400 }], 0.5, 500, 700);
    expect(mapped[0]).toMatchObject({ x1: 0, y1: 20, x2: 500, y2: 700 });
  });
});

describe('prompt to COCO classes', () => {
  it('splits on punctuation and "and", handles plurals and synonyms', () => {
    expect(splitPrompt('Person.hard hat, the Puppies and 2 cars;')).toEqual(['person', 'hard hat', 'puppies', 'cars']);
    const mapping = mapPromptToClasses('people.puppies.automobile.motorbike.aeroplane.kitten.sofa.wine glasses.buses.unicorn');
    expect(mapping.categories).toEqual(['person', 'dog', 'car', 'motorcycle', 'airplane', 'cat', 'couch', 'wine glass', 'bus']);
    expect(mapping.unsupported).toEqual(['unicorn']);
    expect(mapPromptToClasses('woman.child.man').categories).toEqual(['person']);
  });

  it('maps common words by plural, synonym and head noun, and keeps words whose end is not their head apart', () => {
    expect(mapPromptToClasses('armchairs').categories).toEqual(['chair']);
    expect(mapPromptToClasses('coffee table').categories).toEqual(['dining table']);
    expect(mapPromptToClasses('businessman.policewomen.construction worker').categories).toEqual(['person']);
    expect(mapPromptToClasses('office chairs.fire truck.motorboats.teacup').categories).toEqual(['chair', 'truck', 'boat', 'cup']);
    expect(mapPromptToClasses('dog bowl').categories).toEqual(['bowl']);
    expect(mapPromptToClasses('ottoman.snowman.wombat.flashlight.hard hat.bus stop').unsupported).toEqual([
      'ottoman',
      'snowman',
      'wombat',
      'flashlight',
      'hard hat',
      'bus stop',
    ]);
  });

  it('uses the model labels of the shared manifest, in order', () => {
    const labels = (loadSharedManifest()?.model as { labels?: string[] } | undefined)?.labels;
    if (labels) expect([...cocoLabels]).toEqual(labels);
    expect(cocoLabels).toHaveLength(80);
  });
});

assertAssetsInCi();
const assets = sharedAssetsDir();
const workDir = mkdtempSync(path.join(tmpdir(), 'm3-yolo-test-'));

describe('model location', () => {
  it('uses M3_YOLO_MODEL when set, else the pulled asset, and says how to get it', () => {
    const emptyTarget = path.join(workDir, 'no-assets');
    expect(() => resolveModelPath({}, { targetDir: emptyTarget })).toThrow(ModelUnavailableError);
    expect(() => resolveModelPath({}, { targetDir: emptyTarget })).toThrow(
      /asset "yolox-nano" is not pulled: .*run `m3 assets pull yolox-nano`.*or set M3_YOLO_MODEL/,
    );
    expect(() => resolveModelPath({ M3_YOLO_MODEL: path.join(workDir, 'x.onnx') })).toThrow(/x\.onnx, which does not exist/);
    const model = path.join(workDir, 'model.onnx');
    writeFileSync(model, 'not a model: only the path is resolved here');
    expect(resolveModelPath({ M3_YOLO_MODEL: model })).toBe(model);
  });
});

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
}

// The reference detector's content layout (servers/yolo/result.ts): summary, details, note,
// then our detector line.
const objectSchema = z.object({
  name: z.string(),
  bbox: z.object({ xmin: z.number(), ymin: z.number(), xmax: z.number(), ymax: z.number() }),
  score: z.number(),
  description: z.string().optional(),
});
const detailsPrefix = 'Detailed object detection results: ';

function parseAnswer(content: ToolResult['content']) {
  const texts = content.filter((part) => part.type === 'text').map((part) => part.text ?? '');
  expect(texts).toHaveLength(4);
  const [summary = '', details = '', note = '', detector = ''] = texts;
  expect(details.startsWith(detailsPrefix), details).toBe(true);
  const objects = z.array(objectSchema).parse(JSON.parse(details.slice(detailsPrefix.length)));
  return { summary, objects, note, detector };
}

/** A bottom-up 24-bit BMP of RGB pixels (rows padded to 4 bytes), as Paint writes them. */
function encodeBmp24(rgb: Buffer, width: number, height: number): Buffer {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + stride * height);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const from = (y * width + x) * 3;
      const to = 54 + (height - 1 - y) * stride + x * 3;
      file[to] = rgb[from + 2] ?? 0;
      file[to + 1] = rgb[from + 1] ?? 0;
      file[to + 2] = rgb[from] ?? 0;
    }
  }
  return file;
}

const corners = (bbox: z.infer<typeof objectSchema>['bbox']) => ({ x1: bbox.xmin, y1: bbox.ymin, x2: bbox.xmax, y2: bbox.ymax });

const referenceSchema = z.object({
  files: z.array(
    z
      .object({
        path: z.string(),
        detections: z.array(z.object({ label: z.string(), score: z.number(), box: z.tuple([z.number(), z.number(), z.number(), z.number()]) })).optional(),
      })
      .loose(),
  ),
});

/** The detector in process, its modules (and so its cached model session) loaded afresh. */
async function startServer(env: Record<string, string>): Promise<Client> {
  return (await connectInProcess('dinox-mcp', { env })).client;
}

describe.skipIf(!assets)(`the detector (dinox-mcp) over MCP${assets ? '' : ` (skipped: ${missingAssetsMessage})`}`, () => {
  const root = assets ?? '';
  const photo = (name: string) => path.join(root, 'images', 'detection', name);
  let client: Client;

  async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await client.callTool({ name, arguments: args })) as ToolResult;
  }
  async function detect(name: string, args: Record<string, unknown>) {
    const result = await call(name, args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return { result, payload: parseAnswer(result.content) };
  }

  beforeAll(async () => {
    client = await startServer({ M3_YOLO_MODEL: path.join(root, 'models', 'yolox_nano.onnx'), M3_ALLOWED_ROOTS: [root, workDir].join(path.delimiter) });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the reference tool names and arguments', async () => {
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(['detect-all-objects', 'detect-objects-by-text', 'visualize-detection-result']);
    const byText = tools.find((tool) => tool.name === 'detect-objects-by-text');
    expect(Object.keys(byText?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['imageFileUri', 'textPrompt', 'includeDescription']));
  });

  const photos = ['dog_bicycle_car.jpg', 'beagles.jpg', 'person_dog_horse.jpg', 'street_traffic.jpg', 'apple_orange.jpg', 'airplane_runway.jpg'];
  it.each(photos)('finds the reference objects of %s (score > 0.4, IoU > 0.5)', async (name) => {
    const reference = referenceSchema.parse(loadSharedManifest()).files.find((file) => file.path === `images/detection/${name}`);
    const main = (reference?.detections ?? []).filter((detection) => detection.score >= 0.6);
    expect(main.length).toBeGreaterThan(0);
    const { payload } = await detect('detect-all-objects', { imageFileUri: photo(name), includeDescription: true });
    expect(payload.summary).toMatch(/^Objects detected in image: .+\.$/);
    expect(payload.note).toMatch(/^Note: The bbox coordinates are in \[xmin, ymin, xmax, ymax\] format/);
    for (const object of payload.objects) {
      expect(object.score).toBeGreaterThan(0.4);
      expect(object.description).toMatch(new RegExp(`^${object.name} at \\(\\d+,\\d+\\)-\\(\\d+,\\d+\\), \\d+%$`));
    }
    for (const expected of main) {
      const [x1, y1, x2, y2] = expected.box;
      const best = Math.max(
        0,
        ...payload.objects.filter((object) => object.name === expected.label).map((object) => intersectionOverUnion(corners(object.bbox), { x1, y1, x2, y2 })),
      );
      expect(best, `${expected.label} ${expected.box.join(',')} in ${name}`).toBeGreaterThan(0.5);
    }
  });

  it('detect-objects-by-text returns only the asked classes, maps plurals, reports unknown terms', async () => {
    const dogs = await detect('detect-objects-by-text', { imageFileUri: photo('dog_bicycle_car.jpg'), textPrompt: 'dog', includeDescription: false });
    expect(dogs.payload.objects.map((object) => object.name)).toEqual(['dog']);
    expect(dogs.payload.detector).not.toMatch(/outside this model's vocabulary/);
    expect(dogs.payload.note).toMatch(/^Note: The bbox coordinates are in \{xmin, ymin, xmax, ymax\} format/);
    const puppies = await detect('detect-objects-by-text', { imageFileUri: photo('beagles.jpg'), textPrompt: 'puppies', includeDescription: true });
    expect(puppies.payload.detector).toContain('Prompt terms searched as COCO classes: "puppies" -> dog.');
    expect(puppies.payload.summary).toBe('Objects detected in image: dog (2).');
    const unicorn = await detect('detect-objects-by-text', { imageFileUri: photo('beagles.jpg'), textPrompt: 'unicorn', includeDescription: false });
    expect(unicorn.payload).toMatchObject({ summary: 'Objects detected in image: none.', objects: [] });
    expect(unicorn.payload.detector).toMatch(/"unicorn" is outside this model's vocabulary \(the 80 COCO classes\)/);
    const empty = await call('detect-objects-by-text', { imageFileUri: photo('beagles.jpg'), textPrompt: ' . , ', includeDescription: false });
    expect(empty.isError).toBe(true);
    expect(empty.content[0]?.text).toMatch(/textPrompt is empty/);
  });

  it('accepts file:// URIs and data URLs with the same result as a path', async () => {
    const file = photo('person_dog_horse.jpg');
    const byPath = await detect('detect-all-objects', { imageFileUri: file, includeDescription: false });
    const byUri = await detect('detect-all-objects', { imageFileUri: pathToFileURL(file).href, includeDescription: false });
    const dataUrl = `data:image/jpeg;base64,${readFileSync(file).toString('base64')}`;
    const byData = await detect('detect-all-objects', { imageFileUri: dataUrl, includeDescription: false });
    expect(byUri.payload.objects).toEqual(byPath.payload.objects);
    expect(byData.payload.objects).toEqual(byPath.payload.objects);
    expect(byData.payload.detector).toContain('image "data URL"');
    expect(byPath.payload.detector).toContain(`image ${JSON.stringify(file)}`);
    expect(byUri.payload.detector).toContain(`image ${JSON.stringify(pathToFileURL(file).href)}`);
    for (const name of ['person (1)', 'dog (1)', 'horse (1)']) expect(byPath.payload.summary).toContain(name);
  });

  it('annotate returns a PNG of the original size with the boxes drawn', async () => {
    const file = photo('dog_bicycle_car.jpg');
    const { result, payload } = await detect('detect-all-objects', { imageFileUri: file, includeDescription: false, annotate: true });
    const image = result.content.find((part) => part.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    const png = Buffer.from(image?.data ?? '', 'base64');
    const metadata = await sharp(png).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 768, 576]);
    // The dog's left edge is stroked: pixels there differ from the photo; a far corner does not.
    const dog = payload.objects.find((object) => object.name === 'dog');
    expect(dog).toBeDefined();
    const pixel = async (bytes: Buffer, x: number, y: number) => [
      ...(await sharp(bytes).removeAlpha().extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer()),
    ];
    const edge = { x: Math.round(dog?.bbox.xmin ?? 0), y: Math.round(((dog?.bbox.ymin ?? 0) + (dog?.bbox.ymax ?? 0)) / 2) };
    const original = readFileSync(file);
    const drawnEdge = await pixel(png, edge.x, edge.y);
    const photoEdge = await pixel(original, edge.x, edge.y);
    expect(drawnEdge.reduce((sum, value, index) => sum + Math.abs(value - (photoEdge[index] ?? 0)), 0)).toBeGreaterThan(60);
    const corner = await pixel(png, 767, 575);
    const photoCorner = await pixel(original, 767, 575);
    expect(corner.reduce((sum, value, index) => sum + Math.abs(value - (photoCorner[index] ?? 0)), 0)).toBeLessThan(12);
  });

  it('visualize-detection-result draws given boxes and saves the PNG inside the allowed folders', async () => {
    const outputPath = path.join(workDir, 'drawn.png');
    const result = await call('visualize-detection-result', {
      imageFileUri: photo('beagles.jpg'),
      detections: [
        { name: 'left dog', bbox: { xmin: 9, ymin: 14, xmax: 205, ymax: 352 } },
        { name: 'off image', bbox: { x1: 700, y1: 0, x2: 800, y2: 10 } },
      ],
      showLabels: true,
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(result.content[0]?.text ?? '')).toMatchObject({
      image: { width: 600, height: 399 },
      drawn: 2,
      outsideImage: ['off image at (700,0)-(800,10)'],
    });
    expect(result.content.some((part) => part.type === 'image' && part.mimeType === 'image/png')).toBe(true);
    const saved = await call('visualize-detection-result', { imageFileUri: photo('beagles.jpg'), detections: [], outputPath });
    expect(saved.isError).toBeFalsy();
    expect(existsSync(outputPath)).toBe(true);
    expect(await sharp(outputPath).metadata()).toMatchObject({ format: 'png', width: 600, height: 399 });
  });

  it("visualize-detection-result draws the detector's own answer and the earlier {category, bbox: {x1..}} shape", async () => {
    const file = photo('beagles.jpg');
    const { payload } = await detect('detect-all-objects', { imageFileUri: file, includeDescription: true });
    expect(payload.objects.length).toBeGreaterThan(0);
    const passedBack = await call('visualize-detection-result', { imageFileUri: file, detections: payload.objects });
    expect(passedBack.isError, passedBack.content[0]?.text).toBeFalsy();
    expect(JSON.parse(passedBack.content[0]?.text ?? '')).toMatchObject({ drawn: payload.objects.length });
    const earlier = await call('visualize-detection-result', {
      imageFileUri: file,
      detections: [{ category: 'dog', score: 0.9, bbox: { x1: 9, y1: 14, x2: 205, y2: 352 } }],
    });
    expect(JSON.parse(earlier.content[0]?.text ?? '')).toMatchObject({ drawn: 1 });
    const unlabelled = await call('visualize-detection-result', { imageFileUri: file, detections: [{ bbox: { xmin: 1, ymin: 1, xmax: 5, ymax: 5 } }] });
    expect(unlabelled.isError).toBe(true);
    expect(unlabelled.content[0]?.text).toMatch(/detections\[0\] has no label: give "name"/);
  });

  it("decodes BMP: a bitmap of a photo's pixels gives the same objects as a PNG of them", async () => {
    const { data, info } = await sharp(photo('dog_bicycle_car.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const png = path.join(workDir, 'dog_bicycle_car.png');
    await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .png()
      .toFile(png);
    const bmp = path.join(workDir, 'dog_bicycle_car.bmp');
    writeFileSync(bmp, encodeBmp24(data, info.width, info.height));
    const fromPng = await detect('detect-all-objects', { imageFileUri: png, includeDescription: false });
    const fromBmp = await detect('detect-all-objects', { imageFileUri: bmp, includeDescription: false });
    expect(fromBmp.payload.objects.length).toBeGreaterThan(0);
    expect(fromBmp.payload.objects).toEqual(fromPng.payload.objects);
  });

  it('names the image as the caller gave it, never its resolved absolute path', async () => {
    const missing = await call('detect-all-objects', { imageFileUri: './media/no_such_photo.jpg', includeDescription: false });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toContain('"./media/no_such_photo.jpg"');
    expect(missing.content[0]?.text).not.toContain(repoRoot);
    const outside = await call('detect-all-objects', { imageFileUri: '/etc/hostname', includeDescription: false });
    expect(outside.content[0]?.text).toMatch(/^path "\/etc\/hostname" is outside the allowed folders \(media\/ and 2 folders from M3_ALLOWED_ROOTS\)/);
    expect(outside.content[0]?.text).not.toContain(repoRoot);
  });

  it('rejects a non-image file and a path outside the allowed folders with clear errors', async () => {
    const fake = path.join(workDir, 'not-an-image.jpg');
    writeFileSync(fake, 'just text, whatever the extension says\n');
    const notImage = await call('detect-all-objects', { imageFileUri: fake, includeDescription: false });
    expect(notImage.isError).toBe(true);
    expect(notImage.content[0]?.text).toMatch(/not-an-image\.jpg" is not a supported image/);
    const outside = await call('detect-all-objects', { imageFileUri: path.join(repoRoot, 'package.json'), includeDescription: false });
    expect(outside.isError).toBe(true);
    expect(outside.content[0]?.text).toMatch(/outside the allowed folders .*M3_ALLOWED_ROOTS/);
  });

  it('reports a missing model as a tool error naming `m3 assets pull`', async () => {
    const broken = await startServer({ M3_YOLO_MODEL: path.join(workDir, 'absent.onnx'), M3_ALLOWED_ROOTS: root });
    try {
      const result = (await broken.callTool({
        name: 'detect-all-objects',
        arguments: { imageFileUri: photo('eagle.jpg'), includeDescription: false },
      })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/absent\.onnx, which does not exist.*m3 assets pull yolox-nano/);
    } finally {
      await broken.close();
    }
  });
});
