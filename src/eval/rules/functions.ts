// The built-in pipeline functions of the rule evaluators. Each takes the current value and the
// step's text arguments and returns the next value, or throws RuleFailure with a reason (a
// failed check, never a crash). `foreach` and `raw` are structural (evaluate.ts).
//
// MCP-Universe's functions (mcpuniverse/evaluator/functions.py), with its semantics; like
// Python's `*args`, extra arguments are ignored:
//   json          the text stripped of whitespace and backticks and of a leading `json`, then
//                 decoded strictly: prose around the JSON fails (use find_json)
//   get(key)      value of an object key; a missing key gives null; anything but an object fails
//   len           length of a list (anything else fails: use size)
//   list          the value wrapped in a one-element list
//   foreach       the rest of the pipeline runs on each element; the operator then tests each
//                 result, and an empty list passes
//   raw           the value unchanged (MCP-Universe wraps it, so no function may follow it)
//
// m3bench's own, under names MCP-Universe does not use:
//   find_json     like json, but code fences and prose around one JSON value are ignored
//   at(i)         element i of a list (negative counts from the end)
//   size          length of a list or string (code points), number of keys of an object
//   lower, upper, trim   string case and surrounding whitespace
//   number        a number as is, or the first number in a text ("1,250.00 EUR" -> 1250)
//   numbers       every number in a text, as a list
//   regex(p[, g]) first match of the pattern p (case-insensitive, time-limited); group g
//                 (default: group 1 when the pattern has one, else the whole match)
//   first, last   first / last element of a list
//   sum           sum of a list of numbers
//   keys, values  of an object
import { execWithTimeLimit, RegexTimeoutError } from './bounded-regex.js';
import { clip } from '../../core/number-format.js';

export class RuleFailure extends Error {}

export type RuleFunction = (value: unknown, args: readonly string[]) => unknown;

export function describeValue(value: unknown, max = 120): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return clip(text, max, { marker: '…' });
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function expectString(value: unknown, step: string): string {
  if (typeof value !== 'string') throw new RuleFailure(`${step} needs a string, got ${kindOf(value)} ${describeValue(value)}`);
  return value;
}

function expectList(value: unknown, step: string): unknown[] {
  if (!Array.isArray(value)) throw new RuleFailure(`${step} needs a list, got ${kindOf(value)} ${describeValue(value)}`);
  return value;
}

function expectObject(value: unknown, step: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new RuleFailure(`${step} needs an object, got ${kindOf(value)} ${describeValue(value)}`);
  return value as Record<string, unknown>;
}

/** The first balanced {...} or [...] in a text (strings respected), for answers with prose around the JSON. */
function embeddedJson(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const stack: string[] = [];
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') {
      for (index += 1; index < text.length && text[index] !== '"'; index += 1) if (text[index] === '\\') index += 1;
    } else if (char === '{' || char === '[') stack.push(char === '{' ? '}' : ']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return undefined;
      if (stack.length === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}

/** MCP-Universe's json: `x.strip().strip("`").strip()`, a leading `json` dropped, then json.loads. */
function decodeJsonStrictly(value: unknown): unknown {
  let text = expectString(value, 'json')
    .trim()
    .replace(/^`+|`+$/g, '')
    .trim();
  if (text.startsWith('json')) text = text.slice(4).trim();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RuleFailure(`json: JSON decoding error (${(error as Error).message}) in ${describeValue(value)}`);
  }
}

function findJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(value)?.[1];
  for (const candidate of [value, fenced, embeddedJson(fenced ?? value)]) {
    if (candidate === undefined || candidate.trim() === '') continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next candidate
    }
  }
  throw new RuleFailure(`find_json: the text holds no JSON: ${describeValue(value)}`);
}

/** MCP-Universe's get: `dict.get(key, None)`; only an object is accepted. */
function getKey(value: unknown, args: readonly string[]): unknown {
  const key = args[0];
  if (key === undefined) throw new RuleFailure('get needs a key');
  const object = expectObject(value, `get(${key})`);
  return Object.hasOwn(object, key) ? object[key] : null;
}

function elementAt(value: unknown, args: readonly string[]): unknown {
  const key = args[0];
  if (args.length !== 1 || key === undefined || !/^-?\d+$/.test(key)) throw new RuleFailure(`at needs one integer index, got ${args.join(', ') || 'none'}`);
  const list = expectList(value, `at(${key})`);
  const index = Number(key) < 0 ? list.length + Number(key) : Number(key);
  if (index < 0 || index >= list.length) throw new RuleFailure(`at(${key}): index out of range for a list of ${list.length}`);
  return list[index];
}

// A sign counts only when it does not follow a word or a bracket (`03-2024`, `(1, 2)-(3, 4)`).
const numberPattern = /(?:(?<![\w)\]])[-+])?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?/g;

/** Every number written in a text; thousands separators (1,250) are removed. */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(numberPattern)].map((match) => Number(match[0].replace(/,/g, ''))).filter(Number.isFinite);
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  const text = expectString(value, 'number');
  const first = numbersIn(text)[0];
  if (first === undefined) throw new RuleFailure(`number: no number in ${describeValue(text)}`);
  return first;
}

function regexStep(value: unknown, args: readonly string[]): unknown {
  const [pattern, group] = args;
  if (pattern === undefined || args.length > 2) throw new RuleFailure('regex needs a pattern and at most a group');
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, 'i');
  } catch (error) {
    throw new RuleFailure(`regex: invalid pattern ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
  let match: RegExpExecArray | null;
  try {
    match = execWithTimeLimit(compiled, expectString(value, 'regex'));
  } catch (error) {
    if (error instanceof RegexTimeoutError) throw new RuleFailure(`regex(${pattern}): ${error.message}`);
    throw error;
  }
  if (!match) throw new RuleFailure(`regex(${pattern}): no match in ${describeValue(value)}`);
  const chosen = group !== undefined ? (/^\d+$/.test(group) ? match[Number(group)] : match.groups?.[group]) : match.length > 1 ? match[1] : match[0];
  if (chosen === undefined) throw new RuleFailure(`regex(${pattern}): group ${group ?? 1} did not take part in the match`);
  return chosen;
}

function noArgs(name: string, fn: (value: unknown) => unknown): RuleFunction {
  return (value, args) => {
    if (args.length > 0) throw new RuleFailure(`${name} takes no arguments`);
    return fn(value);
  };
}

/** An MCP-Universe function: its Python signature takes `*args`, so extra arguments are ignored. */
const ignoringArgs =
  (fn: (value: unknown) => unknown): RuleFunction =>
  (value) =>
    fn(value);

function sizeOf(value: unknown): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  return Object.keys(expectObject(value, 'size')).length;
}

export function builtinFunctions(): Map<string, RuleFunction> {
  return new Map<string, RuleFunction>([
    ['json', ignoringArgs(decodeJsonStrictly)],
    ['get', getKey],
    ['len', ignoringArgs((value) => expectList(value, 'len').length)],
    ['list', ignoringArgs((value) => [value])],
    ['find_json', noArgs('find_json', findJson)],
    ['at', elementAt],
    ['size', noArgs('size', sizeOf)],
    ['lower', noArgs('lower', (value) => expectString(value, 'lower').toLowerCase())],
    ['upper', noArgs('upper', (value) => expectString(value, 'upper').toUpperCase())],
    ['trim', noArgs('trim', (value) => expectString(value, 'trim').trim())],
    ['number', noArgs('number', toNumber)],
    ['numbers', noArgs('numbers', (value) => numbersIn(expectString(value, 'numbers')))],
    ['regex', regexStep],
    ['first', noArgs('first', (value) => elementAt(value, ['0']))],
    ['last', noArgs('last', (value) => elementAt(value, ['-1']))],
    ['sum', noArgs('sum', (value) => expectList(value, 'sum').reduce<number>((total, item) => total + toNumber(item), 0))],
    ['keys', noArgs('keys', (value) => Object.keys(expectObject(value, 'keys')))],
    ['values', noArgs('values', (value) => Object.values(expectObject(value, 'values')))],
  ]);
}
