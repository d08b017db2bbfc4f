// The in-memory presentation model. pptxgenjs only writes at save time and cannot read a
// deck back, so the server keeps its own description of every slide (positions in inches on
// a 13.33 x 7.5 in widescreen slide) and renders it on save. Presentations are keyed by id;
// the current one is the last created (or switched to), as in the reference server. Each task
// has its own store (Decks), so "the current presentation" is never another task's.
import { randomUUID } from 'node:crypto';
import type { PerTaskState } from '../shared/task-state.js';

export const slideWidth = 13.333;
export const slideHeight = 7.5;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TextStyle {
  fontSize?: number;
  fontName?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** Hex RRGGBB */
  color?: string;
  bgColor?: string;
  align?: 'left' | 'center' | 'right' | 'justify';
  valign?: 'top' | 'middle' | 'bottom';
  autoFit?: boolean;
  /** One bullet per line (add_bullet_points). */
  bullets?: boolean;
}

export interface TextRun extends Omit<TextStyle, 'align' | 'valign' | 'autoFit' | 'bgColor' | 'bullets'> {
  text: string;
  /** Link target of this run (manage_hyperlinks). */
  hyperlink?: string;
}

export interface TextElement {
  kind: 'text';
  role: 'title' | 'subtitle' | 'body' | 'textbox';
  box: Box;
  runs: TextRun[];
  style: TextStyle;
}

/** What apply_picture_effects keeps on a picture (written by servers/ppt/picture-effects.ts). */
export interface PictureEffects {
  shadow?: { inner: boolean; blurRadius: number; distance: number; direction: number; color: number[]; transparency: number };
  reflection?: { size: number; transparency: number; distance: number; blur: number };
  glow?: { size: number; color: number[]; transparency: number };
  softEdges?: { radius: number };
  rotation?: number;
  transparency?: number;
}

interface ImageElement {
  kind: 'image';
  box: Box;
  data: Buffer;
  mediaType: string;
  source: string;
  /** apply_picture_effects (servers/ppt/picture-effects.ts). */
  effects?: PictureEffects;
}

interface ShapeElement {
  kind: 'shape';
  box: Box;
  fill: string;
  /** pptxgenjs shape name; rectangle when absent. */
  shapeType?: string;
  line?: string;
  lineWidth?: number;
  text?: string;
  fontSize?: number;
  fontColor?: string;
}

interface TableCellStyle {
  fontSize?: number;
  fontName?: string;
  bold?: boolean;
  italic?: boolean;
  color?: string;
  fill?: string;
  align?: 'left' | 'center' | 'right' | 'justify';
  valign?: 'top' | 'middle' | 'bottom';
}

interface TableElement {
  kind: 'table';
  box: Box;
  cells: string[][];
  headerRow: boolean;
  headerFontSize: number;
  bodyFontSize: number;
  headerFill?: string;
  bodyFill?: string;
  border?: string;
  /** Per-cell overrides keyed "row,col" (format_table_cell). */
  cellStyles: Record<string, TableCellStyle>;
}

interface LineElement {
  kind: 'line';
  box: Box;
  /** The line runs from the box's top-left corner unless flipped. */
  flipH: boolean;
  flipV: boolean;
  color: string;
  width: number;
  connectorType: string;
}

export interface ChartElement {
  kind: 'chart';
  box: Box;
  chartType: 'bar' | 'line' | 'pie' | 'area' | 'doughnut';
  categories: string[];
  series: Array<{ name: string; values: number[] }>;
  title?: string;
  showLegend?: boolean;
  legendPosition?: 'b' | 'tr' | 'l' | 'r' | 't';
  dataLabels?: boolean;
  xAxisTitle?: string;
  yAxisTitle?: string;
  colors?: string[];
}

export type SlideElement = TextElement | ImageElement | ShapeElement | ChartElement | TableElement | LineElement;

export type Background = { type: 'solid'; color: string } | { type: 'gradient'; colors: [string, string]; direction: 'horizontal' | 'vertical' | 'diagonal' };

export interface Slide {
  layoutIndex: number;
  layoutName: string;
  background?: Background;
  elements: SlideElement[];
  /** Written into the slide XML after rendering (pptxgenjs has no transitions). */
  transition?: { type: string; durationSec: number };
}

interface CoreProperties {
  title?: string;
  subject?: string;
  author?: string;
  keywords?: string;
  comments?: string;
}

export interface Presentation {
  id: string;
  slides: Slide[];
  /** Colour scheme applied by apply_professional_design, if any. */
  colorScheme?: string;
  properties: CoreProperties;
  savedTo?: string;
}

export class PresentationStore {
  private readonly presentations = new Map<string, Presentation>();
  private currentId: string | undefined;

  /** Creates (or replaces) a presentation and makes it current. */
  create(id: string | undefined): { presentation: Presentation; replaced: boolean } {
    const chosen = id ?? this.freshId();
    const replaced = this.presentations.has(chosen);
    const presentation: Presentation = { id: chosen, slides: [], properties: {} };
    this.presentations.set(chosen, presentation);
    this.currentId = chosen;
    return { presentation, replaced };
  }

  /** Random ids: concurrent tasks sharing one server never pick the same one. */
  private freshId(): string {
    for (;;) {
      const id = `presentation_${randomUUID().slice(0, 8)}`;
      if (!this.presentations.has(id)) return id;
    }
  }

  get(id: string | null | undefined): Presentation {
    const wanted = id ?? this.currentId;
    if (wanted === undefined) {
      throw new Error('no presentation is open: call create_presentation first (or pass presentation_id)');
    }
    const found = this.presentations.get(wanted);
    if (!found) {
      const known = [...this.presentations.keys()];
      throw new Error(
        `presentation "${wanted}" not found; open presentations: ${known.length > 0 ? known.join(', ') : '(none)'} — create it with create_presentation {"id": "${wanted}"}`,
      );
    }
    return found;
  }

  switchTo(id: string): Presentation {
    const presentation = this.get(id);
    this.currentId = id;
    return presentation;
  }

  list(): Array<{ id: string; slide_count: number; current: boolean; saved_to?: string }> {
    return [...this.presentations.values()].map((presentation) => ({
      id: presentation.id,
      slide_count: presentation.slides.length,
      current: presentation.id === this.currentId,
      ...(presentation.savedTo ? { saved_to: presentation.savedTo } : {}),
    }));
  }
}

/** One PresentationStore per task (servers/shared/task-state.ts). */
export type Decks = PerTaskState<PresentationStore>;

export function slideAt(presentation: Presentation, index: number): Slide {
  const slide = presentation.slides[index];
  if (!slide) {
    const count = presentation.slides.length;
    throw new Error(
      `slide_index ${index} is out of range: presentation "${presentation.id}" has ${count} slide${count === 1 ? '' : 's'}${count > 0 ? ` (valid 0..${count - 1}, counting from 0)` : ' (add one with add_slide first)'}`,
    );
  }
  return slide;
}

export function textOf(element: TextElement): string {
  return element.runs.map((run) => run.text).join('');
}

/** Hex RRGGBB from an [r, g, b] list (PowerPoint colours are RGB, unlike OpenCV). */
export function toHex(rgb: readonly number[] | null | undefined): string | undefined {
  if (!rgb) return undefined;
  if (rgb.length < 3) throw new Error(`colour ${JSON.stringify(rgb)} must be [r, g, b] with values 0-255`);
  return rgb
    .slice(0, 3)
    .map((channel) =>
      Math.max(0, Math.min(255, Math.round(channel)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase();
}
