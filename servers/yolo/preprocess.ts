// YOLOX input preparation: letterbox to a square (top-left, pad 114), BGR, raw 0-255 floats, NCHW.
// The math is split from the sharp pipeline so it can be checked on hand-made arrays.
import sharp from 'sharp';
import { isSrgbEquivalentProfile } from '../shared/colour-profile.js';
import { maxImagePixels } from '../shared/image-input.js';

export const inputSize = 416;
/** @internal Exported for its tests. */
export const padValue = 114;

interface Letterbox {
  /** Factor from original pixels to model pixels: min(size/width, size/height). */
  scale: number;
  resizedWidth: number;
  resizedHeight: number;
}

/** @internal Exported for its tests. */
export function computeLetterbox(width: number, height: number, size = inputSize): Letterbox {
  if (!(width > 0 && height > 0)) throw new Error(`cannot letterbox an image of ${width}x${height} pixels`);
  const scale = Math.min(size / width, size / height);
  // YOLOX truncates (int(w * r)); the epsilon keeps 768 * (416/768) from landing on 415.999.
  const side = (value: number) => Math.min(size, Math.max(1, Math.floor(value * scale + 1e-6)));
  return { scale, resizedWidth: side(width), resizedHeight: side(height) };
}

/**
 * Copies interleaved RGB(A) pixels of the resized image into the top-left corner of a
 * size x size NCHW float tensor in BGR order; everything else is set to the pad value.
 * `target` (3 x size x size floats) is reused when given: only the pad region is refilled.
 * @internal Exported for its tests.
 */
export function toInputTensorData(pixels: Uint8Array, width: number, height: number, channels: number, size = inputSize, target?: Float32Array): Float32Array {
  if (width > size || height > size) throw new Error(`resized image ${width}x${height} does not fit the ${size}x${size} input`);
  if (channels < 3) throw new Error(`expected at least 3 colour channels, got ${channels}`);
  if (pixels.length < width * height * channels) {
    throw new Error(`pixel buffer holds ${pixels.length} bytes, expected ${width * height * channels} for ${width}x${height}x${channels}`);
  }
  const plane = size * size;
  if (target && target.length !== 3 * plane) throw new Error(`tensor buffer holds ${target.length} floats, expected ${3 * plane}`);
  const data = target ?? new Float32Array(3 * plane);
  const blue = data.subarray(0, plane);
  const green = data.subarray(plane, 2 * plane);
  const red = data.subarray(2 * plane);
  // Hot loop (~130k pixels per call): the length check above makes every index valid.
  for (let y = 0; y < height; y += 1) {
    let source = y * width * channels;
    const rowStart = y * size;
    const rowEnd = rowStart + width;
    for (let target = rowStart; target < rowEnd; target += 1, source += channels) {
      red[target] = pixels[source]!;
      green[target] = pixels[source + 1]!;
      blue[target] = pixels[source + 2]!;
    }
    if (width < size) padRange(data, plane, rowEnd, rowStart + size);
  }
  if (height < size) padRange(data, plane, height * size, plane);
  return data;
}

/** Sets [from, to) of each of the three planes to the pad value. */
function padRange(data: Float32Array, plane: number, from: number, to: number): void {
  for (let channel = 0; channel < 3; channel += 1) data.fill(padValue, channel * plane + from, channel * plane + to);
}

export interface PreparedImage {
  data: Float32Array;
  letterbox: Letterbox;
  /** Size after EXIF orientation: the frame the returned boxes refer to. */
  width: number;
  height: number;
}

/**
 * Decodes, applies EXIF orientation, letterboxes and converts an encoded image, in one sharp
 * pipeline after the header (given, or read first): libvips decodes
 * straight towards the letterbox size (JPEG shrink-on-load picks a DCT scale of 1/2, 1/4 or 1/8
 * before the lanczos3 resize, as sharp's fastShrinkOnLoad default does), and the raw pixels go
 * into `target` when a reusable tensor buffer is given.
 */
export async function prepareImage(bytes: Buffer, size = inputSize, target?: Float32Array, header?: ImageHeader): Promise<PreparedImage> {
  const decoded = await decodeForLetterbox(bytes, size, header);
  const { pixels, info } = decoded;
  return {
    data: toInputTensorData(pixels, info.width, info.height, info.channels, size, target),
    letterbox: decoded.letterbox,
    width: decoded.width,
    height: decoded.height,
  };
}

interface DecodedForLetterbox {
  pixels: Buffer;
  info: sharp.OutputInfo;
  letterbox: Letterbox;
  width: number;
  height: number;
}

/** The header facts the letterbox needs, when the caller has read them already. */
export interface ImageHeader {
  /** As stored, before EXIF orientation. */
  width?: number | undefined;
  height?: number | undefined;
  orientation?: number | undefined;
  /** The embedded ICC profile; stated even when absent, so a header without it cannot skip a conversion by mistake. */
  icc: Buffer | undefined;
}

/**
 * The decode + resize stage alone (the benchmark times it apart from the tensor fill). With
 * `header` (e.g. the one servers/shared/image-input.ts read to check the image) the header is
 * not parsed a second time: that is a libvips job of its own, a round trip through sharp's
 * thread pool per call. An embedded profile that is sRGB in all but name is not converted to
 * sRGB (servers/shared/colour-profile.ts: the conversion changed no pixel and cost as much as the
 * decode); any other profile is.
 * @internal Exported for its tests.
 */
export async function decodeForLetterbox(bytes: Buffer, size = inputSize, header?: ImageHeader): Promise<DecodedForLetterbox> {
  const metadata = header ?? (await sharp(bytes, { limitInputPixels: maxImagePixels }).metadata());
  // EXIF orientations 5-8 are transposed: the displayed image has width and height swapped.
  const transposed = (metadata.orientation ?? 1) >= 5;
  const width = (transposed ? metadata.height : metadata.width) ?? 0;
  const height = (transposed ? metadata.width : metadata.height) ?? 0;
  const letterbox = computeLetterbox(width, height, size);
  const ignoreIcc = metadata.icc === undefined || isSrgbEquivalentProfile(metadata.icc);
  const { data: pixels, info } = await sharp(bytes, { limitInputPixels: maxImagePixels, ignoreIcc })
    .rotate()
    // sharp's default lanczos3 reproduced the shared manifest's reference detections best
    // (139/139 matched at IoU > 0.5, vs 137 for bilinear as in the Python YOLOX demo).
    .resize(letterbox.resizedWidth, letterbox.resizedHeight, { fit: 'fill' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels, info, letterbox, width, height };
}
