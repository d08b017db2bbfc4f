// The reference's file-reading presentation tools: open_presentation (a .pptx into a new current
// presentation), create_presentation_from_template (the same from a .pptx/.potx template, whose
// slides come along as python-pptx keeps them) and get_template_file_info (layouts, slide size,
// core properties of a template, nothing opened). Paths are read inside the allowed roots or the
// task workspace. The model keeps text shapes and pictures (servers/ppt/pptx-reader.ts); saving
// writes them on the widescreen slide, so the answer states the file's own slide size.
// apply_picture_effects (servers/ppt/picture-effects.ts) and manage_fonts (servers/ppt/font-file.ts)
// live here too: with these the server lists every tool of the reference catalog.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { resolveInputArgument } from '../shared/task-paths.js';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { type Decks, slideAt } from './model.js';
import { mergeEffects } from './picture-effects.js';
import { analyzeFont, optimizeFont, recommendFont } from './font-file.js';
import { resolveOutputFile } from './output-path.js';
import { readPresentationFile, type ReadPresentation } from './pptx-reader.js';

const round = (value: number): number => Math.round(value * 1000) / 1000;

async function loadDeck(input: string, extra: Parameters<typeof resolveInputArgument>[1]): Promise<{ file: string; read: ReadPresentation }> {
  const file = resolveInputArgument(input, extra);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new Error(`File not found: ${input}`);
  }
  return { file, read: await readPresentationFile(bytes, input) };
}

function openInto(decks: Decks, extra: Parameters<typeof resolveInputArgument>[1], id: string | null | undefined, read: ReadPresentation) {
  const { presentation } = decks.of(extra).create(id ?? undefined);
  presentation.slides = read.slides;
  presentation.properties = { ...read.properties };
  return presentation;
}

function sizeNote(read: ReadPresentation): Record<string, unknown> {
  return {
    slide_size_inches: { width: round(read.slideSizeInches.width), height: round(read.slideSizeInches.height) },
    ...(read.skippedShapes > 0 ? { note: `${read.skippedShapes} shape(s) other than text and pictures (charts, tables, groups) are not kept` } : {}),
  };
}

export function registerFileTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'open_presentation',
    {
      description: 'Open an existing .pptx file as a new presentation (text shapes and pictures are kept) and make it current. Optional id.',
      inputSchema: { file_path: z.string().min(1), id: z.string().nullish() },
    },
    (args, extra) =>
      guarded(async () => {
        const { read } = await loadDeck(args.file_path, extra);
        const presentation = openInto(decks, extra, args.id, read);
        return jsonResult({
          presentation_id: presentation.id,
          message: `Opened presentation from ${args.file_path} with ID: ${presentation.id}`,
          slide_count: presentation.slides.length,
          ...sizeNote(read),
        });
      }),
  );

  server.registerTool(
    'create_presentation_from_template',
    {
      description: 'Create a new presentation from a .pptx/.potx template file (its slides, texts and pictures) and make it current. Optional id.',
      inputSchema: { template_path: z.string().min(1), id: z.string().nullish() },
    },
    (args, extra) =>
      guarded(async () => {
        const { read } = await loadDeck(args.template_path, extra);
        const presentation = openInto(decks, extra, args.id, read);
        return jsonResult({
          presentation_id: presentation.id,
          message: `Created new presentation from template '${args.template_path}' with ID: ${presentation.id}`,
          template_path: args.template_path,
          slide_count: presentation.slides.length,
          layout_count: read.layouts.length,
          ...sizeNote(read),
        });
      }),
  );

  server.registerTool(
    'get_template_file_info',
    {
      description: 'Layouts (name, placeholder count), slide count and size, and core properties of a .pptx/.potx template file, without opening it.',
      inputSchema: { template_path: z.string().min(1) },
    },
    (args, extra) =>
      guarded(async () => {
        const { read } = await loadDeck(args.template_path, extra);
        return jsonResult({
          template_path: args.template_path,
          slide_count: read.slides.length,
          layout_count: read.layouts.length,
          layouts: read.layouts,
          slide_size_inches: { width: round(read.slideSizeInches.width), height: round(read.slideSizeInches.height) },
          core_properties: read.properties,
        });
      }),
  );
}

export function registerPictureEffectsTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'apply_picture_effects',
    {
      description:
        'Apply picture effects in combination to a picture: {"shadow": {blur_radius, distance, direction, color, transparency, shadow_type}, "glow": {size, color, transparency}, "reflection": {size, transparency, distance, blur}, "soft_edges": {radius}, "rotation": {rotation}, "transparency": {transparency}}; written at save time.',
      inputSchema: {
        slide_index: z.number().int(),
        shape_index: z.number().int(),
        effects: z.record(z.string(), z.unknown()),
        presentation_id: z.string().nullish(),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        const slide = slideAt(presentation, args.slide_index);
        const element = slide.elements[args.shape_index];
        if (!element) throw new Error(`Invalid shape index: ${args.shape_index}. Available shapes: 0-${slide.elements.length - 1}`);
        if (element.kind !== 'image') throw new Error(`shape ${args.shape_index} on slide ${args.slide_index} is a ${element.kind}, not a picture`);
        const { effects, applied, warnings } = mergeEffects(element.effects, args.effects);
        element.effects = effects;
        return jsonResult({
          message: `Applied ${applied.length} effects to shape ${args.shape_index} on slide ${args.slide_index}`,
          applied_effects: applied,
          ...(warnings.length > 0 ? { warnings } : {}),
        });
      }),
  );
}

export function registerFontTool(server: McpServer): void {
  server.registerTool(
    'manage_fonts',
    {
      description:
        'Font files (.ttf/.otf/.ttc): operation "analyze" (family, style, glyph count, size), "optimize" (write the font to output_path; subsetting to text_content is not available here) or "recommend" (analysis plus sizes and tips for presentation_type).',
      inputSchema: {
        operation: z.string(),
        font_path: z.string(),
        output_path: z.string().nullish(),
        presentation_type: z.string().default('business'),
        text_content: z.string().nullish(),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const file = resolveInputArgument(args.font_path, extra);
        if (args.operation === 'analyze') return jsonResult(await analyzeFont(file, args.font_path));
        if (args.operation === 'recommend') return jsonResult(await recommendFont(file, args.font_path, args.presentation_type));
        if (args.operation === 'optimize') {
          const output = resolveOutputFile(args.output_path ?? `${path.basename(file, path.extname(file))}-optimized${path.extname(file)}`, extra);
          return jsonResult(await optimizeFont(file, args.font_path, output, args.text_content));
        }
        throw new Error(`Invalid operation: ${args.operation}. Must be 'analyze', 'optimize', or 'recommend'`);
      }),
  );
}
