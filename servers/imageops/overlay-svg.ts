// SVG overlays for the drawing tools. Each builder returns SVG elements in image pixel
// coordinates; `wrapSvg` gives them a canvas the size of the image for sharp to composite.
// Stroke widths follow OpenCV's `thickness` (the full line width); thickness < 0 means filled.
import { type Rgba, toSvgPaint } from './colors.js';

export interface CircleShape {
  cx: number;
  cy: number;
  radius: number;
  color: Rgba;
  thickness: number;
  filled: boolean;
}

export interface LineShape {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  color: Rgba;
  thickness: number;
}

export interface ArrowShape extends LineShape {
  /** Head length as a fraction of the arrow length (OpenCV's tipLength). */
  tipLength: number;
}

export interface RectangleShape {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  color: Rgba;
  thickness: number;
  filled: boolean;
  label?: string;
}

export interface TextShape {
  text: string;
  x: number;
  y: number;
  fontScale: number;
  color: Rgba;
  thickness: number;
  fontFace?: string;
}

/** HERSHEY_SIMPLEX at scale 1 is about 22 px tall for capitals; DejaVu Sans at 30 px matches. */
const pixelsPerFontScale = 30;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] ?? char);
}

export function wrapSvg(width: number, height: number, elements: string[]): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${elements.join('')}</svg>`);
}

function strokeWidth(thickness: number): number {
  return Math.max(1, thickness);
}

export function circleSvg(shape: CircleShape): string {
  const filled = shape.filled || shape.thickness < 0;
  const paint = filled
    ? `${toSvgPaint(shape.color, 'fill')} stroke="none"`
    : `fill="none" ${toSvgPaint(shape.color, 'stroke')} stroke-width="${strokeWidth(shape.thickness)}"`;
  return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.radius}" ${paint}/>`;
}

export function lineSvg(shape: LineShape): string {
  return `<line x1="${shape.x1}" y1="${shape.y1}" x2="${shape.x2}" y2="${shape.y2}" ${toSvgPaint(shape.color, 'stroke')} stroke-width="${strokeWidth(shape.thickness)}" stroke-linecap="round"/>`;
}

export function arrowSvg(shape: ArrowShape): string {
  const dx = shape.x2 - shape.x1;
  const dy = shape.y2 - shape.y1;
  const length = Math.hypot(dx, dy);
  const head = Math.max(length * shape.tipLength, strokeWidth(shape.thickness) * 2);
  const angle = Math.atan2(dy, dx);
  // Two head strokes at ±30° from the shaft, as cv2.arrowedLine draws them.
  const wing = (offset: number): string =>
    `${(shape.x2 - head * Math.cos(angle + offset)).toFixed(2)},${(shape.y2 - head * Math.sin(angle + offset)).toFixed(2)}`;
  const stroke = `fill="none" ${toSvgPaint(shape.color, 'stroke')} stroke-width="${strokeWidth(shape.thickness)}" stroke-linecap="round" stroke-linejoin="round"`;
  return `${lineSvg(shape)}<polyline points="${wing(Math.PI / 6)} ${shape.x2},${shape.y2} ${wing(-Math.PI / 6)}" ${stroke}/>`;
}

export function rectangleSvg(shape: RectangleShape): string {
  const filled = shape.filled || shape.thickness < 0;
  const paint = filled
    ? `${toSvgPaint(shape.color, 'fill')} stroke="none"`
    : `fill="none" ${toSvgPaint(shape.color, 'stroke')} stroke-width="${strokeWidth(shape.thickness)}"`;
  const rect = `<rect x="${shape.x1}" y="${shape.y1}" width="${shape.x2 - shape.x1}" height="${shape.y2 - shape.y1}" ${paint}/>`;
  if (!shape.label) return rect;
  // Labels sit on a filled tab above the box (inside it when the box touches the top edge).
  const fontSize = 16;
  const tabHeight = fontSize + 6;
  const tabY = shape.y1 - tabHeight >= 0 ? shape.y1 - tabHeight : shape.y1;
  const tabWidth = Math.ceil(shape.label.length * fontSize * 0.62) + 8;
  const luminance = 0.299 * shape.color.r + 0.587 * shape.color.g + 0.114 * shape.color.b;
  const ink = luminance > 140 ? 'rgb(0,0,0)' : 'rgb(255,255,255)';
  return `${rect}<rect x="${shape.x1}" y="${tabY}" width="${tabWidth}" height="${tabHeight}" ${toSvgPaint(shape.color, 'fill')}/><text x="${shape.x1 + 4}" y="${tabY + fontSize}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="${ink}">${escapeXml(shape.label)}</text>`;
}

function fontFor(face: string | undefined): { family: string; style: string } {
  const name = (face ?? 'FONT_HERSHEY_SIMPLEX').toUpperCase();
  const serif = name.includes('COMPLEX') || name.includes('TRIPLEX') || name.includes('SCRIPT');
  const italic = name.includes('ITALIC') || name.includes('SCRIPT');
  return { family: serif ? 'DejaVu Serif, serif' : 'DejaVu Sans, sans-serif', style: italic ? 'italic' : 'normal' };
}

/** (x, y) is the bottom-left of the first line, as in cv2.putText; later lines go downwards. */
export function textSvg(shape: TextShape): string {
  const fontSize = Math.max(4, shape.fontScale * pixelsPerFontScale);
  const font = fontFor(shape.fontFace);
  // OpenCV's thickness widens glyph strokes; a same-colour outline does the same here.
  const outline = Math.max(0, shape.thickness - 1) * 0.75;
  const stroke = outline > 0 ? ` ${toSvgPaint(shape.color, 'stroke')} stroke-width="${outline}" paint-order="stroke"` : '';
  const lines = shape.text.split(/\r?\n/);
  const spans = lines
    .map((line, index) => `<tspan x="${shape.x}" dy="${index === 0 ? 0 : (fontSize * 1.3).toFixed(1)}">${escapeXml(line) || ' '}</tspan>`)
    .join('');
  return `<text x="${shape.x}" y="${shape.y}" font-family="${font.family}" font-style="${font.style}" font-size="${fontSize.toFixed(1)}" ${toSvgPaint(shape.color, 'fill')}${stroke} xml:space="preserve">${spans}</text>`;
}

/** Rough text extent for off-image warnings (average glyph ≈ 0.6 em wide). */
export function textBounds(shape: TextShape): { x1: number; y1: number; x2: number; y2: number } {
  const fontSize = shape.fontScale * pixelsPerFontScale;
  const lines = shape.text.split(/\r?\n/);
  const longest = Math.max(...lines.map((line) => line.length));
  return {
    x1: shape.x,
    y1: shape.y - fontSize,
    x2: shape.x + longest * fontSize * 0.6,
    y2: shape.y + (lines.length - 1) * fontSize * 1.3,
  };
}
