// Reading image files for the model: task images and files that tools wrote.
import { readFile, stat } from 'node:fs/promises';
import { MediaError } from '../errors/index.js';
import type { ImagePart } from '../core/content.js';
import { prepareImage, type ImagePolicy } from './prepare-image.js';

/** Files above this size are refused before reading (a 50 MP PNG is far smaller). */
const maxFileBytes = 200 * 1024 * 1024;

export async function loadImageFile(file: string, policy: ImagePolicy): Promise<ImagePart> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw new MediaError(`image file not found: ${file}`, { cause: error });
  }
  if (size > maxFileBytes) throw new MediaError(`${file}: ${size} bytes is above the ${maxFileBytes}-byte limit for images`);
  return prepareImage(await readFile(file), file, policy);
}
