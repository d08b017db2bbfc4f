// Presentation-level tools: create, list, switch, inspect, properties, text extraction, save.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { type Decks, type Presentation, type Slide, slideAt, slideHeight, slideWidth, textOf } from './model.js';
import { resolveOutputFile } from './output-path.js';
import { renderPresentation } from './render.js';

const presentationId = z.string().nullish().describe('Presentation id; default the current (last created) presentation');
const round = (value: number): number => Math.round(value * 100) / 100;

function describeSlide(slide: Slide, index: number): Record<string, unknown> {
  return {
    slide_index: index,
    layout_index: slide.layoutIndex,
    layout: slide.layoutName,
    ...(slide.background ? { background: slide.background } : {}),
    shapes: slide.elements.map((element, shapeIndex) => ({
      shape_index: shapeIndex,
      kind: element.kind,
      ...(element.kind === 'text' ? { role: element.role, text: textOf(element), font_size: element.style.fontSize } : {}),
      ...(element.kind === 'image' ? { source: element.source, media_type: element.mediaType } : {}),
      ...(element.kind === 'chart' ? { chart_type: element.chartType, series: element.series.length } : {}),
      ...(element.kind === 'table' ? { rows: element.cells.length, cols: element.cells[0]?.length ?? 0 } : {}),
      ...(element.kind === 'shape' ? { shape_type: element.shapeType ?? 'rect', ...(element.text ? { text: element.text } : {}) } : {}),
      ...(element.kind === 'line' ? { connector_type: element.connectorType } : {}),
      left: round(element.box.left),
      top: round(element.box.top),
      width: round(element.box.width),
      height: round(element.box.height),
    })),
  };
}

function slideTexts(slide: Slide): string[] {
  return slide.elements.flatMap((element) => {
    if (element.kind === 'text') return [textOf(element)];
    if (element.kind === 'shape' && element.text) return [element.text];
    if (element.kind === 'table') return element.cells.map((row) => row.join('\t'));
    return [];
  });
}

function titleOf(slide: Slide): string | undefined {
  const title = slide.elements.find((element) => element.kind === 'text' && element.role === 'title');
  return title?.kind === 'text' ? textOf(title) : undefined;
}

function summary(presentation: Presentation): Record<string, unknown> {
  return {
    presentation_id: presentation.id,
    slide_count: presentation.slides.length,
    slide_size_inches: { width: slideWidth, height: slideHeight },
    properties: presentation.properties,
    slides: presentation.slides.map((slide, index) => ({
      slide_index: index,
      layout: slide.layoutName,
      title: titleOf(slide) ?? null,
      shapes: slide.elements.length,
    })),
    ...(presentation.savedTo ? { saved_to: presentation.savedTo } : {}),
  };
}

function registerLifecycleTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'create_presentation',
    {
      description: 'Create an empty in-memory presentation (widescreen 13.33x7.5 in) and make it current. Optional id; one is generated when absent.',
      inputSchema: { id: z.string().min(1).nullish(), presentation_id: z.string().min(1).nullish().describe('Accepted as an alias of id') },
    },
    (args, extra) =>
      guarded(async () => {
        const { presentation, replaced } = decks.of(extra).create(args.id ?? args.presentation_id ?? undefined);
        return jsonResult({
          presentation_id: presentation.id,
          message: `Created presentation ${presentation.id}`,
          slide_count: 0,
          ...(replaced ? { replaced_existing: true } : {}),
        });
      }),
  );

  server.registerTool('list_presentations', { description: 'List presentations held in memory and which one is current.', inputSchema: {} }, (_args, extra) =>
    guarded(async () => jsonResult({ presentations: decks.of(extra).list() })),
  );

  server.registerTool(
    'switch_presentation',
    { description: 'Make another open presentation the current one.', inputSchema: { presentation_id: z.string().min(1) } },
    (args, extra) => guarded(async () => jsonResult({ current: decks.of(extra).switchTo(args.presentation_id).id })),
  );
}

function registerInspectTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'get_presentation_info',
    { description: 'Slide count, slide titles and layouts, size and properties of a presentation.', inputSchema: { presentation_id: presentationId } },
    (args, extra) => guarded(async () => jsonResult(summary(decks.of(extra).get(args.presentation_id)))),
  );

  server.registerTool(
    'get_slide_info',
    {
      description: 'Shapes (text, images, charts) of one slide with their positions in inches.',
      inputSchema: { slide_index: z.number().int(), presentation_id: presentationId },
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        return jsonResult({ presentation_id: presentation.id, ...describeSlide(slideAt(presentation, args.slide_index), args.slide_index) });
      }),
  );

  server.registerTool(
    'set_core_properties',
    {
      description: 'Set document properties: title, subject, author, keywords, comments.',
      inputSchema: {
        title: z.string().nullish(),
        subject: z.string().nullish(),
        author: z.string().nullish(),
        keywords: z.string().nullish(),
        comments: z.string().nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        for (const key of ['title', 'subject', 'author', 'keywords', 'comments'] as const) {
          const value = args[key];
          if (value !== undefined && value !== null) presentation.properties[key] = value;
        }
        return jsonResult({ presentation_id: presentation.id, properties: presentation.properties });
      }),
  );
}

function registerTextTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'extract_slide_text',
    { description: 'All text on one slide.', inputSchema: { slide_index: z.number().int(), presentation_id: presentationId } },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        return jsonResult({ presentation_id: presentation.id, slide_index: args.slide_index, texts: slideTexts(slideAt(presentation, args.slide_index)) });
      }),
  );

  server.registerTool(
    'extract_presentation_text',
    { description: 'All text of all slides, slide by slide.', inputSchema: { presentation_id: presentationId, include_slide_info: z.boolean().default(true) } },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        const slides = presentation.slides.map((slide, index) => ({
          slide_index: index,
          ...(args.include_slide_info ? { layout: slide.layoutName, title: titleOf(slide) ?? null } : {}),
          texts: slideTexts(slide),
        }));
        return jsonResult({
          presentation_id: presentation.id,
          slide_count: slides.length,
          slides,
          all_text: slides.flatMap((slide) => slide.texts).join('\n'),
        });
      }),
  );
}

function registerSaveTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'save_presentation',
    {
      description:
        'Save a presentation as .pptx. Relative paths go to the output folder (PPT_OUTPUT_DIR, default media/; a leading "media/" is part of that folder).',
      inputSchema: { file_path: z.string().min(1), presentation_id: presentationId },
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        let target = resolveOutputFile(args.file_path, extra);
        const extension = path.extname(target).toLowerCase();
        if (extension === '') target = `${target}.pptx`;
        else if (extension !== '.pptx') throw new Error(`file_path "${args.file_path}": a presentation is saved as .pptx, not ${extension}`);
        const bytes = await renderPresentation(presentation);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, bytes);
        presentation.savedTo = target;
        return jsonResult({
          presentation_id: presentation.id,
          file_path: target,
          slide_count: presentation.slides.length,
          size_bytes: bytes.length,
          message: `Presentation saved to ${target}`,
        });
      }),
  );
}

export function registerDeckTools(server: McpServer, decks: Decks): void {
  registerLifecycleTools(server, decks);
  registerInspectTools(server, decks);
  registerTextTools(server, decks);
  registerSaveTool(server, decks);
}
