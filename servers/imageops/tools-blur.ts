// Blur rectangles or polygons, or (invert_areas) everything outside them. Each area is blurred
// from the whole image and then copied in through a mask, so pixels outside the areas are
// bit-for-bit unchanged. blur_strength is OpenCV's Gaussian kernel size (odd, default 15).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import sharp from 'sharp';
import { z } from 'zod';
import { guarded } from '../shared/tool-result.js';
import { checkBox, pixel, type Size } from './geometry.js';
import { loadWorkingImage, toSharp, type WorkingImage, writeResult } from './image-io.js';
import { wrapSvg } from './overlay-svg.js';

const strength = z.number().int().min(1).max(301).nullish().describe('Gaussian kernel size in pixels (odd; default 15)');

const rectangleArea = z.object({ x1: pixel, y1: pixel, x2: pixel, y2: pixel, blur_strength: strength });
const polygonArea = z.object({
  polygon: z
    .array(z.tuple([z.number(), z.number()]))
    .min(3)
    .describe('Points [[x, y], ...] in pixels'),
  blur_strength: strength,
});
const area = z.union([rectangleArea, polygonArea]);
type Area = z.infer<typeof area>;

const defaultStrength = 15;

/** OpenCV's sigma for a kernel of size k when sigma is left at 0. */
function sigmaForKernel(kernel: number): number {
  const odd = kernel % 2 === 0 ? kernel + 1 : kernel;
  return Math.max(0.3, 0.3 * ((odd - 1) * 0.5 - 1) + 0.8);
}

/** Mask with 255 inside the area, 0 outside (polygon edges antialiased). */
async function maskFor(target: Area, size: Size, index: number): Promise<Buffer> {
  if ('x1' in target) {
    checkBox(target, size, `areas[${index}]`);
    const mask = Buffer.alloc(size.width * size.height);
    for (let y = target.y1; y < target.y2; y += 1) mask.fill(255, y * size.width + target.x1, y * size.width + target.x2);
    return mask;
  }
  const points = target.polygon.map(([x, y]) => `${x},${y}`).join(' ');
  const svg = wrapSvg(size.width, size.height, [`<rect width="100%" height="100%" fill="black"/><polygon points="${points}" fill="white"/>`]);
  const rendered = await sharp(svg).extractChannel(0).raw().toBuffer();
  if (!rendered.some((value) => value > 0)) {
    throw new Error(`areas[${index}]: the polygon does not cover any pixel of the ${size.width}x${size.height} image`);
  }
  return rendered;
}

function invert(mask: Buffer): Buffer {
  const inverted = Buffer.alloc(mask.length);
  for (let index = 0; index < mask.length; index += 1) inverted[index] = 255 - (mask[index] ?? 0);
  return inverted;
}

/** Copies blurred pixels into `image` where the mask is set (linear mix on antialiased edges). */
async function blendBlurred(image: WorkingImage, mask: Buffer, kernel: number): Promise<WorkingImage> {
  const blurred = await toSharp(image).blur(sigmaForKernel(kernel)).raw().toBuffer();
  const out = Buffer.from(image.data);
  const channels = image.channels;
  for (let pixelIndex = 0; pixelIndex < mask.length; pixelIndex += 1) {
    const weight = mask[pixelIndex] ?? 0;
    if (weight === 0) continue;
    const base = pixelIndex * channels;
    for (let channel = 0; channel < channels; channel += 1) {
      const original = image.data[base + channel] ?? 0;
      const soft = blurred[base + channel] ?? 0;
      out[base + channel] = weight === 255 ? soft : Math.round((original * (255 - weight) + soft * weight) / 255);
    }
  }
  return { ...image, data: out };
}

export function registerBlurTool(server: McpServer): void {
  server.registerTool(
    'blur',
    {
      description:
        'Blur rectangular areas {x1,y1,x2,y2,blur_strength?} or polygons {polygon:[[x,y],...]} of an image; with invert_areas=true everything outside them is blurred instead. Returns the output path.',
      inputSchema: {
        input_path: z.string().min(1).describe('Image file path (inside the allowed folders) or data URL'),
        areas: z.array(area).min(1),
        invert_areas: z.boolean().default(false),
        output_path: z.string().nullish().describe('Where to write the result; default <input stem>_blur.png next to the input'),
      },
    },
    (args, call) =>
      guarded(async () => {
        let image = await loadWorkingImage(args.input_path, call);
        const masks = await Promise.all(args.areas.map((target, index) => maskFor(target, image, index)));
        if (args.invert_areas) {
          const union = Buffer.alloc(image.width * image.height);
          for (const mask of masks) for (let index = 0; index < mask.length; index += 1) union[index] = Math.max(union[index] ?? 0, mask[index] ?? 0);
          const kernel = Math.max(...args.areas.map((target) => target.blur_strength ?? defaultStrength));
          image = await blendBlurred(image, invert(union), kernel);
        } else {
          for (const [index, target] of args.areas.entries()) {
            image = await blendBlurred(image, masks[index] ?? Buffer.alloc(0), target.blur_strength ?? defaultStrength);
          }
        }
        return writeResult(image, {
          call,
          operation: 'blur',
          outputPath: args.output_path,
          inputPath: image.path,
          extra: { areas: args.areas.length, inverted: args.invert_areas },
        });
      }),
  );
}
