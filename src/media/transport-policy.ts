// The default image payload policy (M3_IMAGE_POLICY=transport): per image, the size the vendor
// keeps (src/media/transport-size.ts) and the format that suits the content:
//   photo                          -> lossy WebP q75, or mozjpeg q80 where WebP is not taken
//   graphic from a lossless file   -> the smallest exact encoding: lossless WebP, PNG, palette PNG
//   graphic from a JPEG            -> lossy at q90 (its pixels are already approximate; glyph
//                                     edges need the higher quality)
// Transparency that shows (an alpha channel that is not all opaque) is kept: WebP or PNG, never
// JPEG. The original bytes are sent instead whenever the endpoint takes their type, no resize is
// needed and they are not larger. Only types in the destination's list are ever produced.
// Encodes are kept per input, size and alpha (src/media/encode-memo.ts): a run sends a task's
// image again in every episode.
import sharp from 'sharp';
import { MediaError } from '../errors/index.js';
import { inputDigest, memoised } from './encode-memo.js';
import { classOf, imageStatistics, type ImageClass } from './image-class.js';
import type { ImageDestination } from './image-destination.js';
import { transportSize } from './transport-size.js';

export interface TransportInput {
  bytes: Buffer;
  /** Detected from the bytes. */
  mediaType: string;
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  /** An alpha channel with at least one pixel that is not opaque. */
  transparent: boolean;
  /** More than one frame (an animated GIF or WebP): never passed through as is. */
  animated: boolean;
}

export interface TransportPayload {
  mediaType: string;
  data: Buffer;
  width: number;
  height: number;
  kind: ImageClass;
}

const maxInputPixels = 50_000_000;
const photoWebpQuality = 75;
const photoJpegQuality = 80;
const graphicLossyQuality = 90;
const lossySources = new Set(['image/jpeg', 'image/heic', 'image/avif']);

interface Candidate {
  mediaType: string;
  data: Buffer;
}

type Encoder = (pipeline: sharp.Sharp) => Promise<Buffer>;

function lossy(accepts: readonly string[], transparent: boolean, quality: { webp: number; jpeg: number }): [string, Encoder] {
  if (accepts.includes('image/webp')) return ['image/webp', (p) => p.webp({ quality: quality.webp, alphaQuality: 100, effort: 4 }).toBuffer()];
  if (!transparent && accepts.includes('image/jpeg')) {
    return ['image/jpeg', (p) => p.flatten({ background: '#ffffff' }).jpeg({ quality: quality.jpeg, mozjpeg: true }).toBuffer()];
  }
  if (accepts.includes('image/png')) return ['image/png', (p) => p.png({ compressionLevel: 9 }).toBuffer()];
  throw new MediaError(`the destination takes none of WebP, JPEG and PNG (${accepts.join(', ')})`);
}

async function samePixels(a: Buffer, b: Buffer): Promise<boolean> {
  const [left, right] = await Promise.all([sharp(a).ensureAlpha().raw().toBuffer(), sharp(b).ensureAlpha().raw().toBuffer()]);
  return left.equals(right);
}

const paletteColours = 256;

/**
 * Whether the pixels hold at most `limit` distinct colours (all channels of a pixel together, at
 * most 4). A palette PNG of more colours than its palette cannot be exact, and quantising and then
 * comparing it costs several times this count (rendered text with antialiased edges has a few
 * hundred colours), so the count decides whether the palette candidate is tried at all. The
 * colours seen sit in a small open-addressing table (a Set cost more than the decode).
 * @internal Exported for its tests.
 */
export function hasAtMostColours(pixels: Uint8Array, channels: number, limit: number): boolean {
  const slots = 1 << Math.ceil(Math.log2(4 * (limit + 1)));
  const keys = new Uint32Array(slots);
  const used = new Uint8Array(slots);
  let count = 0;
  let previous = -1;
  for (let at = 0; at < pixels.length; at += channels) {
    let colour = 0;
    for (let channel = 0; channel < channels; channel += 1) colour = ((colour << 8) | (pixels[at + channel] as number)) >>> 0;
    if (colour === previous) continue;
    previous = colour;
    let slot = Math.imul(colour, 0x9e3779b1) >>> 0;
    for (slot &= slots - 1; used[slot] === 1 && keys[slot] !== colour; slot = (slot + 1) & (slots - 1));
    if (used[slot] === 1) continue;
    if (++count > limit) return false;
    used[slot] = 1;
    keys[slot] = colour;
  }
  return true;
}

async function fitsPalette(pipeline: () => sharp.Sharp): Promise<boolean> {
  const { data, info } = await pipeline().raw().toBuffer({ resolveWithObject: true });
  return hasAtMostColours(data, info.channels, paletteColours);
}

/**
 * Every exact encoding the destination takes; the palette PNG only when it loses no colour.
 * `key` names the pipeline's pixels (input, size, alpha) for the encode memo.
 */
async function losslessCandidates(pipeline: () => sharp.Sharp, key: string, accepts: readonly string[]): Promise<Candidate[]> {
  const found: Candidate[] = [];
  if (accepts.includes('image/webp')) {
    found.push({ mediaType: 'image/webp', data: await memoised(`${key}|webp-lossless`, () => pipeline().webp({ lossless: true, effort: 4 }).toBuffer()) });
  }
  if (accepts.includes('image/png')) {
    const png = await memoised(`${key}|png`, () => pipeline().png({ compressionLevel: 9 }).toBuffer());
    found.push({ mediaType: 'image/png', data: png });
    if (!(await memoised(`${key}|fits-palette`, () => fitsPalette(pipeline)))) return found;
    const palette = await memoised(`${key}|palette`, () =>
      pipeline().png({ compressionLevel: 9, palette: true, colours: paletteColours, dither: 0 }).toBuffer(),
    );
    if (palette.length < png.length && (await memoised(`${key}|palette-exact`, () => samePixels(png, palette)))) {
      found.push({ mediaType: 'image/png', data: palette });
    }
  }
  if (found.length === 0) throw new MediaError(`the destination takes neither WebP nor PNG (${accepts.join(', ')})`);
  return found;
}

/** Encodes `input` for `destination`; `maxEdge` (0 = none) bounds the long edge. */
export async function transportPayload(input: TransportInput, destination: ImageDestination, maxEdge: number): Promise<TransportPayload> {
  const digest = inputDigest(input.bytes);
  const kind = classOf(await memoised(`${digest}|statistics`, () => imageStatistics(input.bytes)));
  const target = transportSize({ width: input.width, height: input.height }, kind, destination, maxEdge);
  const resized = target.width !== input.width || target.height !== input.height;
  const pipeline = (): sharp.Sharp => {
    const base = sharp(input.bytes, { limitInputPixels: maxInputPixels, animated: false }).rotate();
    const sized = resized ? base.resize({ width: target.width, height: target.height, fit: 'fill' }) : base;
    return input.transparent ? sized.ensureAlpha() : sized.flatten({ background: '#ffffff' });
  };
  // Everything the pipeline's pixels depend on: the bytes (and so their size and orientation),
  // the target size and whether alpha is kept.
  const key = `${digest}|${target.width}x${target.height}|${input.transparent ? 'alpha' : 'flat'}`;
  const { accepts } = destination;
  let candidates: Candidate[];
  if (kind === 'graphic' && !lossySources.has(input.mediaType)) {
    candidates = await losslessCandidates(pipeline, key, accepts);
  } else {
    const quality = kind === 'photo' ? { webp: photoWebpQuality, jpeg: photoJpegQuality } : { webp: graphicLossyQuality, jpeg: graphicLossyQuality };
    const [mediaType, encode] = lossy(accepts, input.transparent, quality);
    candidates = [{ mediaType, data: await memoised(`${key}|lossy|${mediaType}|${quality.webp}|${quality.jpeg}`, () => encode(pipeline())) }];
  }
  if (!resized && !input.animated && accepts.includes(input.mediaType)) candidates.push({ mediaType: input.mediaType, data: input.bytes });
  const best = candidates.reduce((smallest, next) => (next.data.length < smallest.data.length ? next : smallest));
  return { mediaType: best.mediaType, data: best.data, width: target.width, height: target.height, kind };
}
