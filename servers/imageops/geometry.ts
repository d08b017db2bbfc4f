// Coordinate checks shared by the tools. Pixel coordinates are measured from the top-left
// corner of the upright image; boxes are (x1, y1) inclusive to (x2, y2) exclusive, as in
// OpenCV slicing, so a crop of (0, 0, width, height) is the whole image.
import { z } from 'zod';

/** Models sometimes send 12.0 or 12.5; pixel positions are rounded rather than refused. */
export const pixel = z
  .number()
  .finite()
  .transform((value) => Math.round(value));

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Throws a message naming the argument, the bad value and the valid range. */
export function checkBox(box: Box, size: Size, label: string): void {
  const problems: string[] = [];
  if (box.x1 >= box.x2) problems.push(`x1 (${box.x1}) must be less than x2 (${box.x2})`);
  if (box.y1 >= box.y2) problems.push(`y1 (${box.y1}) must be less than y2 (${box.y2})`);
  if (box.x1 < 0 || box.x1 >= size.width) problems.push(`x1 (${box.x1}) must be within 0..${size.width - 1}`);
  if (box.y1 < 0 || box.y1 >= size.height) problems.push(`y1 (${box.y1}) must be within 0..${size.height - 1}`);
  if (box.x2 > size.width || box.x2 <= 0) problems.push(`x2 (${box.x2}) must be within 1..${size.width}`);
  if (box.y2 > size.height || box.y2 <= 0) problems.push(`y2 (${box.y2}) must be within 1..${size.height}`);
  if (problems.length > 0) {
    throw new Error(`${label}: ${problems.join('; ')} (the image is ${size.width}x${size.height} pixels)`);
  }
}

/** True when the axis-aligned bounds overlap the image at all. */
function touchesImage(bounds: Box, size: Size): boolean {
  return bounds.x2 >= 0 && bounds.y2 >= 0 && bounds.x1 < size.width && bounds.y1 < size.height;
}

/** Drawing off the canvas is legal (OpenCV clips it) but usually a coordinate mix-up: warn. */
export function offImageWarnings(shapes: Array<{ label: string; bounds: Box }>, size: Size): string[] {
  return shapes
    .filter((shape) => !touchesImage(shape.bounds, size))
    .map((shape) => `${shape.label} lies entirely outside the ${size.width}x${size.height} image and was not visible`);
}
