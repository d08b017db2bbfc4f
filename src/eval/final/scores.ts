// Reading a judge's score and combining judges. The score must be in `\boxed{...}`; the last
// boxed value wins, since models sometimes restate the format before answering. The reference
// fell back to the first number anywhere ("Planning 3/3 ..." → 3, bug 42); here a fallback to
// the last number exists only in an explicitly requested lenient mode and is flagged.
import { mean } from '../../core/number-format.js';

export type ParseMethod = 'boxed' | 'lenient_last_number';

export type ScoreParse = { ok: true; value: number; method: ParseMethod } | { ok: false; reason: string };

export interface ScoreRange {
  min: number;
  max: number;
}

const numberPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const anyNumber = /[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/g;

/**
 * Contents of every `\boxed{...}`, braces balanced (so `\boxed{\text{7}}` is one value).
 * @internal Exported for its tests.
 */
export function boxedContents(text: string): string[] {
  const found: string[] = [];
  const marker = '\\boxed{';
  let from = text.indexOf(marker);
  while (from !== -1) {
    let depth = 1;
    let cursor = from + marker.length;
    while (cursor < text.length && depth > 0) {
      const char = text[cursor];
      if (char === '{') depth += 1;
      else if (char === '}') depth -= 1;
      cursor += 1;
    }
    if (depth !== 0) break;
    found.push(text.slice(from + marker.length, cursor - 1));
    from = text.indexOf(marker, cursor);
  }
  return found;
}

/** `\text{7.5}`, `$7.5$` and surrounding spaces are accepted; anything else is malformed. */
function boxedNumber(content: string): number | undefined {
  const cleaned = content.replace(/\\(?:text|mathrm|mathbf)\{([^{}]*)\}/g, '$1').replace(/[$\s]/g, '');
  return numberPattern.test(cleaned) ? Number(cleaned) : undefined;
}

function inRange(value: number, range: ScoreRange): boolean {
  return Number.isFinite(value) && value >= range.min && value <= range.max;
}

export function parseScore(text: string, range: ScoreRange, options: { lenient?: boolean } = {}): ScoreParse {
  const boxes = boxedContents(text);
  const last = boxes[boxes.length - 1];
  if (last !== undefined) {
    const value = boxedNumber(last);
    if (value === undefined) return { ok: false, reason: `\\boxed{${last.slice(0, 40)}} does not hold a plain number` };
    if (!inRange(value, range)) return { ok: false, reason: `boxed score ${value} is outside [${range.min}, ${range.max}]` };
    return { ok: true, value, method: 'boxed' };
  }
  if (!options.lenient) return { ok: false, reason: 'no \\boxed{...} score in the reply' };
  const numbers = text.match(anyNumber) ?? [];
  const lastNumber = numbers[numbers.length - 1];
  if (lastNumber === undefined) return { ok: false, reason: 'no \\boxed{...} score and no number in the reply (lenient mode)' };
  const value = Number(lastNumber);
  if (!inRange(value, range)) return { ok: false, reason: `last number ${value} is outside [${range.min}, ${range.max}] (lenient mode)` };
  return { ok: true, value, method: 'lenient_last_number' };
}

/**
 * Per-task combination: with more than two judges drop one lowest and one highest
 * and average the rest; with one or two, average all. NaN for no scores.
 */
export function trimmedMean(scores: readonly number[]): number {
  if (scores.length === 0) return Number.NaN;
  const sorted = [...scores].sort((a, b) => a - b);
  const kept = sorted.length > 2 ? sorted.slice(1, -1) : sorted;
  return mean(kept);
}

/** Mean that skips NaN / null; NaN when nothing is left. */
export function meanSkippingMissing(values: ReadonlyArray<number | null | undefined>): number {
  const present = values.filter((value): value is number => typeof value === 'number' && !Number.isNaN(value));
  return mean(present);
}
