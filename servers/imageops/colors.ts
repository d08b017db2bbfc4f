// Colour arguments for the drawing tools. Three spellings are accepted:
//  - a CSS-style name ("red", "yellow", ...),
//  - hex ("#f00", "#ff0000", "#ff000080"),
//  - a list of numbers, read as OpenCV **BGR** order ([0, 0, 255] is red), optionally with a
//    fourth alpha value 0-255. The reference server was OpenCV-based and the ground truth
//    writes red as [0, 0, 255], so lists keep that meaning here; names and hex are unambiguous.
import { z } from 'zod';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0..1 */
  alpha: number;
}

const namedColors: Record<string, [number, number, number]> = {
  black: [0, 0, 0],
  white: [255, 255, 255],
  red: [255, 0, 0],
  green: [0, 128, 0],
  lime: [0, 255, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
  cyan: [0, 255, 255],
  magenta: [255, 0, 255],
  orange: [255, 165, 0],
  purple: [128, 0, 128],
  pink: [255, 192, 203],
  brown: [165, 42, 42],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  navy: [0, 0, 128],
  teal: [0, 128, 128],
  gold: [255, 215, 0],
};

/** The colour names the drawing tools accept, with their RGB values. */
export function colorNames(): Array<{ name: string; rgb: [number, number, number] }> {
  return Object.entries(namedColors).map(([name, rgb]) => ({ name, rgb }));
}

export const colorSchema = z.union([z.string().min(1), z.array(z.number().min(0).max(255)).min(3).max(4)]);

export type ColorInput = z.infer<typeof colorSchema>;

function fromHex(hex: string, label: string): Rgba {
  const digits = hex.slice(1);
  const expanded = digits.length === 3 || digits.length === 4 ? [...digits].map((digit) => digit + digit).join('') : digits;
  if (!/^[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(expanded)) {
    throw new Error(`${label}: "${hex}" is not a hex colour (expected #rgb, #rrggbb or #rrggbbaa)`);
  }
  const channel = (index: number): number => Number.parseInt(expanded.slice(index, index + 2), 16);
  return { r: channel(0), g: channel(2), b: channel(4), alpha: expanded.length === 8 ? channel(6) / 255 : 1 };
}

/** Parses one colour argument; `label` names the argument in error messages. */
export function parseColor(input: ColorInput | undefined | null, fallback: ColorInput, label: string): Rgba {
  const value = input ?? fallback;
  if (Array.isArray(value)) {
    const [b = 0, g = 0, r = 0, alpha = 255] = value.map((channel) => Math.round(channel));
    return { r, g, b, alpha: alpha / 255 };
  }
  const text = value.trim().toLowerCase();
  if (text.startsWith('#')) return fromHex(text, label);
  const named = namedColors[text];
  if (!named) {
    throw new Error(
      `${label}: unknown colour "${value}" (use a name such as ${Object.keys(namedColors).slice(0, 8).join(', ')}, hex like "#ff0000", or a BGR list like [0, 0, 255])`,
    );
  }
  return { r: named[0], g: named[1], b: named[2], alpha: 1 };
}

/** SVG paint attributes for a colour (fill or stroke). */
export function toSvgPaint(color: Rgba, kind: 'fill' | 'stroke'): string {
  return `${kind}="rgb(${color.r},${color.g},${color.b})" ${kind}-opacity="${color.alpha}"`;
}
