// Drawing tools: circles, texts, lines, arrows and rectangles, rendered as one SVG overlay
// composited onto the image. Argument shapes follow the reference (imagesorcery-mcp) and the
// ground-truth calls: circles use center_x/center_y/radius, texts x/y/font_scale/thickness/
// font_face, colours are BGR lists (see colors.ts) or names/hex.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { guarded } from '../shared/tool-result.js';
import { type ColorInput, colorSchema, parseColor } from './colors.js';
import { type Box, offImageWarnings, pixel } from './geometry.js';
import { type CallExtra, keepChannels, loadWorkingImage, toColor, toSharp, toWorking, writeResult } from './image-io.js';
import { arrowSvg, circleSvg, lineSvg, rectangleSvg, textBounds, textSvg, wrapSvg } from './overlay-svg.js';

const inputPath = z.string().min(1).describe('Image file path (inside the allowed folders) or data URL');
const outputPath = z.string().nullish().describe('Where to write the result; default <input stem>_<tool>.png next to the input');
const color = colorSchema.nullish().describe('Colour: BGR list as in OpenCV ([0,0,255] is red), a name ("red") or hex ("#ff0000")');
const thickness = z.number().int().nullish().describe('Line width in pixels; a negative value fills the shape');

const circleItem = z.object({
  center_x: pixel,
  center_y: pixel,
  radius: z.number().positive(),
  color,
  thickness,
  filled: z.boolean().nullish(),
});

const textItem = z.object({
  text: z.string(),
  x: pixel,
  y: pixel.describe('Baseline of the first line (bottom-left origin, as cv2.putText)'),
  font_scale: z.number().positive().nullish(),
  color,
  thickness,
  font_face: z.string().nullish().describe('OpenCV font name, e.g. FONT_HERSHEY_SIMPLEX (serif for COMPLEX/TRIPLEX)'),
});

const lineItem = z.object({ x1: pixel, y1: pixel, x2: pixel, y2: pixel, color, thickness });
const arrowItem = lineItem.extend({ tip_length: z.number().positive().max(1).nullish() });
const rectangleItem = z.object({
  x1: pixel.optional(),
  y1: pixel.optional(),
  x2: pixel.optional(),
  y2: pixel.optional(),
  bbox: z
    .union([
      z.array(z.number()).length(4),
      z.object({ x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number() }),
      z.object({ xmin: z.number(), ymin: z.number(), xmax: z.number(), ymax: z.number() }),
    ])
    .optional()
    .describe('Alternative to x1..y2, as detectors return it: [x1, y1, x2, y2], {x1, y1, x2, y2} or {xmin, ymin, xmax, ymax}'),
  label: z.string().nullish(),
  name: z.string().nullish().describe('Used as the label when label is absent (detector output)'),
  color,
  thickness,
  filled: z.boolean().nullish(),
});

const shapeColor: ColorInput = [0, 0, 255];
const textColor: ColorInput = [0, 0, 0];

interface Overlay {
  elements: string[];
  shapes: Array<{ label: string; bounds: Box }>;
}

async function drawOverlay(
  args: { input_path: string; output_path?: string | null | undefined },
  operation: string,
  build: () => Overlay,
  extra: Record<string, unknown>,
  call: CallExtra,
): Promise<CallToolResult> {
  const overlay = build(); // argument errors surface before the image is decoded
  const image = await toColor(await loadWorkingImage(args.input_path, call));
  const composited = await toWorking(toSharp(image).composite([{ input: wrapSvg(image.width, image.height, overlay.elements), top: 0, left: 0 }]), image.path);
  const drawn = await keepChannels(composited, image);
  const warnings = offImageWarnings(overlay.shapes, image);
  return writeResult(drawn, {
    call,
    operation,
    outputPath: args.output_path,
    inputPath: image.path,
    extra: { ...extra, ...(warnings.length > 0 ? { warnings } : {}) },
  });
}

function rectangleBox(item: z.infer<typeof rectangleItem>, index: number): Box {
  const corners = Array.isArray(item.bbox)
    ? item.bbox
    : item.bbox &&
      ('xmin' in item.bbox ? [item.bbox.xmin, item.bbox.ymin, item.bbox.xmax, item.bbox.ymax] : [item.bbox.x1, item.bbox.y1, item.bbox.x2, item.bbox.y2]);
  const [bx1, by1, bx2, by2] = corners?.map(Math.round) ?? [];
  const box = { x1: item.x1 ?? bx1, y1: item.y1 ?? by1, x2: item.x2 ?? bx2, y2: item.y2 ?? by2 };
  if (box.x1 === undefined || box.y1 === undefined || box.x2 === undefined || box.y2 === undefined) {
    throw new Error(`rectangles[${index}]: give x1, y1, x2, y2 or bbox [x1, y1, x2, y2]`);
  }
  return { x1: Math.min(box.x1, box.x2), y1: Math.min(box.y1, box.y2), x2: Math.max(box.x1, box.x2), y2: Math.max(box.y1, box.y2) };
}

type CircleItem = z.infer<typeof circleItem>;
type TextItem = z.infer<typeof textItem>;
type LineItem = z.infer<typeof lineItem>;
type ArrowItem = z.infer<typeof arrowItem>;
type RectangleItem = z.infer<typeof rectangleItem>;

const spanOf = (item: { x1: number; y1: number; x2: number; y2: number }): Box => ({
  x1: Math.min(item.x1, item.x2),
  y1: Math.min(item.y1, item.y2),
  x2: Math.max(item.x1, item.x2),
  y2: Math.max(item.y1, item.y2),
});

function circleOverlay(items: CircleItem[]): Overlay {
  const circles = items.map((item, index) => ({
    shape: {
      cx: item.center_x,
      cy: item.center_y,
      radius: item.radius,
      color: parseColor(item.color, shapeColor, `circles[${index}].color`),
      thickness: item.thickness ?? 2,
      filled: item.filled ?? false,
    },
    bounds: { x1: item.center_x - item.radius, y1: item.center_y - item.radius, x2: item.center_x + item.radius, y2: item.center_y + item.radius },
    label: `circles[${index}]`,
  }));
  return { elements: circles.map((circle) => circleSvg(circle.shape)), shapes: circles };
}

function textOverlay(items: TextItem[]): Overlay {
  const texts = items.map((item, index) => {
    const shape = {
      text: item.text,
      x: item.x,
      y: item.y,
      fontScale: item.font_scale ?? 1,
      color: parseColor(item.color, textColor, `texts[${index}].color`),
      thickness: item.thickness ?? 1,
      ...(item.font_face ? { fontFace: item.font_face } : {}),
    };
    return { shape, bounds: textBounds(shape), label: `texts[${index}]` };
  });
  return { elements: texts.map((text) => textSvg(text.shape)), shapes: texts };
}

function lineOverlay(items: LineItem[]): Overlay {
  const lines = items.map((item, index) => ({
    shape: { ...item, color: parseColor(item.color, shapeColor, `lines[${index}].color`), thickness: item.thickness ?? 2 },
    bounds: spanOf(item),
    label: `lines[${index}]`,
  }));
  return { elements: lines.map((line) => lineSvg(line.shape)), shapes: lines };
}

function arrowOverlay(items: ArrowItem[]): Overlay {
  const arrows = items.map((item, index) => ({
    shape: { ...item, color: parseColor(item.color, shapeColor, `arrows[${index}].color`), thickness: item.thickness ?? 2, tipLength: item.tip_length ?? 0.1 },
    bounds: spanOf(item),
    label: `arrows[${index}]`,
  }));
  return { elements: arrows.map((arrow) => arrowSvg(arrow.shape)), shapes: arrows };
}

function rectangleOverlay(items: RectangleItem[]): Overlay {
  const rectangles = items.map((item, index) => {
    const bounds = rectangleBox(item, index);
    const shape = {
      ...bounds,
      color: parseColor(item.color, shapeColor, `rectangles[${index}].color`),
      thickness: item.thickness ?? 2,
      filled: item.filled ?? false,
      ...((item.label ?? item.name) ? { label: item.label ?? item.name ?? '' } : {}),
    };
    return { shape, bounds, label: `rectangles[${index}]` };
  });
  return { elements: rectangles.map((rectangle) => rectangleSvg(rectangle.shape)), shapes: rectangles };
}

export function registerDrawTools(server: McpServer): void {
  server.registerTool(
    'draw_circles',
    {
      description: 'Draw circles (center_x, center_y, radius, color, thickness, filled) on an image; returns the output path.',
      inputSchema: { input_path: inputPath, circles: z.array(circleItem).min(1), output_path: outputPath },
    },
    (args, call) => guarded(() => drawOverlay(args, 'draw_circles', () => circleOverlay(args.circles), { circles: args.circles.length }, call)),
  );
  server.registerTool(
    'draw_texts',
    {
      description: 'Draw text labels on an image; (x, y) is the bottom-left of the text as in OpenCV putText. Returns the output path.',
      inputSchema: { input_path: inputPath, texts: z.array(textItem).min(1), output_path: outputPath },
    },
    (args, call) => guarded(() => drawOverlay(args, 'draw_texts', () => textOverlay(args.texts), { texts: args.texts.length }, call)),
  );
  server.registerTool(
    'draw_lines',
    {
      description: 'Draw straight lines from (x1, y1) to (x2, y2) on an image; returns the output path.',
      inputSchema: { input_path: inputPath, lines: z.array(lineItem).min(1), output_path: outputPath },
    },
    (args, call) => guarded(() => drawOverlay(args, 'draw_lines', () => lineOverlay(args.lines), { lines: args.lines.length }, call)),
  );
  server.registerTool(
    'draw_arrows',
    {
      description: 'Draw arrows from (x1, y1) to the tip at (x2, y2); tip_length is the head size as a fraction of the length (default 0.1).',
      inputSchema: { input_path: inputPath, arrows: z.array(arrowItem).min(1), output_path: outputPath },
    },
    (args, call) => guarded(() => drawOverlay(args, 'draw_arrows', () => arrowOverlay(args.arrows), { arrows: args.arrows.length }, call)),
  );
  server.registerTool(
    'draw_rectangles',
    {
      description: 'Draw rectangles (x1, y1, x2, y2 or bbox [x1, y1, x2, y2], e.g. detector boxes) with optional labels; returns the output path.',
      inputSchema: { input_path: inputPath, rectangles: z.array(rectangleItem).min(1), output_path: outputPath },
    },
    (args, call) => guarded(() => drawOverlay(args, 'draw_rectangles', () => rectangleOverlay(args.rectangles), { rectangles: args.rectangles.length }, call)),
  );
}
