// Whole-image tools: crop, resize, rotate, colour palettes, and metadata.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { z } from 'zod';
import { loadImageInput, maxImagePixels } from '../shared/image-input.js';
import { resolveInputArgument } from '../shared/task-paths.js';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { colorSchema, parseColor } from './colors.js';
import { checkBox } from './geometry.js';
import { type CallExtra, keepChannels, loadWorkingImage, toColor, toSharp, toWorking, writeResult } from './image-io.js';

const inputPath = z.string().min(1).describe('Image file path (inside the allowed folders) or data URL');
const outputPath = z.string().nullish().describe('Where to write the result; default <input stem>_<tool>.png next to the input');

/** Classic sepia weights (rows produce R, G, B from R, G, B). */
const sepiaMatrix: [[number, number, number], [number, number, number], [number, number, number]] = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

const extensionsByFormat: Record<string, string[]> = {
  png: ['.png'],
  jpeg: ['.jpg', '.jpeg', '.jpe'],
  webp: ['.webp'],
  gif: ['.gif'],
  tiff: ['.tif', '.tiff'],
  bmp: ['.bmp'],
  avif: ['.avif'],
};

function targetSize(
  width: number,
  height: number,
  args: { width?: number | null | undefined; height?: number | null | undefined; scale_factor?: number | null | undefined },
): { width: number; height: number } {
  if (args.width && args.height) return { width: args.width, height: args.height };
  if (args.width) return { width: args.width, height: Math.max(1, Math.round((height * args.width) / width)) };
  if (args.height) return { width: Math.max(1, Math.round((width * args.height) / height)), height: args.height };
  if (args.scale_factor) {
    return { width: Math.max(1, Math.round(width * args.scale_factor)), height: Math.max(1, Math.round(height * args.scale_factor)) };
  }
  throw new Error('resize: give width, height (one keeps the aspect ratio) or scale_factor');
}

async function describeImage(input: string, call: CallExtra): Promise<Record<string, unknown>> {
  const loaded = await loadImageInput(input, (given) => resolveInputArgument(given, call));
  const metadata = await sharp(loaded.bytes, { limitInputPixels: maxImagePixels }).metadata();
  const format = loaded.mediaType.replace('image/', '');
  // EXIF orientations 5-8 swap the axes: report the size the tools work with (upright).
  const swapped = (metadata.orientation ?? 1) >= 5;
  const extension = loaded.path ? path.extname(loaded.path).toLowerCase() : undefined;
  return {
    ...(loaded.path ? { path: loaded.path } : {}),
    format,
    media_type: loaded.mediaType,
    width: swapped ? loaded.height : loaded.width,
    height: swapped ? loaded.width : loaded.height,
    channels: metadata.channels,
    has_alpha: metadata.hasAlpha ?? false,
    color_space: metadata.space,
    size_bytes: loaded.bytes.length,
    ...(metadata.orientation ? { exif_orientation: metadata.orientation } : {}),
    ...(metadata.density ? { dpi: metadata.density } : {}),
    ...(extension !== undefined ? { file_extension: extension, extension_matches_content: (extensionsByFormat[format] ?? []).includes(extension) } : {}),
  };
}

async function recolor(
  input: string,
  palette: 'grayscale' | 'sepia',
  outputPathArg: string | null | undefined,
  operation: string,
  call: CallExtra,
): Promise<CallToolResult> {
  const image = await loadWorkingImage(input, call);
  const pipeline = palette === 'grayscale' ? toSharp(image).greyscale() : toSharp(await toColor(image)).recomb(sepiaMatrix);
  const recolored = await toWorking(pipeline, image.path);
  return writeResult(recolored, { call, operation, outputPath: outputPathArg, inputPath: image.path, extra: { palette } });
}

// Integers, as the reference's `x1: int` (pydantic also takes 133.0, which JSON Schema's integer allows).
const cropEdge = z.number().int();

function registerCropTool(server: McpServer): void {
  server.registerTool(
    'crop',
    {
      description: 'Crop an image to the box (x1,y1)-(x2,y2) in pixels (x2, y2 exclusive); returns the output path.',
      inputSchema: { input_path: inputPath, x1: cropEdge, y1: cropEdge, x2: cropEdge, y2: cropEdge, output_path: outputPath },
    },
    (args, call) =>
      guarded(async () => {
        const image = await loadWorkingImage(args.input_path, call);
        checkBox(args, image, 'crop');
        const cropped = await toWorking(
          toSharp(image).extract({ left: args.x1, top: args.y1, width: args.x2 - args.x1, height: args.y2 - args.y1 }),
          image.path,
        );
        return writeResult(cropped, {
          call,
          operation: 'crop',
          outputPath: args.output_path,
          inputPath: image.path,
          extra: { box: [args.x1, args.y1, args.x2, args.y2] },
        });
      }),
  );
}

function registerSizeTools(server: McpServer): void {
  server.registerTool(
    'resize',
    {
      description: 'Resize an image: width and height (exact), one of them (keeps the aspect ratio), or scale_factor (e.g. 0.5).',
      inputSchema: {
        input_path: inputPath,
        width: z.number().int().positive().nullish(),
        height: z.number().int().positive().nullish(),
        scale_factor: z.number().positive().nullish(),
        scale: z.number().positive().nullish().describe('Alias of scale_factor'),
        output_path: outputPath,
      },
    },
    (args, call) =>
      guarded(async () => {
        const image = await loadWorkingImage(args.input_path, call);
        const size = targetSize(image.width, image.height, { ...args, scale_factor: args.scale_factor ?? args.scale });
        if (size.width * size.height > maxImagePixels) {
          throw new Error(`resize: ${size.width}x${size.height} is above the ${maxImagePixels} pixel limit`);
        }
        const resized = await toWorking(toSharp(image).resize({ ...size, fit: 'fill' }), image.path);
        return writeResult(resized, {
          call,
          operation: 'resize',
          outputPath: args.output_path,
          inputPath: image.path,
          extra: { original: [image.width, image.height] },
        });
      }),
  );

  server.registerTool(
    'rotate',
    {
      description: 'Rotate an image by angle degrees (positive = counter-clockwise); the canvas grows to keep every pixel.',
      inputSchema: {
        input_path: inputPath,
        angle: z.number().finite(),
        background: colorSchema.nullish().describe('Fill for uncovered corners (BGR list, name or hex); default black'),
        output_path: outputPath,
      },
    },
    (args, call) =>
      guarded(async () => {
        const image = await loadWorkingImage(args.input_path, call);
        const fill = parseColor(args.background, [0, 0, 0], 'background');
        // sharp turns clockwise for positive angles; the reference convention is counter-clockwise.
        const rotated = await keepChannels(
          await toWorking(toSharp(image).rotate(-args.angle, { background: { r: fill.r, g: fill.g, b: fill.b, alpha: fill.alpha } }), image.path),
          image,
        );
        return writeResult(rotated, { call, operation: 'rotate', outputPath: args.output_path, inputPath: image.path, extra: { angle: args.angle } });
      }),
  );
}

function registerColorTools(server: McpServer): void {
  server.registerTool(
    'change_color',
    {
      description: 'Convert an image to a colour palette: grayscale or sepia.',
      inputSchema: { input_path: inputPath, palette: z.enum(['grayscale', 'sepia']), output_path: outputPath },
    },
    (args, call) => guarded(() => recolor(args.input_path, args.palette, args.output_path, 'change_color', call)),
  );

  server.registerTool(
    'grayscale',
    {
      description: 'Convert an image to grayscale.',
      inputSchema: { input_path: inputPath, output_path: outputPath },
    },
    (args, call) => guarded(() => recolor(args.input_path, 'grayscale', args.output_path, 'grayscale', call)),
  );
}

function registerMetadataTool(server: McpServer): void {
  server.registerTool(
    'get_metadata',
    {
      description: 'Width, height (upright), true format from the file bytes, channels, alpha, size in bytes, and whether the extension matches.',
      inputSchema: { input_path: inputPath },
    },
    (args, call) => guarded(async () => jsonResult(await describeImage(args.input_path, call))),
  );
}

export function registerTransformTools(server: McpServer): void {
  registerCropTool(server);
  registerSizeTools(server);
  registerColorTools(server);
  registerMetadataTool(server);
}
