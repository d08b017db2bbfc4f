// BMP decoding on hand-made bitmaps: palette, 16-bit and 32-bit bit-field pixels, row order and
// padding, and clear refusals of what is not decoded (RLE, truncated files).
import { describe, expect, it } from 'vitest';
import { BmpDecodeError, decodeBmp } from '../../../src/core/bmp-decode.js';

interface Spec {
  width: number;
  height: number;
  bits: number;
  compression?: number;
  palette?: Array<[number, number, number]>;
  masks?: [number, number, number, number];
  rows: number[][]; // bytes of each stored row, before padding, in file order
}

function bitmap(spec: Spec): Buffer {
  const paletteBytes = (spec.palette?.length ?? 0) * 4;
  const maskBytes = spec.masks ? 16 : 0;
  const offset = 54 + maskBytes + paletteBytes;
  const stride = Math.ceil((spec.width * spec.bits) / 32) * 4;
  const file = Buffer.alloc(offset + stride * spec.rows.length);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(offset, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(spec.width, 18);
  file.writeInt32LE(spec.height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(spec.bits, 28);
  file.writeUInt32LE(spec.compression ?? 0, 30);
  file.writeUInt32LE(spec.palette?.length ?? 0, 46);
  spec.masks?.forEach((mask, index) => file.writeUInt32LE(mask >>> 0, 54 + index * 4));
  spec.palette?.forEach(([r, g, b], index) => file.set([b, g, r, 0], 54 + maskBytes + index * 4));
  spec.rows.forEach((row, index) => file.set(row, offset + index * stride));
  return file;
}

const pixels = (buffer: Buffer) => [...buffer];

describe('decodeBmp', () => {
  it('reads 8-bit palette images bottom-up, skipping row padding', () => {
    const file = bitmap({
      width: 3,
      height: 2,
      bits: 8,
      palette: [
        [255, 0, 0],
        [0, 0, 255],
      ],
      rows: [
        [1, 1, 1],
        [0, 1, 0],
      ],
    });
    const image = decodeBmp(file, 100);
    expect([image.width, image.height]).toEqual([3, 2]);
    // The last stored row is the top one.
    expect(pixels(image.data)).toEqual([255, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255]);
  });

  it('reads 1-bit images and 16-bit 5-5-5 pixels', () => {
    const mono = decodeBmp(
      bitmap({
        width: 2,
        height: 1,
        bits: 1,
        palette: [
          [0, 0, 0],
          [255, 255, 255],
        ],
        rows: [[0b01000000]],
      }),
      10,
    );
    expect(pixels(mono.data)).toEqual([0, 0, 0, 255, 255, 255, 255, 255]);
    const sixteen = decodeBmp(bitmap({ width: 1, height: 1, bits: 16, rows: [[0x00, 0x7c]] }), 10); // 0x7c00: full red
    expect(pixels(sixteen.data)).toEqual([255, 0, 0, 255]);
  });

  it('reads 32-bit bit-field pixels with alpha (BI_ALPHABITFIELDS), top-down when the height is negative', () => {
    const file = bitmap({
      width: 1,
      height: -2,
      bits: 32,
      compression: 6,
      masks: [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000],
      rows: [
        [10, 20, 30, 128],
        [0, 0, 0, 255],
      ],
    });
    expect(pixels(decodeBmp(file, 10).data)).toEqual([30, 20, 10, 128, 0, 0, 0, 255]);
  });

  it('refuses RLE compression, truncated pixel data and oversized images with messages', () => {
    expect(() => decodeBmp(bitmap({ width: 1, height: 1, bits: 8, compression: 1, palette: [[0, 0, 0]], rows: [[0]] }), 10)).toThrow(
      /RLE8-compressed BMP is not supported/,
    );
    const truncated = bitmap({ width: 4, height: 4, bits: 24, rows: [[0]] });
    expect(() => decodeBmp(truncated, 100)).toThrow(/truncated/);
    expect(() => decodeBmp(bitmap({ width: 4, height: 4, bits: 24, rows: [[], [], [], []] }), 10)).toThrow(/above the 10 pixel limit/);
    expect(() => decodeBmp(Buffer.from('not a bitmap at all, just text'), 10)).toThrow(BmpDecodeError);
  });
});
