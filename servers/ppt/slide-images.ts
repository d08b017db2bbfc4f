// Images placed on slides: loaded from a path inside the allowed roots (or base64), upright
// by EXIF orientation (PowerPoint ignores it), and stored as PNG/JPEG/GIF, the formats every
// PowerPoint version displays.
import sharp from 'sharp';
import { loadImageInput, maxImagePixels } from '../shared/image-input.js';
import { resolveInputArgument } from '../shared/task-paths.js';
import type { Box } from './model.js';

export interface SlideImage {
  data: Buffer;
  mediaType: string;
  pixelWidth: number;
  pixelHeight: number;
  source: string;
}

const nativeTypes = new Set(['image/png', 'image/jpeg', 'image/gif']);

export async function loadSlideImage(source: string, sourceType: string | null | undefined, extra?: { _meta?: unknown }): Promise<SlideImage> {
  const isBase64 = (sourceType ?? 'file') === 'base64';
  const input = isBase64 && !source.startsWith('data:') ? `data:application/octet-stream;base64,${source}` : source;
  const loaded = await loadImageInput(input, (given) => resolveInputArgument(given, extra));
  const metadata = await sharp(loaded.bytes, { limitInputPixels: maxImagePixels }).metadata();
  const label = isBase64 ? 'base64 image' : source;
  if (nativeTypes.has(loaded.mediaType) && (metadata.orientation ?? 1) === 1) {
    return { data: loaded.bytes, mediaType: loaded.mediaType, pixelWidth: loaded.width, pixelHeight: loaded.height, source: loaded.path ?? label };
  }
  const { data, info } = await sharp(loaded.bytes, { limitInputPixels: maxImagePixels }).rotate().png().toBuffer({ resolveWithObject: true });
  return { data, mediaType: 'image/png', pixelWidth: info.width, pixelHeight: info.height, source: loaded.path ?? label };
}

/**
 * The box an image gets: both sides given → as given; one side → the other from the aspect
 * ratio; neither → natural size at 96 dpi, shrunk to fit the space left on the slide.
 */
export function imageBox(
  image: SlideImage,
  position: { left: number; top: number; width?: number | null; height?: number | null },
  slide: { width: number; height: number },
): Box {
  const aspect = image.pixelHeight / image.pixelWidth;
  const { left, top } = position;
  if (position.width && position.height) return { left, top, width: position.width, height: position.height };
  if (position.width) return { left, top, width: position.width, height: position.width * aspect };
  if (position.height) return { left, top, width: position.height / aspect, height: position.height };
  let width = image.pixelWidth / 96;
  let height = image.pixelHeight / 96;
  const room = { width: Math.max(1, slide.width - left), height: Math.max(1, slide.height - top) };
  const shrink = Math.min(1, room.width / width, room.height / height);
  width *= shrink;
  height *= shrink;
  return { left, top, width, height };
}

/** Largest box with the image's aspect ratio inside `frame`, centred in it. */
export function containBox(image: SlideImage, frame: Box): Box {
  const scale = Math.min(frame.width / (image.pixelWidth / 96), frame.height / (image.pixelHeight / 96));
  const width = (image.pixelWidth / 96) * scale;
  const height = (image.pixelHeight / 96) * scale;
  return { left: frame.left + (frame.width - width) / 2, top: frame.top + (frame.height - height) / 2, width, height };
}
