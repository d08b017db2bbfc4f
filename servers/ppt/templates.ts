// Built-in slide templates for create_slide_from_template. A template is a list of slots;
// content_mapping fills text (and chart) slots by key, image_paths fills image slots by key.
// The ground truth only uses "title_slide" (keys title, subtitle and once body).
import { colorScheme, type ColorScheme, fitFontSize, layoutName } from './design.js';
import type { Box, ChartElement, Slide, SlideElement, TextElement, TextStyle } from './model.js';
import { containBox, type SlideImage } from './slide-images.js';

type Slot =
  | { key: string; kind: 'text'; role: TextElement['role']; box: Box; style: (scheme: ColorScheme) => TextStyle }
  | { key: string; kind: 'image'; box: Box }
  | { key: string; kind: 'chart'; box: Box };

interface Template {
  name: string;
  description: string;
  layoutIndex: number;
  background: (scheme: ColorScheme) => Slide['background'];
  decorations: (scheme: ColorScheme) => SlideElement[];
  slots: Slot[];
}

const heading = (scheme: ColorScheme): TextStyle => ({ fontSize: 32, bold: true, color: scheme.primary, valign: 'middle' });
const body =
  (size: number) =>
  (scheme: ColorScheme): TextStyle => ({ fontSize: size, color: scheme.text, valign: 'top' });
const titleSlot: Slot = { key: 'title', kind: 'text', role: 'title', box: { left: 0.6, top: 0.3, width: 12.1, height: 1.0 }, style: heading };
const underline = (scheme: ColorScheme): SlideElement[] => [{ kind: 'shape', box: { left: 0.6, top: 1.3, width: 12.1, height: 0.05 }, fill: scheme.accent }];

const templates: Record<string, Template> = {
  title_slide: {
    name: 'Title slide',
    description: 'Large title, subtitle and optional body text on a soft gradient. Keys: title, subtitle, body.',
    layoutIndex: 0,
    background: (scheme) => ({ type: 'gradient', colors: scheme.gradient, direction: 'diagonal' }),
    decorations: (scheme) => [{ kind: 'shape', box: { left: 0.9, top: 3.95, width: 3.0, height: 0.08 }, fill: scheme.accent }],
    slots: [
      {
        key: 'title',
        kind: 'text',
        role: 'title',
        box: { left: 0.9, top: 1.2, width: 11.5, height: 2.6 },
        style: (scheme) => ({ fontSize: 40, bold: true, color: scheme.primary, valign: 'bottom' }),
      },
      { key: 'subtitle', kind: 'text', role: 'subtitle', box: { left: 0.9, top: 4.15, width: 11.5, height: 1.3 }, style: body(20) },
      { key: 'body', kind: 'text', role: 'body', box: { left: 0.9, top: 5.6, width: 11.5, height: 1.6 }, style: body(14) },
    ],
  },
  section_header: {
    name: 'Section header',
    description: 'Title and subtitle on the scheme colour. Keys: title, subtitle.',
    layoutIndex: 2,
    background: (scheme) => ({ type: 'solid', color: scheme.primary }),
    decorations: () => [],
    slots: [
      {
        key: 'title',
        kind: 'text',
        role: 'title',
        box: { left: 0.9, top: 2.4, width: 11.5, height: 1.6 },
        style: () => ({ fontSize: 40, bold: true, color: 'FFFFFF', valign: 'bottom' }),
      },
      {
        key: 'subtitle',
        kind: 'text',
        role: 'subtitle',
        box: { left: 0.9, top: 4.2, width: 11.5, height: 1.2 },
        style: () => ({ fontSize: 20, color: 'FFFFFF' }),
      },
    ],
  },
  text_with_image: {
    name: 'Text with image',
    description: 'Title, text on the left, one picture on the right. Keys: title, content; image_paths: image.',
    layoutIndex: 3,
    background: (scheme) => ({ type: 'solid', color: scheme.light }),
    decorations: underline,
    slots: [
      titleSlot,
      { key: 'content', kind: 'text', role: 'body', box: { left: 0.6, top: 1.6, width: 6.0, height: 5.4 }, style: body(18) },
      { key: 'image', kind: 'image', box: { left: 7.0, top: 1.6, width: 5.7, height: 5.4 } },
    ],
  },
  two_column_text: {
    name: 'Two columns of text',
    description: 'Title and two text columns. Keys: title, left_content, right_content.',
    layoutIndex: 3,
    background: (scheme) => ({ type: 'solid', color: scheme.light }),
    decorations: underline,
    slots: [
      titleSlot,
      { key: 'left_content', kind: 'text', role: 'body', box: { left: 0.6, top: 1.6, width: 5.9, height: 5.4 }, style: body(18) },
      { key: 'right_content', kind: 'text', role: 'body', box: { left: 6.8, top: 1.6, width: 5.9, height: 5.4 }, style: body(18) },
    ],
  },
  image_grid: {
    name: 'Image grid',
    description: 'Title and up to four pictures in a 2x2 grid. Keys: title; image_paths: image_1..image_4.',
    layoutIndex: 5,
    background: (scheme) => ({ type: 'solid', color: scheme.light }),
    decorations: underline,
    slots: [
      titleSlot,
      { key: 'image_1', kind: 'image', box: { left: 0.6, top: 1.5, width: 5.9, height: 2.8 } },
      { key: 'image_2', kind: 'image', box: { left: 6.8, top: 1.5, width: 5.9, height: 2.8 } },
      { key: 'image_3', kind: 'image', box: { left: 0.6, top: 4.5, width: 5.9, height: 2.8 } },
      { key: 'image_4', kind: 'image', box: { left: 6.8, top: 4.5, width: 5.9, height: 2.8 } },
    ],
  },
  chart_slide: {
    name: 'Chart slide',
    description:
      'Title and a native chart. Keys: title, chart = {type: bar|line|pie|area|doughnut, categories: [...], series: [{name, values: [...]}], title?}.',
    layoutIndex: 5,
    background: (scheme) => ({ type: 'solid', color: scheme.light }),
    decorations: underline,
    slots: [titleSlot, { key: 'chart', kind: 'chart', box: { left: 0.8, top: 1.5, width: 11.7, height: 5.6 } }],
  },
};

export function listTemplates(): Array<{ id: string; name: string; description: string; content_keys: string[]; image_keys: string[] }> {
  return Object.entries(templates).map(([id, template]) => ({
    id,
    name: template.name,
    description: template.description,
    content_keys: template.slots.filter((slot) => slot.kind !== 'image').map((slot) => slot.key),
    image_keys: template.slots.filter((slot) => slot.kind === 'image').map((slot) => slot.key),
  }));
}

export function templateImageKeys(templateId: string): string[] {
  return findTemplate(templateId)
    .slots.filter((slot) => slot.kind === 'image')
    .map((slot) => slot.key);
}

function findTemplate(templateId: string): Template {
  const template = templates[templateId];
  if (!template) throw new Error(`unknown template_id "${templateId}" (available: ${Object.keys(templates).join(', ')}; see list_slide_templates)`);
  return template;
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n');
  return JSON.stringify(value);
}

function toChart(value: unknown, box: Box): ChartElement {
  const chart = value as { type?: unknown; categories?: unknown; series?: unknown; title?: unknown } | null;
  const types = ['bar', 'line', 'pie', 'area', 'doughnut'] as const;
  const chartType = types.find((type) => type === (chart?.type ?? 'bar'));
  const categories = chart?.categories;
  const series = chart?.series;
  const validSeries =
    Array.isArray(series) &&
    series.every((entry) => typeof entry?.name === 'string' && Array.isArray(entry?.values) && entry.values.every((item: unknown) => typeof item === 'number'));
  if (!chartType || !Array.isArray(categories) || !validSeries) {
    throw new Error('content_mapping.chart must be {type: bar|line|pie|area|doughnut, categories: string[], series: [{name: string, values: number[]}]}');
  }
  return {
    kind: 'chart',
    box,
    chartType,
    categories: categories.map(String),
    series: series as ChartElement['series'],
    ...(typeof chart?.title === 'string' ? { title: chart.title } : {}),
  };
}

export interface TemplateResult {
  slide: Slide;
  filled: string[];
  ignoredKeys: string[];
  warnings: string[];
}

/** Builds a slide from a template; `images` holds the already loaded image_paths entries. */
export function buildTemplateSlide(
  templateId: string,
  schemeName: string | null | undefined,
  content: Record<string, unknown>,
  images: Record<string, SlideImage>,
): TemplateResult {
  const template = findTemplate(templateId);
  const { scheme, warning } = colorScheme(schemeName);
  const background = template.background(scheme);
  const slide: Slide = {
    layoutIndex: template.layoutIndex,
    layoutName: layoutName(template.layoutIndex),
    ...(background ? { background } : {}),
    elements: [...template.decorations(scheme)],
  };
  const filled: string[] = [];
  for (const slot of template.slots) {
    if (slot.kind === 'image') {
      const image = images[slot.key];
      if (!image) continue;
      slide.elements.push({ kind: 'image', box: containBox(image, slot.box), data: image.data, mediaType: image.mediaType, source: image.source });
    } else if (slot.kind === 'chart') {
      if (content[slot.key] === undefined) continue;
      slide.elements.push(toChart(content[slot.key], slot.box));
    } else {
      if (content[slot.key] === undefined || content[slot.key] === null) continue;
      const text = toText(content[slot.key]);
      const style = slot.style(scheme);
      // Long GT titles would overflow at the template size: shrink to the estimate that fits.
      const fontSize = fitFontSize(text, slot.box, style.fontSize ?? 18, 10, style.fontSize ?? 18);
      slide.elements.push({ kind: 'text', role: slot.role, box: slot.box, runs: [{ text }], style: { ...style, fontSize, autoFit: true } });
    }
    filled.push(slot.key);
  }
  const known = new Set(template.slots.map((slot) => slot.key));
  const ignoredKeys = [...Object.keys(content), ...Object.keys(images)].filter((key) => !known.has(key));
  return { slide, filled, ignoredKeys, warnings: warning ? [warning] : [] };
}
