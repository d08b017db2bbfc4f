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
  const channels = info.channels;
  const pixels = info.width * info.height;
  const colours = new Set<number>();
  let pairs = 0;
  let same = 0;
  for (let index = 0; index < pixels; index += 1) {
    const at = index * channels;
    const colour = ((data[at] ?? 0) << 16) | ((data[at + 1] ?? 0) << 8) | (data[at + 2] ?? 0);
    colours.add(colour);
    if (index % info.width === 0) continue;
    pairs += 1;
    const left = at - channels;
    if (data[left] === data[at] && data[left + 1] === data[at + 1] && data[left + 2] === data[at + 2]) same += 1;
  }
  return { distinct: colours.size / Math.max(1, pixels), flat: pairs === 0 ? 1 : same / pairs };
}

export function classOf(statistics: ImageStatistics): ImageClass {
  if (statistics.distinct < 0.01) return 'graphic';
  return statistics.flat >= 0.5 && statistics.distinct < 0.1 ? 'graphic' : 'photo';
}
