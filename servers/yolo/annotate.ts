// Draws boxes and labels onto an image (sharp + an SVG overlay) and returns a PNG of the
// image's displayed size (EXIF orientation applied, like the detector's coordinates).
import sharp from 'sharp';
import { maxImagePixels } from '../shared/image-input.js';

export interface DrawnBox {
  label: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Picks a stable colour per class; defaults to a hash of the label. */
  colourKey?: number;
}

export interface DrawOptions {
  fontSize?: number;
  boxThickness?: number;
  showLabels?: boolean;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function colourFor(key: number): string {
  const hue = Math.round((key * 137.508) % 360); // golden angle: neighbouring ids get distant hues
  return `hsl(${hue}, 90%, 45%)`;
}

function hashLabel(label: string): number {
  let hash = 0;
  for (const character of label) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return hash % 80;
}

function createOverlaySvg(width: number, height: number, boxes: readonly DrawnBox[], options: DrawOptions = {}): string {
  const shorter = Math.min(width, height);
  const thickness = options.boxThickness ?? Math.max(2, Math.round(shorter / 200));
  const fontSize = options.fontSize ?? Math.max(12, Math.round(shorter / 40));
  const parts = boxes.map((box) => {
    const colour = colourFor(box.colourKey ?? hashLabel(box.label));
    const rect = `<rect x="${box.x1}" y="${box.y1}" width="${Math.max(0, box.x2 - box.x1)}" height="${Math.max(0, box.y2 - box.y1)}" fill="none" stroke="${colour}" stroke-width="${thickness}"/>`;
    if (options.showLabels === false) return rect;
    // A rough width estimate is enough for a background plate behind the label.
    const plateWidth = Math.ceil(box.label.length * fontSize * 0.62) + 6;
    const plateHeight = Math.ceil(fontSize * 1.3);
    const plateY = box.y1 - plateHeight >= 0 ? box.y1 - plateHeight : box.y1;
    return (
      `${rect}<rect x="${box.x1}" y="${plateY}" width="${plateWidth}" height="${plateHeight}" fill="${colour}"/>` +
      `<text x="${box.x1 + 3}" y="${plateY + fontSize}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#ffffff">${escapeXml(box.label)}</text>`
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

export async function drawBoxes(bytes: Buffer, boxes: readonly DrawnBox[], options: DrawOptions = {}): Promise<{ png: Buffer; width: number; height: number }> {
  // Bake the orientation in first so the overlay and the boxes share the displayed frame.
  // Raw pixels keep that intermediate step lossless.
  const oriented = await sharp(bytes, { limitInputPixels: maxImagePixels }).rotate().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = oriented.info;
  const svg = Buffer.from(createOverlaySvg(width, height, boxes, options));
  const png = await sharp(oriented.data, { raw: { width, height, channels } })
    .composite([{ input: svg, top: 0, left: 0 }])
    .png()
    .toBuffer();
  return { png, width, height };
}
