// What each vendor does to an image before its model sees it, and how many input tokens that
// costs, from the vendors' published formulas. One place, so the transport policy
// (src/media/transport-size.ts), the per-request record and `npm run bench:images` agree.
// These are estimates: vendors bill what their servers count, and newer model families may
// use other rules (OpenAI's patch-based mini models, Gemini 3's media_resolution).

export type VisionVendor = 'openai' | 'anthropic' | 'gemini';

export interface PixelSize {
  width: number;
  height: number;
}

function scaled(size: PixelSize, factor: number): PixelSize {
  if (factor >= 1) return size;
  // The epsilon keeps 1365 * (768 / 1365) at 768, not 767.99... floored to 767.
  const side = (value: number) => Math.max(1, Math.floor(value * factor + 1e-6));
  return { width: side(size.width), height: side(size.height) };
}

// OpenAI, high detail: the image is fitted inside 2048 x 2048, then scaled down so its shortest
// side is 768 px; the model sees that many 512-px tiles, 170 tokens each, plus 85 for the image.
const openaiBox = 2048;
const openaiShortSide = 768;
const openaiTile = 512;

export function openaiSeenSize(size: PixelSize): PixelSize {
  const boxed = scaled(size, openaiBox / Math.max(size.width, size.height));
  return scaled(boxed, openaiShortSide / Math.min(boxed.width, boxed.height));
}

export function openaiTiles(size: PixelSize): number {
  const seen = openaiSeenSize(size);
  return Math.ceil(seen.width / openaiTile) * Math.ceil(seen.height / openaiTile);
}

function openaiTokens(size: PixelSize): number {
  return 85 + 170 * openaiTiles(size);
}

// Anthropic: an image whose long edge is above 1568 px, or that would cost more than about
// 1,600 tokens (about 1.15-1.2 MP; their table keeps 1092 x 1092 unresized), is scaled down
// keeping its aspect ratio; it then costs width * height / 750 tokens.
const anthropicLongEdge = 1568;
const anthropicPixelsPerToken = 750;
const anthropicMaxPixels = 1600 * anthropicPixelsPerToken;

export function anthropicSeenSize(size: PixelSize): PixelSize {
  const byEdge = scaled(size, anthropicLongEdge / Math.max(size.width, size.height));
  return scaled(byEdge, Math.sqrt(anthropicMaxPixels / (byEdge.width * byEdge.height)));
}

function anthropicTokens(size: PixelSize): number {
  const seen = anthropicSeenSize(size);
  return Math.ceil((seen.width * seen.height) / anthropicPixelsPerToken);
}

// Gemini 2.x: an image with both sides <= 384 px is one 258-token tile. A larger image is cut
// into square crops of floor(shortest side / 1.5) px, each scaled to a 768 x 768 tile of 258
// tokens. The count depends on the aspect ratio only, and a crop wider than 768 px is scaled
// down, so detail beyond a shortest side of 1.5 x 768 = 1152 px never reaches the model.
export const geminiSmallSide = 384;
const geminiTileTokens = 258;
const geminiTile = 768;
export const geminiDetailShortSide = Math.round(1.5 * geminiTile);

export function geminiTiles(size: PixelSize): number {
  if (size.width <= geminiSmallSide && size.height <= geminiSmallSide) return 1;
  const crop = Math.max(1, Math.floor(Math.min(size.width, size.height) / 1.5));
  return Math.ceil(size.width / crop) * Math.ceil(size.height / crop);
}

function geminiTokens(size: PixelSize): number {
  return geminiTileTokens * geminiTiles(size);
}

/** Estimated input tokens of one image of `size` pixels, as sent, for `vendor`. */
export function visionTokens(vendor: VisionVendor, size: PixelSize): number {
  if (size.width < 1 || size.height < 1) return 0;
  if (vendor === 'openai') return openaiTokens(size);
  if (vendor === 'anthropic') return anthropicTokens(size);
  return geminiTokens(size);
}
