// Text tools of the reference that work on placeholders and runs: populate_placeholder,
// add_bullet_points, manage_hyperlinks, manage_slide_transitions, optimize_slide_text.
// Placeholders follow python-pptx's numbering: idx 0 is the title, idx 1 the body (the
// subtitle on a Title Slide layout); a placeholder the slide does not have yet is created
// where its layout puts it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { fitFontSize, measureText, titleBox } from './design.js';
import { type Box, type Decks, type Slide, slideAt, type TextElement, textOf } from './model.js';

const presentationId = z.string().nullish().describe('Presentation id; default the current (last created) presentation');

function bodyBox(layoutIndex: number): Box {
  if (layoutIndex === 0) return { left: 0.9, top: 4.0, width: 11.5, height: 1.2 };
  return { left: 0.6, top: 1.5, width: 12.1, height: 5.5 };
}

function placeholder(slide: Slide, index: number): TextElement {
  if (index !== 0 && index !== 1) throw new Error(`placeholder_idx ${index} does not exist: this server's layouts have 0 (title) and 1 (body or subtitle)`);
  const role: TextElement['role'] = index === 0 ? 'title' : slide.layoutIndex === 0 ? 'subtitle' : 'body';
  const found = slide.elements.find((element): element is TextElement => element.kind === 'text' && element.role === role);
  if (found) return found;
  const created: TextElement = {
    kind: 'text',
    role,
    box: index === 0 ? titleBox(slide.layoutIndex) : bodyBox(slide.layoutIndex),
    runs: [{ text: '' }],
    style:
      index === 0
        ? { fontSize: slide.layoutIndex === 0 ? 40 : 32, bold: true, color: '1F1F1F', valign: 'middle', autoFit: true }
        : { fontSize: 20, color: '333333', valign: 'top', autoFit: true },
  };
  slide.elements.push(created);
  return created;
}

function registerPlaceholderTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'populate_placeholder',
    {
      description: 'Put text into a placeholder of a slide (placeholder_idx 0 = title, 1 = body or subtitle).',
      inputSchema: { slide_index: z.number().int(), placeholder_idx: z.number().int(), text: z.string(), presentation_id: presentationId },
    },
    (args, extra) =>
      guarded(async () => {
        const element = placeholder(slideAt(decks.of(extra).get(args.presentation_id), args.slide_index), args.placeholder_idx);
        element.runs = [{ text: args.text }];
        return jsonResult({ message: `Populated placeholder ${args.placeholder_idx} on slide ${args.slide_index}` });
      }),
  );

  server.registerTool(
    'add_bullet_points',
    {
      description: 'Fill a placeholder (usually 1, the body) with bullet points, one per list entry.',
      inputSchema: { slide_index: z.number().int(), placeholder_idx: z.number().int(), bullet_points: z.array(z.string()), presentation_id: presentationId },
    },
    (args, extra) =>
      guarded(async () => {
        const element = placeholder(slideAt(decks.of(extra).get(args.presentation_id), args.slide_index), args.placeholder_idx);
        element.runs = [{ text: args.bullet_points.join('\n') }];
        element.style.bullets = true;
        return jsonResult({ message: `Added ${args.bullet_points.length} bullet points to placeholder ${args.placeholder_idx} on slide ${args.slide_index}` });
      }),
  );
}

function textShape(slide: Slide, shapeIndex: number | undefined): TextElement {
  if (shapeIndex === undefined) throw new Error('shape_index is required for this operation (see get_slide_info)');
  const element = slide.elements[shapeIndex];
  if (element?.kind !== 'text') throw new Error(`shape_index ${shapeIndex} is not a text shape on this slide`);
  return element;
}

function registerHyperlinkTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'manage_hyperlinks',
    {
      description:
        'Hyperlinks in a text shape. operation "add": append text linked to url; "update": relink run run_index; "remove": unlink run run_index; "list": every link on the slide.',
      inputSchema: {
        operation: z.string(),
        slide_index: z.number().int(),
        shape_index: z.number().int().optional(),
        text: z.string().optional(),
        url: z.string().optional(),
        run_index: z.number().int().default(0),
        presentation_id: z.string().optional(),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const slide = slideAt(decks.of(extra).get(args.presentation_id), args.slide_index);
        if (args.operation === 'list') {
          const links = slide.elements.flatMap((element, shapeIndex) =>
            element.kind === 'text'
              ? element.runs.flatMap((run, runIndex) =>
                  run.hyperlink ? [{ shape_index: shapeIndex, run_index: runIndex, text: run.text, url: run.hyperlink }] : [],
                )
              : [],
          );
          return jsonResult({ message: `Found ${links.length} hyperlinks on slide ${args.slide_index}`, hyperlinks: links });
        }
        const element = textShape(slide, args.shape_index);
        if (args.operation === 'add') {
          if (!args.text || !args.url) throw new Error('operation "add" needs text and url');
          element.runs.push({ text: args.text, hyperlink: args.url });
          return jsonResult({ message: `Added hyperlink '${args.text}' -> ${args.url}`, run_index: element.runs.length - 1 });
        }
        const run = element.runs[args.run_index];
        if (!run) throw new Error(`run_index ${args.run_index} is out of range: the shape has ${element.runs.length} runs`);
        if (args.operation === 'update') {
          if (!args.url) throw new Error('operation "update" needs url');
          run.hyperlink = args.url;
          return jsonResult({ message: `Updated hyperlink of run ${args.run_index} to ${args.url}` });
        }
        if (args.operation === 'remove') {
          delete run.hyperlink;
          return jsonResult({ message: `Removed hyperlink from run ${args.run_index}` });
        }
        throw new Error(`operation "${args.operation}" is not one of add, update, remove, list`);
      }),
  );
}

const transitions = new Set([
  'fade',
  'push',
  'wipe',
  'split',
  'cut',
  'cover',
  'pull',
  'randomBar',
  'zoom',
  'dissolve',
  'circle',
  'diamond',
  'plus',
  'wedge',
  'wheel',
  'blinds',
  'checker',
  'comb',
  'strips',
]);

function registerTransitionTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'manage_slide_transitions',
    {
      description: `Slide transitions. operation "set": transition_type (${[...transitions].join(', ')}) and duration in seconds; "get": the current one; "remove": none.`,
      inputSchema: {
        slide_index: z.number().int(),
        operation: z.string(),
        transition_type: z.string().optional(),
        duration: z.number().min(0).default(1),
        presentation_id: z.string().optional(),
      },
    },
    (args, extra) =>
      guarded(async () => {
        const slide = slideAt(decks.of(extra).get(args.presentation_id), args.slide_index);
        if (args.operation === 'get')
          return jsonResult({
            slide_index: args.slide_index,
            transition: slide.transition ? { type: slide.transition.type, duration: slide.transition.durationSec } : null,
          });
        if (args.operation === 'remove') {
          delete slide.transition;
          return jsonResult({ message: `Removed the transition of slide ${args.slide_index}` });
        }
        if (args.operation !== 'set') throw new Error(`operation "${args.operation}" is not one of set, get, remove`);
        const type = [...transitions].find((name) => name.toLowerCase() === (args.transition_type ?? '').toLowerCase());
        if (!type) throw new Error(`transition_type "${args.transition_type ?? ''}" is not one of ${[...transitions].join(', ')}`);
        slide.transition = { type, durationSec: args.duration };
        return jsonResult({ message: `Set ${type} transition (${args.duration}s) on slide ${args.slide_index}` });
      }),
  );
}

function registerOptimizeTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'optimize_slide_text',
    {
      description:
        'Fit every text shape of a slide: with auto_resize the font shrinks or grows within min_font_size..max_font_size until the text fits its box; auto_wrap and optimize_spacing keep text wrapped inside the box.',
      inputSchema: {
        slide_index: z.number().int(),
        auto_resize: z.boolean().default(true),
        auto_wrap: z.boolean().default(true),
        optimize_spacing: z.boolean().default(true),
        min_font_size: z.number().int().default(8),
        max_font_size: z.number().int().default(36),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const slide = slideAt(decks.of(extra).get(args.presentation_id), args.slide_index);
        const shapes = slide.elements.flatMap((element, shapeIndex) => {
          if (element.kind !== 'text') return [];
          const text = textOf(element);
          const before = element.style.fontSize ?? 18;
          if (args.auto_resize)
            element.style.fontSize = fitFontSize(text, element.box, Math.min(before, args.max_font_size), args.min_font_size, args.max_font_size);
          element.style.autoFit = args.auto_wrap || args.optimize_spacing || element.style.autoFit;
          const after = element.style.fontSize ?? before;
          return [{ shape_index: shapeIndex, font_size_before: before, font_size: after, fits: measureText(text, element.box, after).fits }];
        });
        return jsonResult({ message: `Optimized ${shapes.length} text shapes on slide ${args.slide_index}`, shapes });
      }),
  );
}

export function registerTextLevelTools(server: McpServer, decks: Decks): void {
  registerPlaceholderTools(server, decks);
  registerHyperlinkTool(server, decks);
  registerTransitionTool(server, decks);
  registerOptimizeTool(server, decks);
}
