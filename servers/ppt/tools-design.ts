// Deck-level design tools of the reference (tools/template_tools.py, professional_tools.py,
// master_tools.py, ppt_mcp_server.py): get_template_info, apply_slide_template,
// create_presentation_from_templates, auto_generate_presentation, apply_professional_design,
// manage_slide_masters and get_server_info, on this server's built-in templates (templates.ts)
// and colour schemes (design.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, jsonResult } from '../shared/tool-result.js';
import { colorScheme, layoutNames, schemeNames } from './design.js';
import { type Decks, type Presentation, slideAt } from './model.js';
import { loadSlideImage, type SlideImage } from './slide-images.js';
import { buildTemplateSlide, listTemplates, type TemplateResult, templateImageKeys } from './templates.js';

const presentationId = z.string().nullish().describe('Presentation id; default the current (last created) presentation');
type CallExtra = { _meta?: unknown } | undefined;

/** A template slide with its image_paths entries loaded (paths resolve like every image argument). */
export async function buildTemplateWithImages(
  templateId: string,
  schemeName: string | null | undefined,
  content: Record<string, unknown>,
  imagePaths: Record<string, string>,
  extra: CallExtra,
): Promise<TemplateResult & { ignoredImageKeys: string[] }> {
  const imageKeys = templateImageKeys(templateId);
  const images: Record<string, SlideImage> = {};
  for (const [key, source] of Object.entries(imagePaths)) if (imageKeys.includes(key)) images[key] = await loadSlideImage(source, 'file', extra);
  return {
    ...buildTemplateSlide(templateId, schemeName, content, images),
    ignoredImageKeys: Object.keys(imagePaths).filter((key) => !imageKeys.includes(key)),
  };
}

const templateStep = z.object({
  template_id: z.string(),
  content_mapping: z.record(z.string(), z.unknown()).optional(),
  image_paths: z.record(z.string(), z.string()).optional(),
});

function registerTemplateTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'get_template_info',
    { description: 'Details of one built-in slide template: name, description, content and image keys.', inputSchema: { template_id: z.string() } },
    (args) =>
      guarded(async () => {
        const template = listTemplates().find((entry) => entry.id === args.template_id);
        if (!template)
          throw new Error(
            `unknown template_id "${args.template_id}" (available: ${listTemplates()
              .map((entry) => entry.id)
              .join(', ')})`,
          );
        return jsonResult({ ...template, color_schemes: schemeNames });
      }),
  );

  server.registerTool(
    'apply_slide_template',
    {
      description: 'Rebuild an existing slide from a built-in template (its content is replaced); content_mapping fills text keys, image_paths image keys.',
      inputSchema: {
        slide_index: z.number().int(),
        template_id: z.string(),
        color_scheme: z.string().default('modern_blue'),
        content_mapping: z.record(z.string(), z.unknown()).nullish(),
        image_paths: z.record(z.string(), z.string()).nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        slideAt(decks.of(extra).get(args.presentation_id), args.slide_index);
        const built = await buildTemplateWithImages(args.template_id, args.color_scheme, args.content_mapping ?? {}, args.image_paths ?? {}, extra);
        const presentation = decks.of(extra).get(args.presentation_id);
        slideAt(presentation, args.slide_index);
        presentation.slides[args.slide_index] = built.slide;
        return jsonResult({
          message: `Applied template ${args.template_id} to slide ${args.slide_index}`,
          filled: built.filled,
          ...(built.warnings.length > 0 ? { warnings: built.warnings } : {}),
        });
      }),
  );

  server.registerTool(
    'create_presentation_from_templates',
    {
      description: 'Create a presentation (and make it current) from a sequence of templates: [{template_id, content_mapping?, image_paths?}, ...].',
      inputSchema: {
        template_sequence: z.array(templateStep).min(1),
        color_scheme: z.string().default('modern_blue'),
        presentation_title: z.string().nullish(),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const slides = [];
        for (const step of args.template_sequence)
          slides.push((await buildTemplateWithImages(step.template_id, args.color_scheme, step.content_mapping ?? {}, step.image_paths ?? {}, extra)).slide);
        const { presentation } = decks.of(extra).create(args.presentation_id ?? undefined);
        presentation.slides.push(...slides);
        presentation.colorScheme = args.color_scheme;
        if (args.presentation_title) presentation.properties.title = args.presentation_title;
        return jsonResult({
          message: `Created presentation ${presentation.id} with ${slides.length} slides`,
          presentation_id: presentation.id,
          slide_count: slides.length,
          templates_used: args.template_sequence.map((step) => step.template_id),
        });
      }),
  );
}

/** An outline deck: every text is a labelled placeholder for the caller to replace, never invented content. */
function outlineSlides(topic: string, count: number, charts: boolean): Array<{ template: string; content: Record<string, unknown> }> {
  const slides: Array<{ template: string; content: Record<string, unknown> }> = [
    { template: 'title_slide', content: { title: topic, subtitle: 'Outline (replace the placeholder text)' } },
  ];
  for (let index = 1; index < count; index += 1) {
    if (charts && index === count - 1 && count > 2) {
      slides.push({
        template: 'chart_slide',
        content: {
          title: `${topic}: figures`,
          chart: { type: 'bar', categories: ['A', 'B', 'C'], series: [{ name: 'Placeholder values (replace with update_chart_data)', values: [1, 2, 3] }] },
        },
      });
    } else {
      slides.push({
        template: 'two_column_text',
        content: { title: `${topic}: section ${index}`, left_content: '[Key points for this section]', right_content: '[Details, evidence or examples]' },
      });
    }
  }
  return slides;
}

function registerGenerateTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'auto_generate_presentation',
    {
      description:
        'Create an outline deck on a topic from built-in templates: a title slide, section slides with labelled placeholder text and, with include_charts, a chart slide with placeholder values. It writes no content of its own about the topic.',
      inputSchema: {
        topic: z.string().min(1),
        slide_count: z.number().int().min(1).max(30).default(5),
        presentation_type: z.string().default('business'),
        color_scheme: z.string().default('modern_blue'),
        include_charts: z.boolean().default(true),
        include_images: z.boolean().default(false),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const slides = outlineSlides(args.topic, args.slide_count, args.include_charts).map(
          (entry) => buildTemplateSlide(entry.template, args.color_scheme, entry.content, {}).slide,
        );
        const { presentation } = decks.of(extra).create(args.presentation_id ?? undefined);
        presentation.slides.push(...slides);
        presentation.properties.title = args.topic;
        presentation.colorScheme = args.color_scheme;
        return jsonResult({
          message: `Generated a ${slides.length}-slide outline on '${args.topic}'`,
          presentation_id: presentation.id,
          slide_count: slides.length,
          presentation_type: args.presentation_type,
          ...(args.include_images ? { note: 'include_images: no images are generated here; add them with manage_image' } : {}),
        });
      }),
  );
}

function restyle(presentation: Presentation, indices: number[], schemeName: string, parts: { title: boolean; content: boolean; shapes: boolean }): void {
  const { scheme } = colorScheme(schemeName);
  for (const index of indices) {
    const slide = slideAt(presentation, index);
    slide.background = { type: 'gradient', colors: scheme.gradient, direction: 'vertical' };
    for (const element of slide.elements) {
      if (element.kind === 'text' && element.role === 'title' && parts.title) Object.assign(element.style, { color: scheme.primary, bold: true });
      else if (element.kind === 'text' && parts.content) element.style.color = scheme.text;
      else if (element.kind === 'shape' && parts.shapes) element.fill = scheme.accent;
    }
  }
}

function registerDesignTool(server: McpServer, decks: Decks): void {
  server.registerTool(
    'apply_professional_design',
    {
      description: `Professional styling with a colour scheme (${schemeNames.join(', ')}). operation "slide": add a styled slide (title, content bullet list); "theme": restyle every slide; "enhance": restyle slide_index (title, content, shapes as enabled).`,
      inputSchema: {
        operation: z.string(),
        slide_index: z.number().int().nullish(),
        slide_type: z.string().default('title_content'),
        color_scheme: z.string().default('modern_blue'),
        title: z.string().nullish(),
        content: z.array(z.string()).nullish(),
        apply_to_existing: z.boolean().default(true),
        enhance_title: z.boolean().default(true),
        enhance_content: z.boolean().default(true),
        enhance_shapes: z.boolean().default(true),
        enhance_charts: z.boolean().default(true),
        presentation_id: presentationId,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const presentation = decks.of(extra).get(args.presentation_id);
        const { warning } = colorScheme(args.color_scheme);
        const parts = { title: args.enhance_title, content: args.enhance_content, shapes: args.enhance_shapes };
        const warnings = warning ? { warnings: [warning] } : {};
        if (args.operation === 'slide') {
          const template = args.slide_type === 'title' ? 'title_slide' : 'two_column_text';
          const content =
            template === 'title_slide'
              ? { title: args.title ?? '', subtitle: (args.content ?? []).join('\n') }
              : { title: args.title ?? '', left_content: (args.content ?? []).join('\n') };
          presentation.slides.push(buildTemplateSlide(template, args.color_scheme, content, {}).slide);
          return jsonResult({
            message: `Added a ${args.slide_type} slide with the ${args.color_scheme} scheme`,
            slide_index: presentation.slides.length - 1,
            ...warnings,
          });
        }
        if (args.operation === 'theme') {
          presentation.colorScheme = args.color_scheme;
          if (args.apply_to_existing)
            restyle(
              presentation,
              presentation.slides.map((_, index) => index),
              args.color_scheme,
              parts,
            );
          return jsonResult({
            message: `Applied the ${args.color_scheme} theme to ${args.apply_to_existing ? presentation.slides.length : 0} slides`,
            ...warnings,
          });
        }
        if (args.operation === 'enhance') {
          if (args.slide_index === undefined || args.slide_index === null) throw new Error('operation "enhance" needs slide_index');
          restyle(presentation, [args.slide_index], args.color_scheme, parts);
          return jsonResult({ message: `Enhanced slide ${args.slide_index} with the ${args.color_scheme} scheme`, ...warnings });
        }
        throw new Error(`operation "${args.operation}" is not one of slide, theme, enhance`);
      }),
  );
}

function registerInfoTools(server: McpServer, decks: Decks): void {
  server.registerTool(
    'manage_slide_masters',
    {
      description:
        'Slide masters and layouts. operation "list": the masters; "get_layouts": the layouts of master_index; "get_layout_info": one layout (layout_index) and its placeholders.',
      inputSchema: {
        operation: z.string(),
        master_index: z.number().int().default(0),
        layout_index: z.number().int().optional(),
        presentation_id: z.string().optional(),
      },
    },
    (args, extra) =>
      guarded(async () => {
        decks.of(extra).get(args.presentation_id);
        if (args.master_index !== 0) throw new Error(`master_index ${args.master_index} is out of range: the presentation has 1 slide master (index 0)`);
        const layouts = layoutNames.map((name, index) => ({
          index,
          name,
          placeholders: index === 6 ? [] : index === 5 ? ['title (idx 0)'] : ['title (idx 0)', index === 0 ? 'subtitle (idx 1)' : 'body (idx 1)'],
        }));
        if (args.operation === 'list') return jsonResult({ masters: [{ index: 0, name: 'Office Theme', layout_count: layouts.length }] });
        if (args.operation === 'get_layouts') return jsonResult({ master_index: 0, layouts });
        if (args.operation === 'get_layout_info') {
          const layout = layouts[args.layout_index ?? -1];
          if (!layout) throw new Error(`layout_index ${args.layout_index ?? '(missing)'} is out of range: valid 0..${layouts.length - 1}`);
          return jsonResult({ master_index: 0, layout });
        }
        throw new Error(`operation "${args.operation}" is not one of list, get_layouts, get_layout_info`);
      }),
  );

  server.registerTool('get_server_info', { description: 'Name, version and capabilities of this PowerPoint server.', inputSchema: {} }, () =>
    guarded(async () =>
      jsonResult({
        name: 'ppt (m3bench PowerPoint server on pptxgenjs)',
        version: '0.2.0',
        slide_size_inches: { width: 13.333, height: 7.5 },
        templates: listTemplates().map((template) => template.id),
        color_schemes: schemeNames,
        layouts: layoutNames,
        not_available: [],
      }),
    ),
  );
}

export function registerDesignTools(server: McpServer, decks: Decks): void {
  registerTemplateTools(server, decks);
  registerGenerateTool(server, decks);
  registerDesignTool(server, decks);
  registerInfoTools(server, decks);
}
