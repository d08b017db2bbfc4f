// manage_text: add a text box, format an existing one, replace its runs, or check whether its
// text fits. Positions are inches; colours are [r, g, b] (RGB). With auto_fit (the default) the
// font shrinks, within min_font_size..max_font_size, until the estimate fits the box.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { fitFontSize, measureText } from './design.js';
import { type Decks, type Box, type Slide, slideAt, type TextElement, type TextRun, type TextStyle, textOf, toHex } from './model.js';

const rgbList = z.array(z.number().min(0).max(255)).min(3).max(4);

const runSchema = z.object({
  text: z.string(),
  bold: z.boolean().nullish(),
  italic: z.boolean().nullish(),
  underline: z.boolean().nullish(),
  font_size: z.number().positive().nullish(),
  font_name: z.string().nullish(),
  color: rgbList.nullish(),
});

const alignments = { left: 'left', center: 'center', centre: 'center', right: 'right', justify: 'justify' } as const;
const verticalAlignments = { top: 'top', middle: 'middle', center: 'middle', centre: 'middle', bottom: 'bottom' } as const;

const inputSchema = {
  slide_index: z.number().int(),
  operation: z.string().describe('"add", "format", "validate" or "format_runs"'),
  left: z.number().default(1),
  top: z.number().default(1),
  width: z.number().positive().default(4),
  height: z.number().positive().default(2),
  text: z.string().default(''),
  shape_index: z.number().int().nullish(),
  text_runs: z.array(runSchema).nullish(),
  font_size: z.number().int().positive().nullish(),
  font_name: z.string().nullish(),
  bold: z.boolean().nullish(),
  italic: z.boolean().nullish(),
  underline: z.boolean().nullish(),
  color: rgbList.nullish(),
  bg_color: rgbList.nullish(),
  alignment: z.string().nullish(),
  vertical_alignment: z.string().nullish(),
  auto_fit: z.boolean().default(true),
  validation_only: z.boolean().default(false),
  min_font_size: z.number().int().positive().default(8),
  max_font_size: z.number().int().positive().default(72),
  presentation_id: z.string().nullish(),
};
type Args = z.infer<z.ZodObject<typeof inputSchema>>;

function pick<T extends string>(table: Record<string, T>, value: string | null | undefined, argument: string): T | undefined {
  if (value === undefined || value === null) return undefined;
  const found = table[value.toLowerCase()];
  if (!found) throw new Error(`${argument} "${value}" is not one of ${Object.keys(table).join(', ')}`);
  return found;
}

/** Only the style fields the caller actually gave, so "format" leaves the others alone. */
function styleFrom(args: Args): TextStyle {
  const entries: TextStyle = {};
  if (args.font_size) entries.fontSize = args.font_size;
  if (args.font_name) entries.fontName = args.font_name;
  if (args.bold !== undefined && args.bold !== null) entries.bold = args.bold;
  if (args.italic !== undefined && args.italic !== null) entries.italic = args.italic;
  if (args.underline !== undefined && args.underline !== null) entries.underline = args.underline;
  const color = toHex(args.color);
  if (color) entries.color = color;
  const bgColor = toHex(args.bg_color);
  if (bgColor) entries.bgColor = bgColor;
  const align = pick(alignments, args.alignment, 'alignment');
  if (align) entries.align = align;
  const valign = pick(verticalAlignments, args.vertical_alignment, 'vertical_alignment');
  if (valign) entries.valign = valign;
  return entries;
}

function runsFrom(runs: NonNullable<Args['text_runs']>): TextRun[] {
  return runs.map((run) => ({
    text: run.text,
    ...(run.bold !== undefined && run.bold !== null ? { bold: run.bold } : {}),
    ...(run.italic !== undefined && run.italic !== null ? { italic: run.italic } : {}),
    ...(run.underline ? { underline: true } : {}),
    ...(run.font_size ? { fontSize: run.font_size } : {}),
    ...(run.font_name ? { fontName: run.font_name } : {}),
    ...(run.color ? { color: toHex(run.color) as string } : {}),
  }));
}

function textShape(slide: Slide, args: Args): TextElement {
  if (args.shape_index === undefined || args.shape_index === null) throw new Error(`operation "${args.operation}" needs shape_index (see get_slide_info)`);
  const element = slide.elements[args.shape_index];
  if (!element)
    throw new Error(
      `shape_index ${args.shape_index} is out of range: slide ${args.slide_index} has ${slide.elements.length} shapes (valid 0..${slide.elements.length - 1})`,
    );
  if (element.kind !== 'text') throw new Error(`shape_index ${args.shape_index} is a ${element.kind}, not a text box`);
  return element;
}

/** Applies auto-fit and reports the estimate for the final size. */
function fitReport(element: TextElement, args: Args): Record<string, unknown> {
  const text = textOf(element);
  const min = args.min_font_size ?? 8;
  const max = args.max_font_size ?? 72;
  const current = element.style.fontSize ?? 18;
  if (args.auto_fit ?? true) {
    element.style.fontSize = fitFontSize(text, element.box, current, min, max);
    element.style.autoFit = true;
  }
  const size = element.style.fontSize ?? current;
  const estimate = measureText(text, element.box, size);
  return { font_size: size, fits: estimate.fits, estimated_lines: estimate.lines, required_height: estimate.requiredHeight };
}

function addText(slide: Slide, args: Args): Record<string, unknown> {
  if (!args.text && !args.text_runs?.length) throw new Error('operation "add" needs text (or text_runs)');
  const box: Box = { left: args.left ?? 1, top: args.top ?? 1, width: args.width ?? 4, height: args.height ?? 2 };
  const element: TextElement = {
    kind: 'text',
    role: 'textbox',
    box,
    runs: args.text_runs?.length ? runsFrom(args.text_runs) : [{ text: args.text ?? '' }],
    style: { fontSize: 18, ...styleFrom(args) },
  };
  const report = fitReport(element, args);
  if (args.validation_only) return { validation_only: true, ...report };
  slide.elements.push(element);
  return { shape_index: slide.elements.length - 1, ...report };
}

function validateText(slide: Slide, args: Args): Record<string, unknown> {
  const element = args.shape_index !== undefined && args.shape_index !== null ? textShape(slide, args) : undefined;
  const text = element ? textOf(element) : (args.text ?? '');
  const box = element?.box ?? { left: args.left ?? 1, top: args.top ?? 1, width: args.width ?? 4, height: args.height ?? 2 };
  const size = args.font_size ?? element?.style.fontSize ?? 18;
  const estimate = measureText(text, box, size);
  const suggested = fitFontSize(text, box, size, args.min_font_size ?? 8, args.max_font_size ?? 72);
  return {
    font_size: size,
    fits: estimate.fits,
    estimated_lines: estimate.lines,
    required_height: estimate.requiredHeight,
    box_height: box.height,
    suggested_font_size: suggested,
  };
}

export function registerTextTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'manage_text',
    {
      description:
        'Text on a slide. operation "add": new text box (left/top/width/height in inches, text or text_runs, font_size, font_name, bold, italic, underline, color [r,g,b], bg_color, alignment, vertical_alignment, auto_fit). "format": restyle (or retext) shape_index. "format_runs": replace the runs of shape_index with text_runs. "validate": estimate whether text fits and suggest a font size.',
      inputSchema,
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        const slide = slideAt(presentation, args.slide_index);
        const base = { presentation_id: presentation.id, slide_index: args.slide_index, operation: args.operation };
        if (!['add', 'format', 'validate', 'format_runs'].includes(args.operation))
          throw new Error(`operation "${args.operation}" is not one of add, format, validate, format_runs`);
        if (args.operation === 'add') return jsonResult({ ...base, ...addText(slide, args) });
        if (args.operation === 'validate') return jsonResult({ ...base, ...validateText(slide, args) });
        const element = textShape(slide, args);
        if (args.operation === 'format_runs') {
          if (!args.text_runs?.length) throw new Error('operation "format_runs" needs text_runs: [{text, bold?, italic?, color?, ...}]');
          element.runs = runsFrom(args.text_runs);
        } else if (args.text !== '') {
          element.runs = [{ text: args.text }];
        }
        Object.assign(element.style, styleFrom(args));
        return jsonResult({ ...base, shape_index: args.shape_index, text: textOf(element), ...fitReport(element, args) });
      }),
  );
}
