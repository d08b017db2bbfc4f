// The pixel size the transport policy sends an image at. Never larger than what the vendor's own
// pipeline keeps (src/media/vision-tokens.ts): pixels it would discard cost bytes and nothing else.
// Photos are further held to a shortest side of 768 px, the detail OpenAI's high-detail pipeline
// keeps of any photo (not for Gemini, whose tokens do not depend on the size); screenshots,
// charts and rendered text keep every pixel the vendor keeps, since small glyphs are where a
// lower resolution shows. Last, a shrink of at most 10 % is taken
// when it saves a whole tile row or column (OpenAI's 512-px tiles, Gemini's one-tile 384-px rule).
import type { ImageDestination } from './image-destination.js';
import type { ImageClass } from './image-class.js';
import { anthropicSeenSize, geminiDetailShortSide, geminiSmallSide, geminiTiles, openaiSeenSize, openaiTiles, type PixelSize } from './vision-tokens.js';

const photoShortSide = 768;
/** The largest linear shrink taken only to save tiles. */
const snapTolerance = 0.1;

function scaledTo(size: PixelSize, factor: number): PixelSize {
  if (factor >= 1) return size;
  return { width: Math.max(1, Math.round(size.width * factor)), height: Math.max(1, Math.round(size.height * factor)) };
}

/**
 * The size the destination's vendor itself resizes `size` to (the pixels its model can see).
 * @internal Exported for its tests.
 */
export function vendorCap(size: PixelSize, destination: ImageDestination): PixelSize {
  if (destination.vendor === 'openai') return openaiSeenSize(size);
  if (destination.vendor === 'anthropic') return anthropicSeenSize(size);
  if (destination.vendor === 'gemini') return scaledTo(size, geminiDetailShortSide / Math.min(size.width, size.height));
  return size;
}

/** The largest shrink within the tolerance that lowers the tile count, if any. */
function snapToTiles(size: PixelSize, destination: ImageDestination): PixelSize {
  if (destination.vendor === 'openai') {
    const tiles = openaiTiles(size);
    const factors = [size.width, size.height]
      .map((side) => (512 * (Math.ceil(side / 512) - 1)) / side)
      .filter((factor) => factor >= 1 - snapTolerance && factor < 1)
      .sort((a, b) => b - a);
    for (const factor of factors) {
      const candidate = { width: Math.floor(size.width * factor), height: Math.floor(size.height * factor) };
      if (openaiTiles(candidate) < tiles) return candidate;
    }
  }
  if (destination.vendor === 'gemini' && geminiTiles(size) > 1) {
    const factor = geminiSmallSide / Math.max(size.width, size.height);
    if (factor >= 1 - snapTolerance) return { width: Math.floor(size.width * factor), height: Math.floor(size.height * factor) };
  }
  return size;
}

/** Target size for an image of `size` and class `kind`; `maxEdge` (0 = none) bounds the long edge. */
export function transportSize(size: PixelSize, kind: ImageClass, destination: ImageDestination, maxEdge: number): PixelSize {
  let target = vendorCap(size, destination);
  if (maxEdge > 0) target = scaledTo(target, maxEdge / Math.max(target.width, target.height));
  // Not for Gemini: its token count depends on the aspect ratio only, so the smaller photo would
  // save bytes and no tokens while dropping detail Gemini keeps (bench:images: lines of text
  // the OCR still reads on Gemini's own resize of the original were lost at 768).
  if (kind === 'photo' && destination.vendor !== 'gemini') target = scaledTo(target, photoShortSide / Math.min(target.width, target.height));
  return snapToTiles(target, destination);
}
