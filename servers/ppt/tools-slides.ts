// Slide tools: add_slide, create_slide_from_template, list_slide_templates, manage_image.
// Every mutation of the model happens synchronously once the inputs are ready, so calls that
// a host sends side by side (add_slide next to manage_image in the ground truth) see a
// consistent deck.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import sharp from 'sharp';
import { z } from 'zod';
import { resolveAllowedPath } from '../shared/allowed-roots.js';
import { defaultOutputDir, resolveOutputArgument } from '../shared/task-paths.js';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { colorScheme, fitFontSize, layoutName, titleBox } from './design.js';
import { type Decks, type Background, type Box, type Slide, slideAt, slideHeight, slideWidth, toHex } from './model.js';
import { imageBox, loadSlideImage } from './slide-images.js';
import { listTemplates } from './templates.js';
import { buildTemplateWithImages } from './tools-design.js';

const presentationId = z.string().nullish().describe('Presentation id; default the current (last created) presentation');

function background(
  args: { background_type?: string | null | undefined; background_colors?: number[][] | null | undefined; gradient_direction?: string | null | undefined },
  schemeName: string | null | undefined,
): { background?: Background; warning?: string } {
  if (!args.background_type) return {};
  const { scheme, warning } = colorScheme(schemeName);
  const given = (args.background_colors ?? []).map((color) => toHex(color) as string);
  const direction = args.gradient_direction ?? 'horizontal';
  if (direction !== 'horizontal' && direction !== 'vertical' && direction !== 'diagonal') {
    throw new Error(`gradient_direction "${direction}" is not one of horizontal, vertical, diagonal`);
  }
  const withWarning = (value: Background) => ({ background: value, ...(warning ? { warning } : {}) });
  switch (args.background_type) {
    case 'solid':
      return withWarning({ type: 'solid', color: given[0] ?? scheme.light });
    case 'gradient':
    case 'professional_gradient':
      return withWarning({ type: 'gradient', colors: [given[0] ?? scheme.gradient[0], given[1] ?? scheme.gradient[1]], direction });
    default:
      throw new Error(`background_type "${args.background_type}" is not one of solid, gradient, professional_gradient`);
  }
}

function outsideSlide(box: Box): string | undefined {
  if (box.left >= 0 && box.top >= 0 && box.left + box.width <= slideWidth + 0.01 && box.top + box.height <= slideHeight + 0.01) return undefined;
  return `the box (left ${box.left}, top ${box.top}, ${box.width.toFixed(2)}x${box.height.toFixed(2)} in) extends past the ${slideWidth}x${slideHeight} in slide`;
}

async function enhanceImage(
  args: {
    image_source: string;
    enhancement_style?: string | null | undefined;
    brightness?: number | null | undefined;
    contrast?: number | null | undefined;
    saturation?: number | null | undefined;
    sharpness?: number | null | undefined;
    blur_radius?: number | null | undefined;
    filter_type?: string | null | undefined;
    output_path?: string | null | undefined;
  },
  extra: { _meta?: unknown } | undefined,
): Promise<string> {
  const presets: Record<string, { brightness: number; contrast: number; saturation: number; sharpness: number }> = {
    presentation: { brightness: 1.05, contrast: 1.1, saturation: 1.1, sharpness: 1.2 },
    vivid: { brightness: 1.05, contrast: 1.2, saturation: 1.4, sharpness: 1.3 },
    soft: { brightness: 1.05, contrast: 0.9, saturation: 0.9, sharpness: 1 },
  };
  const preset = args.enhancement_style ? presets[args.enhancement_style] : undefined;
  if (args.enhancement_style && !preset) throw new Error(`enhancement_style "${args.enhancement_style}" is not one of ${Object.keys(presets).join(', ')}`);
  const image = await loadSlideImage(args.image_source, 'file', extra);
  // 1 is every factor's default (no change): a preset fills the factors left at it.
  const factor = (value: number | null | undefined, presetValue: number | undefined): number =>
    value !== undefined && value !== null && value !== 1 ? value : (presetValue ?? 1);
  const contrast = factor(args.contrast, preset?.contrast);
  let pipeline = sharp(image.data)
    .modulate({ brightness: factor(args.brightness, preset?.brightness), saturation: factor(args.saturation, preset?.saturation) })
    .linear(contrast, 128 * (1 - contrast));
  const sharpness = factor(args.sharpness, preset?.sharpness);
  if (sharpness > 1) pipeline = pipeline.sharpen({ sigma: Math.min(10, sharpness) });
  if ((args.blur_radius ?? 0) > 0) pipeline = pipeline.blur(Math.max(0.3, args.blur_radius ?? 0));
  if (args.filter_type === 'grayscale') pipeline = pipeline.greyscale();
  else if (args.filter_type === 'sepia')
    pipeline = pipeline.recomb([
      [0.393, 0.769, 0.189],
      [0.349, 0.686, 0.168],
      [0.272, 0.534, 0.131],
    ]);
  else if (args.filter_type) throw new Error(`filter_type "${args.filter_type}" is not one of grayscale, sepia`);
  const parsed = path.parse(image.source);
  const target = args.output_path
    ? resolveOutputArgument(args.output_path, extra, resolveAllowedPath)
    : path.join(defaultOutputDir(extra, parsed.dir), `${parsed.name}_enhanced.png`);
  await mkdir(path.dirname(target), { recursive: true });
  await pipeline.png().toFile(target);
  return target;
}

function registerAddSlide(server: McpServer, decks: Decks): void {
  server.registerTool(
    'add_slide',
    {
      description:
        'Append a slide with a layout (0 Title Slide, 1 Title and Content, ... 6 Blank), an optional title and background (solid, gradient, professional_gradient).',
      inputSchema: {
        layout_index: z.number().int().default(1),
        title: z.string().nullish(),
        background_type: z.string().nullish(),
        background_colors: z
          .array(z.array(z.number().int().min(0).max(255)).min(3).max(4))
          .nullish()
          .describe('[[r,g,b], [r,g,b]] for solid/gradient backgrounds'),
        gradient_direction: z.string().default('horizontal'),
        color_scheme: z.string().default('modern_blue').describe('Colour scheme of professional_gradient backgrounds and styled titles'),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        const layoutIndex = args.layout_index;
        const slide: Slide = { layoutIndex, layoutName: layoutName(layoutIndex), elements: [] };
        const styled = background(args, args.color_scheme);
        if (styled.background) slide.background = styled.background;
        if (args.title) {
          const box = titleBox(layoutIndex);
          const preferred = layoutIndex === 0 ? 40 : 32;
          // As in the reference, the scheme styles backgrounds; a styled slide's title takes its primary colour.
          const color = args.background_type ? colorScheme(args.color_scheme).scheme.primary : '1F1F1F';
          const fontSize = fitFontSize(args.title, box, preferred, 12, preferred);
          slide.elements.push({
            kind: 'text',
            role: 'title',
            box,
            runs: [{ text: args.title }],
            style: { fontSize, bold: true, color, valign: 'middle', autoFit: true },
          });
        }
        presentation.slides.push(slide);
        return jsonResult({
          presentation_id: presentation.id,
          slide_index: presentation.slides.length - 1,
          layout: slide.layoutName,
          slide_count: presentation.slides.length,
          ...(styled.warning ? { warnings: [styled.warning] } : {}),
        });
      }),
  );
}

function registerTemplateTools(server: McpServer, decks: Decks): void {
  server.registerTool('list_slide_templates', { description: 'Built-in slide templates and the content keys each one fills.', inputSchema: {} }, () =>
    guarded(async () => jsonResult({ templates: listTemplates() })),
  );

  server.registerTool(
    'create_slide_from_template',
    {
      description:
        'Append a slide built from a template (title_slide, section_header, text_with_image, two_column_text, image_grid, chart_slide); content_mapping fills text keys, image_paths image keys.',
      inputSchema: {
        template_id: z.string().min(1),
        color_scheme: z.string().default('modern_blue'),
        content_mapping: z.record(z.string(), z.unknown()).nullish(),
        image_paths: z.record(z.string(), z.string()).nullish(),
        layout_index: z.number().int().default(1).describe('Accepted for compatibility; the template decides the layout'),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        decks.of(extra).get(args.presentation_id); // fail fast on an unknown id, before loading images
        const built = await buildTemplateWithImages(args.template_id, args.color_scheme, args.content_mapping ?? {}, args.image_paths ?? {}, extra);
        const presentation = decks.of(extra).get(args.presentation_id);
        presentation.slides.push(built.slide);
        const ignored = [...built.ignoredKeys, ...built.ignoredImageKeys];
        return jsonResult({
          presentation_id: presentation.id,
          slide_index: presentation.slides.length - 1,
          template_id: args.template_id,
          filled: built.filled,
          ...(ignored.length > 0 ? { ignored_keys: [...new Set(ignored)] } : {}),
          ...(built.warnings.length > 0 ? { warnings: built.warnings } : {}),
          slide_count: presentation.slides.length,
        });
      }),
  );
}

function registerImageTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'manage_image',
    {
      description:
        'operation "add": place an image (file path, or base64 with source_type "base64") on a slide at left/top (inches; width/height optional, aspect kept when one is given). operation "enhance": adjust an image file (brightness, contrast, saturation, sharpness, blur_radius, filter_type) and write output_path.',
      inputSchema: {
        slide_index: z.number().int(),
        operation: z.string().describe('"add" or "enhance"'),
        image_source: z.string().min(1),
        source_type: z.string().default('file').describe('"file" or "base64"'),
        left: z.number().default(1),
        top: z.number().default(1),
        width: z.number().positive().nullish(),
        height: z.number().positive().nullish(),
        enhancement_style: z.string().nullish(),
        brightness: z.number().positive().default(1),
        contrast: z.number().positive().default(1),
        saturation: z.number().min(0).default(1),
        sharpness: z.number().min(0).default(1),
        blur_radius: z.number().min(0).default(0),
        filter_type: z.string().nullish(),
        output_path: z.string().nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        if (args.operation !== 'add' && args.operation !== 'enhance') throw new Error(`operation "${args.operation}" is not one of add, enhance`);
        if (args.source_type !== 'file' && args.source_type !== 'base64') throw new Error(`source_type "${args.source_type}" is not one of file, base64`);
        if (args.operation === 'enhance') return jsonResult({ operation: 'enhance', images: [await enhanceImage(args, extra)] });
        slideAt(decks.of(extra).get(args.presentation_id), args.slide_index); // validate before the image is read
        const image = await loadSlideImage(args.image_source, args.source_type, extra);
        const presentation = decks.of(extra).get(args.presentation_id);
        const slide = slideAt(presentation, args.slide_index);
        const box = imageBox(image, { left: args.left, top: args.top, width: args.width, height: args.height }, { width: slideWidth, height: slideHeight });
        slide.elements.push({ kind: 'image', box, data: image.data, mediaType: image.mediaType, source: image.source });
        const warning = outsideSlide(box);
        return jsonResult({
          presentation_id: presentation.id,
          slide_index: args.slide_index,
          shape_index: slide.elements.length - 1,
          image: image.source,
          box,
          ...(warning ? { warnings: [warning] } : {}),
        });
      }),
  );
}

export function registerSlideTools(server: McpServer, decks: Decks): void {
  registerAddSlide(server, decks);
  registerTemplateTools(server, decks);
  registerImageTool(server, decks);
}
