// The built-in pipeline functions of the rule evaluators. Each takes the current value and the
// step's text arguments and returns the next value, or throws RuleFailure with a reason (a
// failed check, never a crash). `foreach` is not here: it is structural (evaluate.ts applies the
// rest of the pipeline to every element), as in MCP-Universe.
//
//   json          decode JSON text; code fences and text around one JSON value are ignored
//   get(key)      value of an object key; on a list, an index (negative counts from the end)
//   len           length of a list or string, number of keys of an object
//   lower, upper, trim   string case and surrounding whitespace
//   number        a number as is, or the first number in a text ("1,250.00 EUR" -> 1250)
//   numbers       every number in a text, as a list
//   regex(p[, g]) first match of the pattern p (case-insensitive); group g (default: group 1
//                 when the pattern has one, else the whole match)
//   first, last   first / last element of a list
//   sum           sum of a list of numbers
//   keys, values  of an object
export class RuleFailure extends Error {}

export type RuleFunction = (value: unknown, args: readonly string[]) => unknown;

export function describeValue(value: unknown, max = 120): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…` : text;
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

function decodeJson(value: unknown): unknown {
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
  throw new RuleFailure(`json: the text is not JSON: ${describeValue(value)}`);
}

function getKey(value: unknown, args: readonly string[]): unknown {
  const key = args[0];
  if (args.length !== 1 || key === undefined) throw new RuleFailure(`get needs exactly one key, got ${args.length}`);
  if (Array.isArray(value)) {
    if (!/^-?\d+$/.test(key)) throw new RuleFailure(`get(${key}): a list needs an integer index`);
    const index = Number(key) < 0 ? value.length + Number(key) : Number(key);
    if (index < 0 || index >= value.length) throw new RuleFailure(`get(${key}): index out of range for a list of ${value.length}`);
    return value[index];
  }
  const object = expectObject(value, `get(${key})`);
  if (!Object.hasOwn(object, key)) {
    throw new RuleFailure(`get(${key}): no key "${key}" (keys: ${Object.keys(object).slice(0, 12).join(', ') || 'none'})`);
  }
  return object[key];
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
  const match = compiled.exec(expectString(value, 'regex'));
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

export function builtinFunctions(): Map<string, RuleFunction> {
  return new Map<string, RuleFunction>([
    ['json', noArgs('json', decodeJson)],
    ['get', getKey],
    ['len', noArgs('len', (value) => (typeof value === 'string' || Array.isArray(value) ? value.length : Object.keys(expectObject(value, 'len')).length))],
    ['lower', noArgs('lower', (value) => expectString(value, 'lower').toLowerCase())],
    ['upper', noArgs('upper', (value) => expectString(value, 'upper').toUpperCase())],
    ['trim', noArgs('trim', (value) => expectString(value, 'trim').trim())],
    ['number', noArgs('number', toNumber)],
    ['numbers', noArgs('numbers', (value) => numbersIn(expectString(value, 'numbers')))],
    ['regex', regexStep],
    ['first', noArgs('first', (value) => getKey(expectList(value, 'first'), ['0']))],
    ['last', noArgs('last', (value) => getKey(expectList(value, 'last'), ['-1']))],
    ['sum', noArgs('sum', (value) => expectList(value, 'sum').reduce<number>((total, item) => total + toNumber(item), 0))],
    ['keys', noArgs('keys', (value) => Object.keys(expectObject(value, 'keys')))],
    ['values', noArgs('values', (value) => Object.values(expectObject(value, 'values')))],
  ]);
}
