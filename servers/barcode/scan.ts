// `scan_barcode`: one or many images, each answered on its own, so one missing file does not
// hide the codes found in the others. Only when every image fails is the call an error.
import { loadImageInput } from '../shared/image-input.js';
import { resolveInputArgument } from '../shared/task-paths.js';
import { type DecodedCode, decodeImage } from './decode.js';
import { BarcodeArgumentError, toReaderFormats } from './formats.js';

export interface ImageScan {
  path: string;
  codes: DecodedCode[];
  error?: string;
}

/**
 * Accepts one path, a list of paths, or a JSON-encoded list (models sometimes send the list as
 * a string, and the reference's pyzbar tool accepted both shapes).
 */
function toPathList(imagePaths: string | readonly string[]): string[] {
  let list: unknown = imagePaths;
  if (typeof imagePaths === 'string' && imagePaths.trim().startsWith('[')) {
    try {
      list = JSON.parse(imagePaths);
    } catch {
      throw new BarcodeArgumentError(`image_paths looks like a JSON list but does not parse: ${imagePaths.slice(0, 200)}`);
    }
  }
  const paths = (Array.isArray(list) ? list : [list]).filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
  if (paths.length === 0) throw new BarcodeArgumentError('image_paths is empty: pass an image path (under media/) or a list of paths');
  return paths.map((entry) => entry.trim());
}

type CallExtra = { _meta?: unknown } | undefined;

async function scanOne(imagePath: string, formats: readonly string[], call: CallExtra): Promise<ImageScan> {
  try {
    const image = await loadImageInput(imagePath, (given) => resolveInputArgument(given, call));
    return { path: imagePath, codes: await decodeImage(image.bytes, formats) };
  } catch (error) {
    return { path: imagePath, codes: [], error: error instanceof Error ? error.message : String(error) };
  }
}

class AllImagesFailedError extends Error {
  constructor(scans: readonly ImageScan[]) {
    super(`no image could be scanned: ${scans.map((scan) => `"${scan.path}": ${scan.error ?? 'unknown error'}`).join('; ')}`);
    this.name = 'AllImagesFailedError';
  }
}

/** `call` is the tool call's `extra`: with a task context, paths resolve in the task's workspace. */
export async function scanImages(imagePaths: string | readonly string[], formats?: readonly string[], call?: CallExtra): Promise<ImageScan[]> {
  const paths = toPathList(imagePaths);
  const readerFormats = toReaderFormats(formats);
  const scans: ImageScan[] = [];
  // One at a time: the reader is a single WebAssembly instance and decoding is CPU-bound.
  for (const imagePath of paths) scans.push(await scanOne(imagePath, readerFormats, call));
  if (scans.every((scan) => scan.error !== undefined)) throw new AllImagesFailedError(scans);
  return scans;
}
