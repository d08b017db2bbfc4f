// Photo or graphic (screenshot, chart, rendered text, a clean barcode)? Decided by two statistics
// of a nearest-neighbour sample of at most 512 x 512 px (nearest, so no new colours are mixed in):
//   distinct = distinct RGB colours / sampled pixels
//   flat     = share of horizontally adjacent pixel pairs with exactly the same colour
// Camera noise makes nearly every pixel of a photo its own colour and almost no two neighbours
// equal; rendered content repeats a few colours over flat areas. Graphic when distinct < 0.01,
// or when flat >= 0.5 and distinct < 0.1 (a screenshot with antialiased text). On the 55 shared
// assets photos score distinct 0.04-0.52 with flat <= 0.31 (barring a white-backdrop still life).
import sharp from 'sharp';

export type ImageClass = 'photo' | 'graphic';

export interface ImageStatistics {
  distinct: number;
  flat: number;
}

const sampleEdge = 512;
const maxInputPixels = 50_000_000;

export async function imageStatistics(bytes: Buffer): Promise<ImageStatistics> {
  const { data, info } = await sharp(bytes, { limitInputPixels: maxInputPixels, animated: false })
    .rotate()
    .resize({ width: sampleEdge, height: sampleEdge, fit: 'inside', withoutEnlargement: true, kernel: 'nearest' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return countColours(data, info.width, info.height, info.channels);
}

/**
 * One bit per 24-bit RGB colour (2 MiB), cleared per image: a Set of numbers spent more time on
 * hashing than the decode took, and the loop below runs to its end without awaiting, so calls
 * never share the bits.
 */
const seenColours = new Uint32Array(1 << 19);

function countColours(data: Uint8Array, width: number, height: number, channels: number): ImageStatistics {
  seenColours.fill(0);
  const pixels = width * height;
  let distinct = 0;
  let same = 0;
  for (let index = 0, at = 0; index < pixels; index += 1, at += channels) {
    const colour = ((data[at] as number) << 16) | ((data[at + 1] as number) << 8) | (data[at + 2] as number);
    const word = colour >>> 5;
    const bit = 1 << (colour & 31);
    if (((seenColours[word] as number) & bit) === 0) {
      seenColours[word] = (seenColours[word] as number) | bit;
      distinct += 1;
    }
    if (index % width !== 0 && data[at - channels] === data[at] && data[at - channels + 1] === data[at + 1] && data[at - channels + 2] === data[at + 2]) {
      same += 1;
    }
  }
  const pairs = pixels - height;
  return { distinct: distinct / Math.max(1, pixels), flat: pairs === 0 ? 1 : same / pairs };
}

export function classOf(statistics: ImageStatistics): ImageClass {
  if (statistics.distinct < 0.01) return 'graphic';
  return statistics.flat >= 0.5 && statistics.distinct < 0.1 ? 'graphic' : 'photo';
}
