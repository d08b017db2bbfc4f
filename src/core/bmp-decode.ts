// Windows bitmaps (BMP) to raw RGBA pixels, because sharp (libvips) cannot read BMP. Covers
// what cameras, screenshots and Paint write: uncompressed 1/4/8-bit palette images and 16/24/32-bit
// pixels, with BI_RGB or bit-field masks, bottom-up or top-down. RLE-compressed and embedded
// JPEG/PNG bitmaps are refused with a message that says so.
import sharp from 'sharp';

/** @internal Exported for its tests. */
export class BmpDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BmpDecodeError';
  }
}

interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
}

interface Header {
  width: number;
  height: number;
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  pixelOffset: number;
  palette: Array<[number, number, number]>;
  masks: [number, number, number, number];
}

const compressionNames: Record<number, string> = { 1: 'RLE8', 2: 'RLE4', 4: 'embedded JPEG', 5: 'embedded PNG' };

function readHeader(bytes: Buffer): Header {
  if (bytes.length < 26 || bytes.toString('latin1', 0, 2) !== 'BM') throw new BmpDecodeError('not a BMP file (no "BM" signature)');
  const pixelOffset = bytes.readUInt32LE(10);
  const headerSize = bytes.readUInt32LE(14);
  const core = headerSize === 12;
  const width = core ? bytes.readUInt16LE(18) : bytes.readInt32LE(18);
  const rawHeight = core ? bytes.readInt16LE(20) : bytes.readInt32LE(22);
  const bitsPerPixel = core ? bytes.readUInt16LE(24) : bytes.readUInt16LE(28);
  const compression = core ? 0 : bytes.readUInt32LE(30);
  if (compressionNames[compression])
    throw new BmpDecodeError(`${compressionNames[compression]}-compressed BMP is not supported; save it as PNG or uncompressed BMP`);
  if (width <= 0 || rawHeight === 0) throw new BmpDecodeError(`BMP has an invalid size ${width}x${rawHeight}`);
  let masks: Header['masks'] = bitsPerPixel === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0xff0000, 0xff00, 0xff, 0];
  if (compression === 3 || compression === 6) {
    const at = headerSize >= 52 ? 54 : 14 + headerSize; // masks follow a 40-byte header, or sit inside a v4/v5 one
    masks = [
      bytes.readUInt32LE(at),
      bytes.readUInt32LE(at + 4),
      bytes.readUInt32LE(at + 8),
      compression === 6 || headerSize >= 56 ? bytes.readUInt32LE(at + 12) : 0,
    ];
  }
  const palette: Header['palette'] = [];
  if (bitsPerPixel <= 8) {
    const entrySize = core ? 3 : 4;
    const declared = core ? 0 : bytes.readUInt32LE(46);
    const count = declared || 1 << bitsPerPixel;
    for (let index = 0, at = 14 + headerSize; index < count && at + 3 <= bytes.length; index += 1, at += entrySize) {
      palette.push([bytes[at + 2] ?? 0, bytes[at + 1] ?? 0, bytes[at] ?? 0]);
    }
  }
  return { width, height: Math.abs(rawHeight), topDown: rawHeight < 0, bitsPerPixel, compression, pixelOffset, palette, masks };
}

/** One channel scaled to 0-255 from its bit mask (e.g. 0x7c00 for 5-bit red). */
function channel(value: number, mask: number): number {
  if (mask === 0) return 255;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift += 1;
  const max = mask >>> shift;
  return Math.round((((value & mask) >>> shift) * 255) / max);
}

function pixelAt(bytes: Buffer, row: number, x: number, header: Header): [number, number, number, number] {
  const bits = header.bitsPerPixel;
  if (bits <= 8) {
    const byte = bytes[row + Math.floor((x * bits) / 8)] ?? 0;
    const index = (byte >> (8 - bits - ((x * bits) % 8))) & ((1 << bits) - 1);
    const [r, g, b] = header.palette[index] ?? [0, 0, 0];
    return [r, g, b, 255];
  }
  if (bits === 24) return [bytes[row + x * 3 + 2] ?? 0, bytes[row + x * 3 + 1] ?? 0, bytes[row + x * 3] ?? 0, 255];
  const value = bits === 16 ? bytes.readUInt16LE(row + x * 2) : bytes.readUInt32LE(row + x * 4);
  const [red, green, blue, alpha] = header.masks;
  return [channel(value, red), channel(value, green), channel(value, blue), alpha ? channel(value, alpha) : 255];
}

/** @internal Exported for its tests. */
export function decodeBmp(bytes: Buffer, maxPixels: number): RawImage {
  const header = readHeader(bytes);
  if (![1, 4, 8, 16, 24, 32].includes(header.bitsPerPixel)) throw new BmpDecodeError(`${header.bitsPerPixel}-bit BMP is not supported`);
  if (header.width * header.height > maxPixels) throw new BmpDecodeError(`BMP is ${header.width}x${header.height} pixels, above the ${maxPixels} pixel limit`);
  const stride = Math.ceil((header.width * header.bitsPerPixel) / 32) * 4;
  if (header.pixelOffset + stride * header.height > bytes.length) throw new BmpDecodeError('BMP is truncated: its pixel data is shorter than its header says');
  const data = Buffer.alloc(header.width * header.height * 4);
  for (let y = 0; y < header.height; y += 1) {
    const row = header.pixelOffset + stride * (header.topDown ? y : header.height - 1 - y);
    for (let x = 0; x < header.width; x += 1) data.set(pixelAt(bytes, row, x, header), (y * header.width + x) * 4);
  }
  return { data, width: header.width, height: header.height, channels: 4 };
}

/** A lossless PNG of a BMP's pixels, for code that goes on with sharp (which cannot read BMP). */
export async function bmpAsPng(bytes: Buffer, maxPixels: number): Promise<Buffer> {
  const raw = decodeBmp(bytes, maxPixels);
  return sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } })
    .png()
    .toBuffer();
}
