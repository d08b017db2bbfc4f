// Colour schemes, slide layouts and text fitting shared by the slide tools.
// Scheme names follow the reference server (modern_blue, corporate_gray, elegant_green,
// warm_red); an unknown name falls back to modern_blue with a warning, because the ground
// truth uses names the reference never defined (e.g. "blue_gray").
import type { Box } from './model.js';

export interface ColorScheme {
  primary: string;
  secondary: string;
  accent: string;
  light: string;
  text: string;
  gradient: [string, string];
}

const schemes: Record<string, ColorScheme> = {
  modern_blue: { primary: '0078D7', secondary: '282828', accent: '00B0F0', light: 'F7F7F7', text: '333333', gradient: ['E8F1FB', 'B8D4F0'] },
  corporate_gray: { primary: '44546A', secondary: 'EBEBEB', accent: '5B9BD5', light: 'F2F2F2', text: '2C2C2C', gradient: ['F2F2F2', 'C9CED6'] },
  elegant_green: { primary: '468847', secondary: 'F0F5EB', accent: '92D050', light: 'F7FAF5', text: '2F3B2F', gradient: ['F0F7EC', 'C5E0B4'] },
  warm_red: { primary: 'C0504D', secondary: 'FBEFEE', accent: 'F79646', light: 'FDF6F5', text: '3B2A2A', gradient: ['FDF1EF', 'F2C4BE'] },
};

export const schemeNames = Object.keys(schemes);

export function colorScheme(name: string | null | undefined): { scheme: ColorScheme; warning?: string } {
  const wanted = name ?? 'modern_blue';
  const found = schemes[wanted];
  if (found) return { scheme: found };
  return {
    scheme: schemes.modern_blue as ColorScheme,
    warning: `unknown color_scheme "${wanted}", used modern_blue (known: ${schemeNames.join(', ')})`,
  };
}

/** The nine layouts of the default PowerPoint template, by index (python-pptx order). */
export const layoutNames = [
  'Title Slide',
  'Title and Content',
  'Section Header',
  'Two Content',
  'Comparison',
  'Title Only',
  'Blank',
  'Content with Caption',
  'Picture with Caption',
];

export function layoutName(index: number): string {
  const name = layoutNames[index];
  if (name === undefined) {
    throw new Error(
      `layout_index ${index} is out of range: valid 0..${layoutNames.length - 1} (${layoutNames.map((entry, at) => `${at} ${entry}`).join(', ')})`,
    );
  }
  return name;
}

/** Where a layout puts its title (title-slide and section layouts centre it). */
export function titleBox(layoutIndex: number): Box {
  if (layoutIndex === 0) return { left: 0.9, top: 2.2, width: 11.5, height: 1.6 };
  if (layoutIndex === 2) return { left: 0.9, top: 3.0, width: 11.5, height: 1.3 };
  return { left: 0.6, top: 0.3, width: 12.1, height: 1.0 };
}

const pointsPerInch = 72;
/** Average glyph width of proportional fonts, as a fraction of the font size. */
const averageGlyphWidth = 0.5;
const lineHeight = 1.2;
/** pptxgenjs text boxes keep 0.1 in of inset on each side. */
const inset = 0.1;

export interface TextFit {
  fits: boolean;
  lines: number;
  requiredHeight: number;
}

/** Estimates how text wraps in a box at a font size (no font metrics; a conservative average). */
export function measureText(text: string, box: Pick<Box, 'width' | 'height'>, fontSize: number): TextFit {
  const usableWidth = Math.max(0.1, box.width - 2 * inset) * pointsPerInch;
  const charsPerLine = Math.max(1, Math.floor(usableWidth / (fontSize * averageGlyphWidth)));
  const lines = text.split(/\r?\n/).reduce((total, paragraph) => total + Math.max(1, Math.ceil(paragraph.length / charsPerLine)), 0);
  const requiredHeight = (lines * fontSize * lineHeight) / pointsPerInch + 2 * inset;
  return { fits: requiredHeight <= box.height + 1e-9, lines, requiredHeight: Math.round(requiredHeight * 100) / 100 };
}

/** Largest size in [min, start] (start capped at max) whose estimate fits; min when none does. */
export function fitFontSize(text: string, box: Pick<Box, 'width' | 'height'>, start: number, min: number, max: number): number {
  let size = Math.min(start, max);
  while (size > min && !measureText(text, box, size).fits) size -= 1;
  return Math.max(size, min);
}
