// RADAR precise answers and the tutorial's answer hit.
//
// Precise-answer accuracy (exact match after a documented normalisation):
//   1. extraction: the last line of the reply of the form `Answer: X` (or `Final answer: X`,
//      markdown emphasis ignored); else the `answer` key of a JSON object reply; else the whole reply;
//   2. numeric ground truth (a number, or a string that is one number): the first number of the
//      extracted text (thousands separators removed) must equal it within the tolerance
//      (absolute, default 1e-6, or relative);
//   3. text ground truth: NFKC, lower case, markdown `*_\`` removed, surrounding quotes and
//      final `.,;:!` removed, whitespace collapsed; equal to the value or one of its aliases.
// Answer hit (looser, the tutorial's "final answer contains the expected key content"): the
// expected value appears anywhere in the reply (text: ignoring case and whitespace; numbers:
// any number of the reply within the tolerance), or, for tasks without a precise answer, every
// `reply` text of the GT facts appears in the reply (src/tasks/facts.ts).
import { textContains, type Fact } from '../../tasks/facts.js';
import type { PreciseAnswer } from '../../tasks/task-checks.js';
import { numbersIn } from '../rules/functions.js';

export interface AnswerMatch {
  passed: boolean;
  /** The text the comparison used. */
  extracted: string;
  reason: string;
}

const answerLine = /^\s*(?:final\s+)?answer\s*[:：]\s*(.+?)\s*$/i;

function stripEmphasis(text: string): string {
  return text.replace(/[*_`]/g, '');
}

/** Step 1 of the normalisation: which part of the reply is the answer. */
function extractAnswer(reply: string): string {
  const lines = reply.split(/\r?\n/).map(stripEmphasis);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const match = answerLine.exec(lines[index] ?? '');
    if (match?.[1]) return match[1];
  }
  const trimmed = reply.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      const value = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).answer : undefined;
      if (typeof value === 'string' || typeof value === 'number') return String(value);
    } catch {
      // not JSON: the whole reply is the answer
    }
  }
  return trimmed;
}

function normaliseAnswerText(text: string): string {
  return stripEmphasis(text.normalize('NFKC').toLowerCase())
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .replace(/[.,;:!]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The ground truth as a number, when it is one. */
function numericValue(value: string | number): number | undefined {
  if (typeof value === 'number') return value;
  const trimmed = value.trim().replace(/,(?=\d{3}\b)/g, '');
  return /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

function withinTolerance(actual: number, expected: number, answer: PreciseAnswer): boolean {
  const allowed = answer.relative !== undefined ? Math.abs(expected) * answer.relative : (answer.tolerance ?? 1e-6);
  return Math.abs(actual - expected) <= allowed + Number.EPSILON * Math.max(1, Math.abs(expected));
}

export function matchPreciseAnswer(reply: string, answer: PreciseAnswer): AnswerMatch {
  const extracted = extractAnswer(reply);
  const expected = numericValue(answer.value);
  if (expected !== undefined) {
    const found = numbersIn(extracted)[0];
    if (found === undefined)
      return { passed: false, extracted, reason: `no number in the answer ${JSON.stringify(extracted.slice(0, 80))}, expected ${expected}` };
    const passed = withinTolerance(found, expected, answer);
    return { passed, extracted, reason: `${found} ${passed ? '=' : '!='} ${expected}` };
  }
  const accepted = [answer.value, ...(answer.aliases ?? [])].map((item) => normaliseAnswerText(String(item)));
  const got = normaliseAnswerText(extracted);
  const passed = accepted.includes(got);
  return { passed, extracted, reason: passed ? `"${got}" matches` : `"${got.slice(0, 80)}" is not ${accepted.map((item) => `"${item}"`).join(' or ')}` };
}

/** The answer hit of one task, or undefined when the task states no expected content. */
export function answerHit(reply: string, answer: PreciseAnswer | undefined, facts: readonly Fact[] | undefined): boolean | undefined {
  if (answer) {
    const expected = numericValue(answer.value);
    if (expected !== undefined) return numbersIn(reply).some((found) => withinTolerance(found, expected, answer));
    return [answer.value, ...(answer.aliases ?? [])].some((item) => textContains(reply, String(item)));
  }
  const texts = (facts ?? []).flatMap((fact) => (fact.reply ? [fact.reply] : []));
  if (texts.length === 0) return undefined;
  return texts.every((text) => textContains(reply, text));
}
