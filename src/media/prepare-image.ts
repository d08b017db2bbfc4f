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
import { inputDigest, memoised } from './encode-memo.js';
import type { ImageDestination } from './image-destination.js';
import { transportPayload } from './transport-policy.js';

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
  stats: sharp.Stats;
  facts: ImageFacts;
}

async function viaTransport(bytes: Buffer, { metadata, stats, facts }: Decoded, destination: ImageDestination, maxEdge: number): Promise<ImagePart> {
  // EXIF orientations 5-8 turn the image a quarter: the displayed size is the stored one swapped.
  const turned = (metadata.orientation ?? 1) >= 5;
  const input = {
    bytes,
    mediaType: facts.originalMediaType,
    width: turned ? facts.height : facts.width,
    height: turned ? facts.width : facts.height,
    transparent: Boolean(metadata.hasAlpha) && !stats.isOpaque,
    animated: (metadata.pages ?? 1) > 1,
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

export async function prepareImage(original: Buffer, source: string, policy: ImagePolicy): Promise<ImagePart> {
  const detected = await detectMediaType(original);
  if (!detected || !decodableTypes.has(detected)) {
    throw new MediaError(`${source}: not an image (${detected ? `detected ${detected}` : 'unrecognised bytes'})`);
  }
  const bytes = await decodableBytes(original, detected, source);
  let metadata: sharp.Metadata;
  let stats: sharp.Stats;
  try {
    // Kept per bytes (src/media/encode-memo.ts): a run prepares a task's image in every episode.
    ({ metadata, stats } = await memoised(`${inputDigest(bytes)}|decode`, async () => ({
      metadata: await sharp(bytes, { limitInputPixels: maxInputPixels }).metadata(),
      // Decodes every pixel: the header alone does not show a truncated or corrupt body.
      stats: await sharp(bytes, { limitInputPixels: maxInputPixels, animated: false }).stats(),
    })));
  } catch (error) {
    throw new MediaError(`${source}: corrupt or unreadable ${detected} image (${(error as Error).message})`, { cause: error });
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  const tooLarge = policy.recodeOverKb > 0 && original.length > policy.recodeOverKb * 1024;
  const tooWide = policy.maxEdge > 0 && Math.max(width, height) > policy.maxEdge;
  const facts = { source, originalBytes: original.length, originalMediaType: detected, width, height, sentBytes: bytes.length };
  if (policy.transport) return viaTransport(bytes, { metadata, stats, facts }, policy.transport, policy.maxEdge);
  if (!tooLarge && !tooWide && transportTypes.has(detected)) {
    return { type: 'image', mediaType: detected, data: bytes.toString('base64'), facts };
  }
  try {
    let pipeline = sharp(bytes, { limitInputPixels: maxInputPixels, animated: false }).rotate();
    if (tooWide) pipeline = pipeline.resize({ width: policy.maxEdge, height: policy.maxEdge, fit: 'inside', withoutEnlargement: true });
    const keepAlpha = Boolean(metadata.hasAlpha) && !stats.isOpaque;
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
