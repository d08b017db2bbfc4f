// Loads an image argument given as a file path, a file:// URI or a data URL. The type comes
// from the bytes (never the extension) and oversized images are refused before decoding. BMP,
// which sharp cannot read, is decoded here (src/core/bmp-decode.ts) and handed on as a lossless PNG.
import { readFile } from 'node:fs/promises';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { resolveAllowedPath } from './allowed-roots.js';
import { bmpAsPng } from '../../src/core/bmp-decode.js';

/** Refuse decompression bombs: 50 megapixels is far above any benchmark photo. */
export const maxImagePixels = 50_000_000;

const imageTypes = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/tiff', 'image/bmp', 'image/avif']);

export class ImageInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageInputError';
  }
}

export interface LoadedImage {
  bytes: Buffer;
  mediaType: string;
  /** As stored (before EXIF orientation), from the header read here. */
  width: number;
  height: number;
  /** EXIF orientation 1-8 (1 when absent), so a consumer need not read the header again. */
  orientation: number;
  /** The embedded ICC profile, if any (the detector skips converting one that is sRGB already). */
  icc: Buffer | undefined;
  /** Absolute path when the image came from a file, else undefined. */
  path?: string;
}

function decodeDataUrl(input: string): Buffer {
  const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(input);
  if (!match) throw new ImageInputError('malformed data URL (expected data:<type>;base64,<payload>)');
  return match[2] ? Buffer.from(match[3] ?? '', 'base64') : Buffer.from(decodeURIComponent(match[3] ?? ''), 'utf8');
}

interface CheckedImage {
  /** Bytes sharp can decode: the input, or a lossless PNG of it for BMP (which sharp cannot read). */
  bytes: Buffer;
  mediaType: string;
  width: number;
  height: number;
  orientation: number;
  icc: Buffer | undefined;
}

async function decodedBmp(bytes: Buffer, label: string): Promise<Buffer> {
  try {
    return await bmpAsPng(bytes, maxImagePixels);
  } catch (error) {
    throw new ImageInputError(`${label} could not be decoded: ${(error as Error).message}`);
  }
}

export async function checkImageBytes(input: Buffer, label: string): Promise<CheckedImage> {
  const detected = await fileTypeFromBuffer(input);
  if (!detected || !imageTypes.has(detected.mime)) {
    throw new ImageInputError(`${label} is not a supported image (detected ${detected?.mime ?? 'unknown data'})`);
  }
  const bytes = detected.mime === 'image/bmp' ? await decodedBmp(input, label) : input;
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: maxImagePixels }).metadata();
  } catch (error) {
    throw new ImageInputError(`${label} could not be decoded: ${(error as Error).message}`);
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width * height > maxImagePixels) {
    throw new ImageInputError(`${label} is ${width}x${height} pixels, above the ${maxImagePixels} pixel limit`);
  }
  return { bytes, mediaType: bytes === input ? detected.mime : 'image/png', width, height, orientation: metadata.orientation ?? 1, icc: metadata.icc };
}

/**
 * `resolvePath` turns a path argument into the file to read (default: confined to the allowed
 * roots; servers pass servers/shared/task-paths.ts `resolveInputArgument` for per-task files).
 * Messages name the path as given, never the resolved one.
 */
export async function loadImageInput(input: string, resolvePath: (given: string) => string = resolveAllowedPath): Promise<LoadedImage> {
  if (typeof input !== 'string' || input.trim() === '') throw new ImageInputError('image argument is empty');
  if (input.startsWith('data:')) {
    return checkImageBytes(decodeDataUrl(input), 'data URL');
  }
  const file = resolvePath(input.trim());
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new ImageInputError(`cannot read image "${input}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return { ...(await checkImageBytes(bytes, `"${input}"`)), path: file };
}
