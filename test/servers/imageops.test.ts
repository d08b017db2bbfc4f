// The image-editing server as a real child process over MCP stdio: geometry, pixels, output
// naming, ground-truth argument shapes, and refusal of paths outside the allowed roots.
import { copyFile, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAssetsInCi, missingAssetsMessage, sharedAssetsDir } from '../support/shared-assets.js';
import { connectInProcess } from '../support/in-process-servers.js';

interface ToolAnswer {
  isError: boolean;
  text: string;
  json: Record<string, unknown>;
  images: Array<{ data: string; mimeType: string }>;
}

let client: Client;
let work: string;
const assets = sharedAssetsDir();

async function call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  };
  const text = result.content.find((part) => part.type === 'text')?.text ?? '';
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // error answers are plain text
  }
  const images = result.content.filter((part) => part.type === 'image').map((part) => ({ data: part.data ?? '', mimeType: part.mimeType ?? '' }));
  return { isError: result.isError === true, text, json, images };
}

async function ok(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const answer = await call(name, args);
  if (answer.isError) throw new Error(`${name} failed: ${answer.text}`);
  return answer;
}

function outputOf(answer: ToolAnswer): string {
  const images = answer.json.images as string[];
  expect(images).toHaveLength(1);
  return images[0] ?? '';
}

async function rawOf(file: string): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A 4-pixel checkerboard with a colour ramp: blurring changes every interior pixel. */
async function writePattern(file: string, width: number, height: number): Promise<void> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const on = (Math.floor(x / 4) + Math.floor(y / 4)) % 2 === 0;
      const offset = (y * width + x) * 3;
      data[offset] = on ? 230 : 20;
      data[offset + 1] = (x * 255) / width;
      data[offset + 2] = on ? 40 : 200;
    }
  }
  await sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toFile(file);
}

function pixelAt(image: { data: Buffer; width: number; channels: number }, x: number, y: number): number[] {
  const offset = (y * image.width + x) * image.channels;
  return [...image.data.subarray(offset, offset + image.channels)];
}

/** Counts pixels inside / outside a box that differ between two same-size images. */
function diffCounts(
  a: { data: Buffer; width: number; height: number; channels: number },
  b: typeof a,
  box: { x1: number; y1: number; x2: number; y2: number },
): { inside: number; outside: number; insideTotal: number } {
  let inside = 0;
  let outside = 0;
  for (let y = 0; y < a.height; y += 1) {
    for (let x = 0; x < a.width; x += 1) {
      const offset = (y * a.width + x) * a.channels;
      const differs = a.data.compare(b.data, offset, offset + a.channels, offset, offset + a.channels) !== 0;
      const within = x >= box.x1 && x < box.x2 && y >= box.y1 && y < box.y2;
      if (differs && within) inside += 1;
      if (differs && !within) outside += 1;
    }
  }
  return { inside, outside, insideTotal: (box.x2 - box.x1) * (box.y2 - box.y1) };
}

beforeAll(async () => {
  assertAssetsInCi();
  work = await mkdtemp(path.join(tmpdir(), 'm3-imageops-'));
  const roots = [work, ...(assets ? [assets] : [])].join(path.delimiter);
  client = (await connectInProcess('imagesorcery-mcp', { env: { M3_ALLOWED_ROOTS: roots } })).client;
  await writePattern(path.join(work, 'pattern.png'), 200, 150);
});

afterAll(async () => {
  await client?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('imagesorcery-mcp server', () => {
  it('lists the reference tools and the additions', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'crop',
      'blur',
      'draw_circles',
      'draw_texts',
      'draw_lines',
      'draw_arrows',
      'change_color',
      'resize',
      'rotate',
      'draw_rectangles',
      'grayscale',
      'get_metadata',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('crops to exact dimensions and copies the source pixels', async () => {
    const input = path.join(work, 'pattern.png');
    const answer = await ok('crop', { input_path: input, x1: 10, y1: 20, x2: 110, y2: 70, output_path: path.join(work, 'crop.png') });
    const cropped = await rawOf(outputOf(answer));
    expect([cropped.width, cropped.height, answer.json.width, answer.json.height]).toEqual([100, 50, 100, 50]);
    const source = await rawOf(input);
    expect(pixelAt(cropped, 0, 0)).toEqual(pixelAt(source, 10, 20));
    expect(pixelAt(cropped, 99, 49)).toEqual(pixelAt(source, 109, 69));
    expect(answer.images[0]?.mimeType).toBe('image/png');
  });

  it('names default outputs next to the input without overwriting anything', async () => {
    const input = path.join(work, 'pattern.png');
    const before = await readFile(input);
    const first = outputOf(await ok('crop', { input_path: input, x1: 0, y1: 0, x2: 50, y2: 50 }));
    const second = outputOf(await ok('crop', { input_path: input, x1: 50, y1: 50, x2: 80, y2: 90 }));
    expect(first).toBe(path.join(work, 'pattern_crop.png'));
    expect(second).toBe(path.join(work, 'pattern_crop_1.png'));
    expect((await rawOf(first)).width).toBe(50);
    expect((await rawOf(second)).height).toBe(40);
    expect((await readFile(input)).equals(before)).toBe(true);
  });

  it('refuses boxes that are inverted or leave the image, naming the bound', async () => {
    const input = path.join(work, 'pattern.png');
    const inverted = await call('crop', { input_path: input, x1: 100, y1: 10, x2: 50, y2: 60 });
    expect(inverted.isError).toBe(true);
    expect(inverted.text).toContain('x1 (100) must be less than x2 (50)');
    const outside = await call('crop', { input_path: input, x1: 0, y1: 0, x2: 250, y2: 60 });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('x2 (250) must be within 1..200');
    expect(outside.text).toContain('200x150');
  });

  it('blurs inside the areas only, and only outside them with invert_areas', async () => {
    const input = path.join(work, 'pattern.png');
    const box = { x1: 40, y1: 30, x2: 120, y2: 90 };
    const source = await rawOf(input);
    const blurred = await rawOf(
      outputOf(await ok('blur', { input_path: input, areas: [{ ...box, blur_strength: 21 }], output_path: path.join(work, 'blur.png') })),
    );
    const direct = diffCounts(source, blurred, box);
    expect(direct.outside).toBe(0);
    expect(direct.inside / direct.insideTotal).toBeGreaterThan(0.9);

    const inverted = await rawOf(
      outputOf(await ok('blur', { input_path: input, areas: [box], invert_areas: true, output_path: path.join(work, 'blur-inv.png') })),
    );
    const flipped = diffCounts(source, inverted, box);
    expect(flipped.inside).toBe(0);
    expect(flipped.outside / (200 * 150 - flipped.insideTotal)).toBeGreaterThan(0.9);
  });

  it('draws filled and outlined circles where asked', async () => {
    const input = path.join(work, 'pattern.png');
    const out = path.join(work, 'circles.png');
    const answer = await ok('draw_circles', {
      input_path: input,
      circles: [
        { center_x: 50, center_y: 50, radius: 20, color: [255, 0, 0], filled: true },
        { center_x: 150, center_y: 100, radius: 30, color: 'lime', thickness: 4 },
        { center_x: 900, center_y: 900, radius: 10 },
      ],
      output_path: out,
    });
    const source = await rawOf(input);
    const drawn = await rawOf(outputOf(answer));
    expect(pixelAt(drawn, 50, 50)).toEqual([0, 0, 255]); // BGR [255,0,0] is blue
    expect(pixelAt(drawn, 150, 70)).toEqual([0, 255, 0]); // on the outline, top of the circle
    expect(pixelAt(drawn, 150, 100)).toEqual(pixelAt(source, 150, 100)); // hollow centre
    expect(pixelAt(drawn, 5, 140)).toEqual(pixelAt(source, 5, 140));
    expect(answer.json.warnings).toEqual(['circles[2] lies entirely outside the 200x150 image and was not visible']);
  });

  it('draws texts, rectangles, lines and arrows only where placed', async () => {
    const white = path.join(work, 'white.png');
    await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
      .png()
      .toFile(white);
    const texts = await rawOf(
      outputOf(await ok('draw_texts', { input_path: white, texts: [{ text: 'Hazard', x: 20, y: 60, font_scale: 1.2, color: [0, 0, 255], thickness: 2 }] })),
    );
    const textDiff = diffCounts(await rawOf(white), texts, { x1: 15, y1: 15, x2: 200, y2: 75 });
    expect(textDiff.inside).toBeGreaterThan(100);
    expect(textDiff.outside).toBe(0);

    const detection = { name: 'dog', bbox: { x1: 20, y1: 120, x2: 80, y2: 180 }, color: 'blue', filled: true };
    const boxes = await rawOf(
      outputOf(
        await ok('draw_rectangles', {
          input_path: white,
          rectangles: [{ bbox: [100, 80, 200, 160], label: 'person', color: '#00ff00', thickness: 2 }, detection],
        }),
      ),
    );
    expect(pixelAt(boxes, 150, 80)).toEqual([0, 255, 0]);
    expect(pixelAt(boxes, 150, 120)).toEqual([255, 255, 255]);
    expect(pixelAt(boxes, 104, 70)).toEqual([0, 255, 0]); // label tab above the box
    expect(pixelAt(boxes, 50, 170)).toEqual([0, 0, 255]); // detector-shaped box, filled

    const lines = await rawOf(
      outputOf(await ok('draw_lines', { input_path: white, lines: [{ x1: 10, y1: 190, x2: 290, y2: 190, color: 'black', thickness: 3 }] })),
    );
    expect(pixelAt(lines, 150, 190)).toEqual([0, 0, 0]);
    expect(pixelAt(lines, 150, 150)).toEqual([255, 255, 255]);

    const arrows = await rawOf(
      outputOf(await ok('draw_arrows', { input_path: white, arrows: [{ x1: 20, y1: 100, x2: 220, y2: 100, thickness: 3, tip_length: 0.2 }] })),
    );
    expect(pixelAt(arrows, 120, 100)).toEqual([255, 0, 0]); // default colour is red
    expect(pixelAt(arrows, 205, 92)).toEqual([255, 0, 0]); // upper head stroke
  });

  it('resizes, rotates counter-clockwise and recolours', async () => {
    const marked = path.join(work, 'marked.png');
    const pixels = Buffer.alloc(200 * 100 * 3, 128);
    for (let y = 0; y < 10; y += 1) for (let x = 0; x < 10; x += 1) pixels.set([255, 0, 0], (y * 200 + x) * 3);
    await sharp(pixels, { raw: { width: 200, height: 100, channels: 3 } })
      .png()
      .toFile(marked);

    const half = await ok('resize', { input_path: marked, scale_factor: 0.5 });
    expect([half.json.width, half.json.height]).toEqual([100, 50]);
    const byWidth = await rawOf(outputOf(await ok('resize', { input_path: marked, width: 50 })));
    expect([byWidth.width, byWidth.height]).toEqual([50, 25]);

    const turned = await rawOf(outputOf(await ok('rotate', { input_path: marked, angle: 90 })));
    expect([turned.width, turned.height]).toEqual([100, 200]);
    expect(pixelAt(turned, 2, 197)).toEqual([255, 0, 0]); // top-left corner moved to bottom-left
    expect(pixelAt(turned, 2, 2)).toEqual([128, 128, 128]);

    const sepia = await rawOf(outputOf(await ok('change_color', { input_path: marked, palette: 'sepia' })));
    const [r = 0, g = 0, b = 0] = pixelAt(sepia, 100, 50);
    expect(r).toBeGreaterThan(g);
    expect(g).toBeGreaterThan(b);
    const gray = await sharp(outputOf(await ok('grayscale', { input_path: marked }))).metadata();
    expect([gray.channels, gray.space]).toEqual([1, 'b-w']);
  });

  it('reports the true format of a PNG with a misleading extension', async () => {
    const disguised = path.join(work, 'photo.jpg');
    await sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
      .png()
      .toFile(disguised);
    const answer = await ok('get_metadata', { input_path: disguised });
    expect(answer.json).toMatchObject({
      format: 'png',
      media_type: 'image/png',
      width: 64,
      height: 48,
      channels: 4,
      has_alpha: true,
      file_extension: '.jpg',
      extension_matches_content: false,
    });
    expect(answer.json.size_bytes).toBe((await stat(disguised)).size);
  });

  it('rejects traversal, symlinks out, foreign absolute paths and non-images', async () => {
    const traversal = await call('get_metadata', { input_path: '../../etc/passwd' });
    expect(traversal.isError).toBe(true);
    expect(traversal.text).toContain('outside the allowed folders');

    const outsideDir = await mkdtemp(path.join(tmpdir(), 'm3-outside-'));
    try {
      const secret = path.join(outsideDir, 'secret.png');
      await writePattern(secret, 20, 20);
      await symlink(secret, path.join(work, 'link.png'));
      const viaLink = await call('crop', { input_path: path.join(work, 'link.png'), x1: 0, y1: 0, x2: 5, y2: 5 });
      expect(viaLink.isError).toBe(true);
      expect(viaLink.text).toContain('outside the allowed folders');
      const absolute = await call('crop', { input_path: secret, x1: 0, y1: 0, x2: 5, y2: 5 });
      expect(absolute.text).toContain('outside the allowed folders');
      const badOutput = await call('crop', {
        input_path: path.join(work, 'pattern.png'),
        x1: 0,
        y1: 0,
        x2: 5,
        y2: 5,
        output_path: path.join(outsideDir, 'out.png'),
      });
      expect(badOutput.isError).toBe(true);
      expect(badOutput.text).toContain('outside the allowed folders');
    } finally {
      await rm(outsideDir, { recursive: true, force: true });
    }

    const notes = path.join(work, 'notes.png');
    await writeFile(notes, 'this is plain text, not an image\n');
    const notImage = await call('blur', { input_path: notes, areas: [{ x1: 0, y1: 0, x2: 5, y2: 5 }] });
    expect(notImage.isError).toBe(true);
    expect(notImage.text).toContain('is not a supported image');
  });

  it.skipIf(!assets)(`accepts ground-truth argument shapes on real photos${assets ? '' : ` (${missingAssetsMessage})`}`, async () => {
    // GT coordinates refer to ~1600x1100 task images: scale a real photo up to that size.
    const photo = path.join(assets ?? '', 'images/detection/horses.jpg');
    const taskImage = path.join(work, '00160001.png');
    await sharp(photo).resize({ width: 1600, height: 1200, fit: 'fill' }).png().toFile(taskImage);
    await copyFile(taskImage, path.join(work, 'hazard_falling_object.png'));

    const blurred = await ok('blur', {
      input_path: taskImage,
      areas: [{ x1: 160, y1: 18, x2: 595, y2: 1002, blur_strength: 45 }],
      invert_areas: false,
      output_path: path.join(work, '00160001_anon.png'),
    });
    expect(outputOf(blurred)).toBe(path.join(work, '00160001_anon.png'));
    const cropped = await ok('crop', {
      input_path: taskImage,
      x1: 1105,
      y1: 364,
      x2: 1428,
      y2: 1015,
      output_path: path.join(work, '00110001_horse.png'),
      image_paths: [taskImage],
    });
    expect([cropped.json.width, cropped.json.height]).toEqual([323, 651]);
    const circled = await ok('draw_circles', {
      input_path: path.join(work, 'hazard_falling_object.png'),
      circles: [
        { center_x: 541, center_y: 315, radius: 65, color: [0, 0, 255], thickness: 3, filled: false },
        { center_x: 350, center_y: 150, radius: 150, color: [0, 0, 255], thickness: 3, filled: false },
      ],
      output_path: path.join(work, 'hazard_falling_object_annotated.png'),
    });
    const annotated = await rawOf(outputOf(circled));
    expect(pixelAt(annotated, 541, 250)).toEqual([255, 0, 0]);
    const labelled = await ok('draw_texts', {
      input_path: path.join(work, 'hazard_falling_object_annotated.png'),
      texts: [
        {
          text: 'Falling object hazard: unsecured bucket on ledge',
          x: 330,
          y: 300,
          font_scale: 0.9,
          color: [0, 255, 255],
          thickness: 2,
          font_face: 'FONT_HERSHEY_SIMPLEX',
        },
      ],
      output_path: path.join(work, 'hazard_falling_object_annotated.png'),
    });
    expect(labelled.json.width).toBe(1600);

    const small = await ok('crop', {
      input_path: path.join(assets ?? '', 'images/detection/beagles.jpg'),
      x1: 0,
      y1: 0,
      x2: 40,
      y2: 30,
      output_path: path.join(work, 'beagles_corner.png'),
    });
    expect([small.json.width, small.json.height]).toEqual([40, 30]);
  });
});
