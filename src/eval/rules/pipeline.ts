// The `func` text of an MCP-Universe evaluator as a list of steps: `json -> get(x) -> foreach ->
// get(y) -> len`. A step is a name with optional arguments in parentheses; an argument is bare
// text (trimmed, parentheses inside must balance) or a quoted string ("..." with JSON escapes, or
// '...'), so a regular expression holding `,`, `)` or `->` is written quoted (quoting is m3bench's:
// MCP-Universe takes the text up to the first `)` and splits it at commas, keeping quotes):
// `regex("TOTAL ([0-9.]+)")`. An empty func is the identity (the raw target text).
export interface PipelineStep {
  name: string;
  args: string[];
  /** The step as written, for reasons. */
  text: string;
}

export class RuleSyntaxError extends Error {}

/** Index of the quote that closes the string opening at `start`, or -1. */
function closingQuote(text: string, start: number): number {
  const quote = text[start];
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === quote) return index;
  }
  return -1;
}

/** Splits `text` at `separator` wherever it is outside quotes and parentheses. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === '"' || char === "'") {
      const end = closingQuote(text, index);
      if (end < 0) throw new RuleSyntaxError(`unterminated ${char} string in ${JSON.stringify(text)}`);
      index = end;
    } else if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth < 0) throw new RuleSyntaxError(`unbalanced ")" in ${JSON.stringify(text)}`);
    } else if (depth === 0 && text.startsWith(separator, index)) {
      parts.push(text.slice(start, index));
      start = index + separator.length;
      index = start - 1;
    }
  }
  if (depth !== 0) throw new RuleSyntaxError(`unbalanced "(" in ${JSON.stringify(text)}`);
  parts.push(text.slice(start));
  return parts;
}

function unquote(raw: string): string {
  const text = raw.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new RuleSyntaxError(`argument ${text} is not a valid double-quoted string`);
    }
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replace(/\\'/g, "'");
  return text;
}

function parseStep(raw: string): PipelineStep {
  const text = raw.trim();
  const match = /^([A-Za-z_][\w.-]*)\s*(?:\(([\s\S]*)\))?$/.exec(text);
  if (!match?.[1]) throw new RuleSyntaxError(`step ${JSON.stringify(text)} is not name or name(arguments)`);
  const inner = match[2];
  const args = inner === undefined || inner.trim() === '' ? [] : splitTopLevel(inner, ',').map(unquote);
  return { name: match[1], args, text };
}

/** Parses a func text into steps; throws RuleSyntaxError with the offending part. */
export function parsePipeline(func: string): PipelineStep[] {
  if (func.trim() === '') return [];
  // MCP-Universe's _parse_func drops empty parts (`json -> -> len` is `json -> len`).
  return splitTopLevel(func, '->')
    .filter((part) => part.trim() !== '')
    .map(parseStep);
}
