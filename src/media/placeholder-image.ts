// Neutral placeholder images for the image ablation (m3 run --condition images-off): a flat
// mid-grey PNG with the pixel size of the image it replaces, so a model sees that an image was
// there and how large it was, but nothing of its content. The same size always gives the same
// bytes (and hash), which lets the image-delivery audit recognise a placeholder on the wire.
import sharp from 'sharp';
import type { ImagePart } from '../core/content.js';

const placeholderColour = { r: 128, g: 128, b: 128 } as const;

const cache = new Map<string, Promise<Buffer>>();

async function renderPlaceholder(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: placeholderColour } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The placeholder PNG bytes for a width x height image (cached per size). */
function placeholderBytes(width: number, height: number): Promise<Buffer> {
  const size = { width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)) };
  const key = `${size.width}x${size.height}`;
  let bytes = cache.get(key);
  if (!bytes) {
    bytes = renderPlaceholder(size.width, size.height);
    cache.set(key, bytes);
  }
  return bytes;
}

/** Pixel size of a transport image (its facts when the harness prepared it, else its header). */
async function imageSize(part: ImagePart): Promise<{ width: number; height: number }> {
  if (part.facts && part.facts.width > 0 && part.facts.height > 0) return { width: part.facts.width, height: part.facts.height };
  const metadata = await sharp(Buffer.from(part.data, 'base64')).metadata();
  return { width: metadata.width ?? 1, height: metadata.height ?? 1 };
}

/** A placeholder part standing in for `part`: same pixel size, flat grey, labelled in its facts. */
export async function toPlaceholder(part: ImagePart): Promise<ImagePart> {
  const { width, height } = await imageSize(part);
  const bytes = await placeholderBytes(width, height);
  return {
    type: 'image',
    mediaType: 'image/png',
    data: bytes.toString('base64'),
    facts: {
      source: `placeholder for ${part.facts?.source ?? 'an image'}`,
      originalBytes: part.facts?.originalBytes ?? Buffer.byteLength(part.data, 'base64'),
      sentBytes: bytes.length,
      width,
      height,
      originalMediaType: part.facts?.originalMediaType ?? part.mediaType,
    },
  };
}
