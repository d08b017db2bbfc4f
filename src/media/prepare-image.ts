// Turns image bytes into what a model receives: the type from magic bytes (never the name),
// a full decode (a truncated file or a corrupt body passes a header check but is refused here,
// as bad input, before any provider sees it), then one of two payload policies: the reference
// rule (the longest edge capped and oversized payloads re-encoded as JPEG, or PNG when
// transparency matters) or, with a destination, the transport policy (src/media/transport-policy.ts).
// The bytes on disk are never modified; every decision is recorded in ImageFacts.
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { bmpAsPng } from '../core/bmp-decode.js';
import type { ImageFacts, ImagePart } from '../core/content.js';
import { MediaError } from '../errors/index.js';
import type { ImageDestination } from './image-destination.js';
import { createPreparedImages } from './prepared-images.js';
import { transportPayload, type RawPixels } from './transport-policy.js';

export interface ImagePolicy {
  /** Re-encode images larger than this many KiB; 0 disables re-encoding by size. */
  recodeOverKb: number;
  /** Longest edge sent to the model, in pixels; 0 disables resizing. */
  maxEdge: number;
  /** Set: the transport policy for this destination (M3_IMAGE_POLICY=transport); absent: the reference rule. */
  transport?: ImageDestination;
}

/** Types every vendor accepts as-is; anything else (bmp, tiff, avif...) is converted. */
const transportTypes = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const decodableTypes = new Set([...transportTypes, 'image/bmp', 'image/tiff', 'image/avif', 'image/heic']);
const maxInputPixels = 50_000_000;

export async function detectMediaType(bytes: Uint8Array): Promise<string | undefined> {
  return (await fileTypeFromBuffer(bytes))?.mime;
}

interface Decoded {
  metadata: sharp.Metadata;
  /** An alpha channel with at least one pixel that is not opaque. */
  transparent: boolean;
  /** The pixels of an opaque image as decodeAll read them: the colours the transport policy's pipeline gives. */
  flattened?: RawPixels;
  facts: ImageFacts;
}

/**
 * Decodes every pixel (the header alone does not show a truncated or corrupt body) and tells
 * whether transparency shows. The decode is the transport policy's own pipeline to raw pixels
 * (oriented; without alpha, flattened on white), kept for its palette check when the image is
 * opaque: half the CPU of sharp's stats(), which also computes entropy, sharpness and the dominant
 * colour. An 8-bit alpha channel is opaque when every value is 255 (stats' isOpaque); another
 * depth keeps stats(). Opaque pixels flattened are themselves: the RGBA pixels hold the colours of
 * the flattened ones, which is all the palette check counts.
 */
async function decodeAll(bytes: Buffer, metadata: sharp.Metadata): Promise<Pick<Decoded, 'transparent' | 'flattened'>> {
  const image = sharp(bytes, { limitInputPixels: maxInputPixels, animated: false });
  if (!metadata.hasAlpha)
    return { transparent: false, flattened: await image.rotate().flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true }) };
  if (metadata.depth !== 'uchar') return { transparent: !(await image.stats()).isOpaque };
  const pixels = await image.rotate().raw().toBuffer({ resolveWithObject: true });
  return allOpaque(pixels) ? { transparent: false, flattened: pixels } : { transparent: true };
}

/** Every value of the last (alpha) channel is 255. */
function allOpaque({ data, info }: RawPixels): boolean {
  for (let at = info.channels - 1; at < data.length; at += info.channels) if (data[at] !== 255) return false;
  return true;
}

async function viaTransport(
  bytes: Buffer,
  { metadata, transparent, flattened, facts }: Decoded,
  destination: ImageDestination,
  maxEdge: number,
): Promise<ImagePart> {
  // EXIF orientations 5-8 turn the image a quarter: the displayed size is the stored one swapped.
  const turned = (metadata.orientation ?? 1) >= 5;
  const input = {
    bytes,
    mediaType: facts.originalMediaType,
    width: turned ? facts.height : facts.width,
    height: turned ? facts.width : facts.height,
    transparent,
    animated: (metadata.pages ?? 1) > 1,
    ...(flattened ? { flattened } : {}),
  };
  const sent = await transportPayload(input, destination, maxEdge).catch((error: unknown) => {
    if (error instanceof MediaError) throw new MediaError(`${facts.source}: ${error.message}`, { cause: error });
    throw new MediaError(`${facts.source}: could not re-encode image (${(error as Error).message})`, { cause: error });
  });
  return {
    type: 'image',
    mediaType: sent.mediaType,
    data: sent.data.toString('base64'),
    facts: { ...facts, width: sent.width, height: sent.height, sentBytes: sent.data.length },
  };
}

/** sharp (libvips) cannot read BMP: decode it here and go on with a lossless PNG of the same pixels. */
async function decodableBytes(bytes: Buffer, detected: string, source: string): Promise<Buffer> {
  if (detected !== 'image/bmp') return bytes;
  try {
    return await bmpAsPng(bytes, maxInputPixels);
  } catch (error) {
    throw new MediaError(`${source}: corrupt or unreadable image/bmp image (${(error as Error).message})`, { cause: error });
  }
}

const prepared = createPreparedImages();

/** The part a model receives for `original` under `policy`; the same bytes and policy are prepared once (src/media/prepared-images.ts). */
export function prepareImage(original: Buffer, source: string, policy: ImagePolicy): Promise<ImagePart> {
  return prepared(original, JSON.stringify(policy), source, () => prepareUncached(original, source, policy));
}

async function prepareUncached(original: Buffer, source: string, policy: ImagePolicy): Promise<ImagePart> {
  const detected = await detectMediaType(original);
  if (!detected || !decodableTypes.has(detected)) {
    throw new MediaError(`${source}: not an image (${detected ? `detected ${detected}` : 'unrecognised bytes'})`);
  }
  const bytes = await decodableBytes(original, detected, source);
  let metadata: sharp.Metadata;
  let decoded: Pick<Decoded, 'transparent' | 'flattened'>;
  try {
    metadata = await sharp(bytes, { limitInputPixels: maxInputPixels }).metadata();
    decoded = await decodeAll(bytes, metadata);
  } catch (error) {
    throw new MediaError(`${source}: corrupt or unreadable ${detected} image (${(error as Error).message})`, { cause: error });
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  const tooLarge = policy.recodeOverKb > 0 && original.length > policy.recodeOverKb * 1024;
  const tooWide = policy.maxEdge > 0 && Math.max(width, height) > policy.maxEdge;
  const facts = { source, originalBytes: original.length, originalMediaType: detected, width, height, sentBytes: bytes.length };
  if (policy.transport) return viaTransport(bytes, { metadata, ...decoded, facts }, policy.transport, policy.maxEdge);
  if (!tooLarge && !tooWide && transportTypes.has(detected)) {
    return { type: 'image', mediaType: detected, data: bytes.toString('base64'), facts };
  }
  try {
    let pipeline = sharp(bytes, { limitInputPixels: maxInputPixels, animated: false }).rotate();
    if (tooWide) pipeline = pipeline.resize({ width: policy.maxEdge, height: policy.maxEdge, fit: 'inside', withoutEnlargement: true });
    const keepAlpha = decoded.transparent;
    // Only a payload over the size budget switches format; a resize alone keeps PNG as PNG
    // (screenshots and rendered text stay crisp) and everything else becomes JPEG.
    const asPng = keepAlpha || (!tooLarge && detected === 'image/png');
    const output = asPng
      ? await pipeline.png({ compressionLevel: 9, palette: tooLarge }).toBuffer({ resolveWithObject: true })
      : await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }).toBuffer({ resolveWithObject: true });
    return {
      type: 'image',
      mediaType: asPng ? 'image/png' : 'image/jpeg',
      data: output.data.toString('base64'),
      facts: { ...facts, width: output.info.width, height: output.info.height, sentBytes: output.data.length },
    };
  } catch (error) {
    throw new MediaError(`${source}: could not re-encode image (${(error as Error).message})`, { cause: error });
  }
}
