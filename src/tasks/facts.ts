// Facts: the checkable claims behind a ground-truth task's final reply. Each fact points at one
// GT call (`step` is 1-based like `steps[].step`, `call` is the 0-based index within the step),
// optionally a `path` into that call's JSON result, and exactly one check on the value found:
//
//   { "step": 1, "call": 0, "path": "objects[*].category", "includes": "dog", "reply": "a dog" }
//   { "step": 2, "call": 0, "number": 15, "tolerance": 0.01, "reply": "15.00" }
//   { "step": 1, "call": 0, "textIncludes": "TOTAL 15.00", "reply": "15.00" }
//   { "step": 1, "call": 0, "expectError": true }
//
// `reply` is the text of `final_reply` the fact supports; `m3 tasks verify` checks both that
// the fact holds on the live result and that the reply contains that text. Text comparisons
// ignore case and whitespace (OCR drops and adds spaces between words); a path-less
// `textIncludes` searches the decoded strings of a JSON result. Paths are a small JSON-path
// subset: dot keys, `[n]` and `[*]` (e.g. `results[0].codes[*].text`).
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { clip } from '../core/number-format.js';

const checkKeys = ['equals', 'includes', 'excludes', 'textIncludes', 'number', 'atLeast', 'atMost', 'length', 'expectError'] as const;

export const factSchema = z
  .object({
    step: z.number().int().min(1),
    call: z.number().int().min(0),
    path: z.string().min(1).optional(),
    equals: z.unknown().optional(),
    includes: z.unknown().optional(),
    excludes: z.unknown().optional(),
    textIncludes: z.string().min(1).optional(),
    number: z.number().optional(),
    tolerance: z.number().min(0).optional(),
    atLeast: z.number().optional(),
    atMost: z.number().optional(),
    length: z.number().int().min(0).optional(),
    expectError: z.literal(true).optional(),
    reply: z.string().min(1).optional(),
    note: z.string().optional(),
  })
  .strict()
  .superRefine((fact, context) => {
    const present = checkKeys.filter((key) => fact[key] !== undefined);
    // An expected failure may also say what the error message must contain.
    const allowed = fact.expectError ? present.filter((key) => key !== 'textIncludes') : present;
    if (allowed.length !== 1) {
      context.addIssue({
        code: 'custom',
        message: `a fact needs exactly one check (${checkKeys.join(', ')}), got ${present.length === 0 ? 'none' : present.join(' + ')}`,
      });
    }
    if (fact.tolerance !== undefined && fact.number === undefined) context.addIssue({ code: 'custom', message: '"tolerance" only goes with "number"' });
    if (fact.expectError && fact.path !== undefined) context.addIssue({ code: 'custom', message: 'an "expectError" fact checks the error text, not a path' });
    if (!fact.expectError && fact.reply === undefined) {
      context.addIssue({ code: 'custom', message: 'a fact needs "reply": the text of final_reply it supports' });
    }
  });

export type Fact = z.output<typeof factSchema>;

/** What a fact is checked against: one tool result as the verifier (or a prediction) saw it. */
export interface CheckableResult {
  isError: boolean;
  /** Full result text (for errors, the error message). */
  text: string;
  /** The result parsed as JSON (structured content, or the first text item that parses), if any. */
  json?: unknown;
}

/** Builds a CheckableResult from the text items of a tool result (and its structured content). */
export function toCheckableResult(result: { isError: boolean; texts: readonly string[]; structuredContent?: unknown }): CheckableResult {
  const text = result.texts.join('\n');
  if (result.structuredContent !== undefined) return { isError: result.isError, text, json: result.structuredContent };
  for (const item of result.texts) {
    const trimmed = item.trim();
    if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) continue;
    try {
      return { isError: result.isError, text, json: JSON.parse(trimmed) as unknown };
    } catch {
      // not JSON; keep looking
    }
  }
  return { isError: result.isError, text };
}

/** Every string inside a JSON value, in document order (numbers are checked with a path). */
function leaves(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) leaves(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) leaves(item, into);
  return into;
}

/**
 * The text a path-less `textIncludes` searches: for a JSON result its decoded strings (so a
 * newline inside a JSON string is a newline, not the two characters of its escape), else the
 * raw result text.
 * @internal Exported for its tests.
 */
export function resultText(result: CheckableResult): string {
  return result.json === undefined ? result.text : leaves(result.json).join('\n');
}

/** Case- and whitespace-insensitive form used by every text comparison. */
function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

export function textContains(haystack: string, needle: string): boolean {
  return normaliseText(haystack).includes(normaliseText(needle));
}

type Segment = { key: string } | { index: number } | { wildcard: true };

/**
 * Parses `a.b[0].c[*]` into segments; throws on anything else.
 * @internal Exported for its tests.
 */
export function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  const pattern = /\[(\d+|\*)\]|\.?([^.[\]]+)/gy;
  for (let match = pattern.exec(path); match !== null; match = pattern.exec(path)) {
    if (match[1] === '*') segments.push({ wildcard: true });
    else if (match[1] !== undefined) segments.push({ index: Number(match[1]) });
    else segments.push({ key: match[2] ?? '' });
    if (pattern.lastIndex === path.length) return segments;
  }
  throw new Error(`path "${path}" is not in the supported subset (dot keys, [n], [*]), e.g. "objects[*].category"`);
}

interface PathMatch {
  found: boolean;
  value: unknown;
  /** True when the path has a [*]: `value` is then the list of everything it matched. */
  multiple: boolean;
}

/**
 * Resolves a path; with [*] the result is the list of matches (possibly empty).
 * @internal Exported for its tests.
 */
export function resolvePath(root: unknown, path: string): PathMatch {
  const segments = parsePath(path);
  let current: unknown[] = [root];
  const multiple = segments.some((segment) => 'wildcard' in segment);
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('wildcard' in segment) {
        if (Array.isArray(value)) next.push(...value);
        else if (value && typeof value === 'object') next.push(...Object.values(value));
      } else if ('index' in segment) {
        if (Array.isArray(value) && segment.index < value.length) next.push(value[segment.index]);
      } else if (value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, segment.key)) {
        next.push((value as Record<string, unknown>)[segment.key]);
      }
    }
    current = next;
  }
  if (multiple) return { found: true, value: current, multiple };
  return current.length === 0 ? { found: false, value: undefined, multiple } : { found: true, value: current[0], multiple };
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return clip(text, 160, { markerInLimit: true });
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join('\n');
  return JSON.stringify(value) ?? '';
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value.trim()))) return Number(value.trim());
  return undefined;
}

function contains(value: unknown, expected: unknown): boolean | undefined {
  if (Array.isArray(value)) return value.some((item) => isDeepStrictEqual(item, expected));
  if (typeof value === 'string' && typeof expected === 'string') return textContains(value, expected);
  return undefined;
}

/** One-line description of a fact, for messages: `step 1 call 0, counts.dog equals 2`. */
export function describeFact(fact: Fact): string {
  const check = checkKeys.find((key) => fact[key] !== undefined && !(key === 'textIncludes' && fact.expectError));
  const value = check === 'expectError' ? '' : ` ${show(check ? fact[check] : undefined)}`;
  const tolerance = fact.tolerance !== undefined ? ` ±${fact.tolerance}` : '';
  return `step ${fact.step} call ${fact.call}${fact.path ? `, ${fact.path}` : ''} ${check ?? '?'}${value}${tolerance}`;
}

function checkValue(fact: Fact, value: unknown): string | undefined {
  if (fact.equals !== undefined) return isDeepStrictEqual(value, fact.equals) ? undefined : `expected ${show(fact.equals)}, got ${show(value)}`;
  if (fact.includes !== undefined || fact.excludes !== undefined) {
    const wanted = fact.includes ?? fact.excludes;
    const found = contains(value, wanted);
    if (found === undefined) return `cannot look for ${show(wanted)} in ${show(value)} (needs a list, or text and a string)`;
    if (fact.includes !== undefined) return found ? undefined : `${show(value)} does not include ${show(wanted)}`;
    return found ? `${show(value)} includes ${show(wanted)}, which it must not` : undefined;
  }
  if (fact.textIncludes !== undefined)
    return textContains(asText(value), fact.textIncludes) ? undefined : `text ${show(asText(value))} does not contain ${show(fact.textIncludes)}`;
  if (fact.length !== undefined) {
    if (!Array.isArray(value)) return `expected a list of ${fact.length}, got ${show(value)}`;
    return value.length === fact.length ? undefined : `expected ${fact.length} item(s), got ${value.length}: ${show(value)}`;
  }
  const number = Array.isArray(value) && (fact.atLeast !== undefined || fact.atMost !== undefined) ? value.length : asNumber(value);
  if (number === undefined) return `expected a number, got ${show(value)}`;
  if (fact.number !== undefined) {
    const tolerance = fact.tolerance ?? 1e-9;
    return Math.abs(number - fact.number) <= tolerance ? undefined : `expected ${fact.number} (±${tolerance}), got ${number}`;
  }
  if (fact.atLeast !== undefined && number < fact.atLeast) return `expected at least ${fact.atLeast}, got ${number}`;
  if (fact.atMost !== undefined && number > fact.atMost) return `expected at most ${fact.atMost}, got ${number}`;
  return undefined;
}

/** Returns why the fact does not hold on this result, or undefined when it holds. */
export function checkFact(fact: Fact, result: CheckableResult): string | undefined {
  if (fact.expectError) {
    if (!result.isError) return `expected this call to fail, but it succeeded: ${show(result.text)}`;
    if (fact.textIncludes !== undefined && !textContains(result.text, fact.textIncludes)) {
      return `the error ${show(result.text)} does not mention ${show(fact.textIncludes)}`;
    }
    return undefined;
  }
  if (result.isError) return `the call failed: ${show(result.text)}`;
  if (fact.path === undefined) return checkValue(fact, fact.textIncludes !== undefined ? resultText(result) : result.text.trim());
  if (result.json === undefined) return `the result is not JSON, so path "${fact.path}" cannot be read: ${show(result.text)}`;
  const match = resolvePath(result.json, fact.path);
  if (!match.found) return `path "${fact.path}" not found in ${show(result.json)}`;
  return checkValue(fact, match.value);
}
