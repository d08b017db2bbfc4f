// Re-encodes an image for a destination that does not decode its type (xAI takes JPEG and PNG
// only, Ollama refuses GIF, Gemini has no GIF). The first frame of an animation is kept; PNG when
// the image is a GIF (palette graphics) or has visible transparency, JPEG otherwise, each only if
// the destination takes it. The facts record what was actually sent.
import sharp from 'sharp';
import type { ImagePart } from '../core/content.js';
import { MediaError } from '../errors/index.js';

const maxInputPixels = 50_000_000;

/** Conversions are cached per image object: history re-sends the same parts every round. */
const converted = new WeakMap<ImagePart, Map<string, Promise<ImagePart>>>();

async function targetType(bytes: Buffer, source: string, accepted: readonly string[]): Promise<'image/png' | 'image/jpeg'> {
  const canPng = accepted.includes('image/png');
  const canJpeg = accepted.includes('image/jpeg');
  if (!canPng && !canJpeg) throw new MediaError(`the destination takes none of PNG and JPEG (${accepted.join(', ')}); cannot convert ${source}`);
  if (!canJpeg) return 'image/png';
  if (!canPng) return 'image/jpeg';
  if (source === 'image/gif') return 'image/png';
  const image = sharp(bytes, { limitInputPixels: maxInputPixels, animated: false });
  const metadata = await image.metadata();
  if (!metadata.hasAlpha) return 'image/jpeg';
  return (await image.stats()).isOpaque ? 'image/jpeg' : 'image/png';
}

async function convert(image: ImagePart, accepted: readonly string[]): Promise<ImagePart> {
  const bytes = Buffer.from(image.data, 'base64');
  try {
    const type = await targetType(bytes, image.mediaType, accepted);
    const pipeline = sharp(bytes, { limitInputPixels: maxInputPixels, animated: false });
    const output =
      type === 'image/png'
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true })
        : await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 90, mozjpeg: true }).toBuffer({ resolveWithObject: true });
    const facts = image.facts ?? {
      source: 'image',
      originalBytes: bytes.length,
      originalMediaType: image.mediaType,
      width: output.info.width,
      height: output.info.height,
      sentBytes: 0,
    };
    return {
      type: 'image',
      mediaType: type,
      data: output.data.toString('base64'),
      facts: { ...facts, width: output.info.width, height: output.info.height, sentBytes: output.data.length },
    };
  } catch (error) {
    if (error instanceof MediaError) throw error;
    throw new MediaError(`could not convert a ${image.mediaType} image to PNG or JPEG (${(error as Error).message})`, { cause: error });
  }
}

/** The image as-is when the destination takes its type, else converted to PNG or JPEG. */
export function toAcceptedType(image: ImagePart, accepted: readonly string[]): Promise<ImagePart> {
  if (accepted.includes(image.mediaType)) return Promise.resolve(image);
  const key = accepted.join(',');
  let byTarget = converted.get(image);
  if (!byTarget) {
    byTarget = new Map();
    converted.set(image, byTarget);
  }
  let pending = byTarget.get(key);
  if (!pending) {
    pending = convert(image, accepted);
    byTarget.set(key, pending);
  }
  return pending;
}
