// Reading inputs and writing outputs for the image-editing tools.
// Inputs are decoded once into raw pixels, already turned upright by their EXIF orientation
// (OpenCV, which the reference used, does the same), so every coordinate refers to the image
// as a viewer sees it. Outputs go to `output_path` (inside the allowed roots) or, by default,
// next to the input as `<stem>_<op>.png`; default names get a numeric suffix rather than
// replace an earlier output, so repeated calls on one input keep every result.
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolveAllowedPath } from '../shared/allowed-roots.js';
import { loadImageInput, maxImagePixels } from '../shared/image-input.js';
import { defaultOutputDir, resolveInputArgument, resolveOutputArgument } from '../shared/task-paths.js';
import { jsonResult } from '../shared/tool-result.js';

export interface WorkingImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  /** Absolute path of the input file; undefined for data URLs. */
  path?: string;
}

/** The image returned inline is a preview; the file on disk keeps full size. */
export const previewMaxEdge = 1024;

const outputFormats: Record<string, keyof sharp.FormatEnum> = {
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.webp': 'webp',
  '.tif': 'tiff',
  '.tiff': 'tiff',
};

/** The `extra` of a tool call: its `_meta` may carry the task context (servers/shared/task-paths.ts). */
export type CallExtra = { _meta?: unknown } | undefined;

export async function loadWorkingImage(input: string, call?: CallExtra): Promise<WorkingImage> {
  const loaded = await loadImageInput(input, (given) => resolveInputArgument(given, call));
  const { data, info } = await sharp(loaded.bytes, { limitInputPixels: maxImagePixels }).rotate().raw().toBuffer({ resolveWithObject: true });
  return {
    data,
    width: info.width,
    height: info.height,
    channels: info.channels,
    ...(loaded.path ? { path: loaded.path } : {}),
  };
}

export function toSharp(image: Pick<WorkingImage, 'data' | 'width' | 'height' | 'channels'>): sharp.Sharp {
  const pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  // Without this, one- and two-channel pixels are encoded as RGB.
  return image.channels <= 2 ? pipeline.toColourspace('b-w') : pipeline;
}

/** Materialises a pipeline into raw pixels, so later steps see its result (sharp reorders ops). */
export async function toWorking(pipeline: sharp.Sharp, source?: string): Promise<WorkingImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels, ...(source ? { path: source } : {}) };
}

/**
 * Compositing and rotating add an alpha channel; drop it again when the input had none, so
 * outputs keep the input's channel layout (and JPEG/PNG outputs stay opaque RGB).
 */
export async function keepChannels(result: WorkingImage, source: Pick<WorkingImage, 'channels'>): Promise<WorkingImage> {
  const hadAlpha = source.channels === 2 || source.channels === 4;
  const hasAlpha = result.channels === 2 || result.channels === 4;
  if (hadAlpha || !hasAlpha) return result;
  return toWorking(toSharp(result).removeAlpha(), result.path);
}

/** Drawing in colour needs three channels; grey inputs are widened first. */
export async function toColor(image: WorkingImage): Promise<WorkingImage> {
  if (image.channels >= 3) return image;
  return toWorking(toSharp(image).toColourspace('srgb'), image.path);
}

/** The extensions an `output_path` may end in. */
export const outputExtensions = (): string[] => Object.keys(outputFormats);

function formatFor(target: string, argument: string): keyof sharp.FormatEnum {
  const format = outputFormats[path.extname(target).toLowerCase()];
  if (!format) {
    throw new Error(`${argument} "${target}": unsupported extension (use one of ${Object.keys(outputFormats).join(', ')})`);
  }
  return format;
}

async function reserveDefaultPath(inputPath: string | undefined, operation: string, call: CallExtra): Promise<string> {
  if (!inputPath) throw new Error('output_path is required when the input is a data URL (there is no folder to write next to)');
  const parsed = path.parse(inputPath);
  const dir = defaultOutputDir(call, parsed.dir);
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const suffix = attempt === 0 ? '' : `_${attempt}`;
    const candidate = path.join(dir, `${parsed.name}_${operation}${suffix}.png`);
    try {
      // Exclusive create: parallel calls on one input each get their own file.
      const handle = await open(candidate, 'wx');
      await handle.close();
      return candidate;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new Error(
        `cannot write next to the input ("${candidate}": ${code ?? (error as Error).message}); pass output_path inside a writable allowed folder`,
      );
    }
  }
  throw new Error(`too many earlier outputs named ${parsed.name}_${operation}_N.png in ${parsed.dir}; pass output_path`);
}

function resolveExplicitOutput(outputPath: string | null | undefined, call: CallExtra): string | undefined {
  if (outputPath === undefined || outputPath === null || outputPath.trim() === '') return undefined;
  const target = resolveOutputArgument(outputPath.trim(), call, resolveAllowedPath);
  formatFor(target, 'output_path');
  return target;
}

export interface WriteOptions {
  operation: string;
  outputPath: string | null | undefined;
  inputPath: string | undefined;
  extra?: Record<string, unknown>;
  /** The tool call's `extra`: with a task context, outputs go to the task's workspace. */
  call?: CallExtra;
}

/** Encodes the edited image, writes it, and answers with the path, size and a preview. */
export async function writeResult(image: WorkingImage, options: WriteOptions): Promise<CallToolResult> {
  // Validate an explicit path and encode before reserving a default name, so a failure
  // leaves no empty placeholder file behind.
  const explicit = resolveExplicitOutput(options.outputPath, options.call);
  const format = explicit ? formatFor(explicit, 'output_path') : 'png';
  // zlib level 1: ~10x faster than the default on photos for ~20% larger files.
  const encoded = await toSharp(image)
    .toFormat(format, format === 'png' ? { compressionLevel: 1 } : {})
    .toBuffer();
  let target = explicit;
  if (target) await mkdir(path.dirname(target), { recursive: true });
  else target = await reserveDefaultPath(options.inputPath, options.operation, options.call);
  try {
    await writeFile(target, encoded);
  } catch (error) {
    throw new Error(`cannot write "${target}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const preview = await createPreview(image);
  return jsonResult({ images: [target], width: image.width, height: image.height, operation: options.operation, ...options.extra }, [
    { data: preview, mimeType: 'image/png' },
  ]);
}

async function createPreview(image: WorkingImage): Promise<Buffer> {
  const pipeline = toSharp(image);
  if (Math.max(image.width, image.height) > previewMaxEdge) {
    pipeline.resize({ width: previewMaxEdge, height: previewMaxEdge, fit: 'inside' });
  }
  return pipeline.png({ compressionLevel: 2 }).toBuffer();
}
