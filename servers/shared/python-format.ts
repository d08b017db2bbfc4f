// How the Python reference servers printed values, for the servers that answer with the text a
// Python `str()`, `repr()` or `json.dumps()` produced there. JSON numbers keep the int/float
// distinction Python's `json.loads` makes (a literal with a fraction or exponent is a float), so
// bodies whose numbers are printed back are parsed with lossless-json.
import { isLosslessNumber, parse as parseLossless, type LosslessNumber } from 'lossless-json';

/** `repr(float)`: shortest round-trip digits, ".0" for whole numbers, exponent below 1e-4 and from 1e16. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  const positional = String(value);
  return /[.e]/.test(positional) ? positional : `${positional}.0`;
}

/** How Python prints a JSON number literal after json.loads: int as is, float through repr. */
export function pythonNumberText(literal: string): string {
  return /[.eE]/.test(literal) ? pythonFloatRepr(Number(literal)) : String(BigInt(literal));
}

/** `repr(str)`: single quotes unless the text has a single quote and no double quote. */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\') out += '\\\\';
    else if (char === quote) out += `\\${quote}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}

/** `repr(list_of_str)`, e.g. "['a', 'b']". */
export function pythonStrListRepr(items: readonly string[]): string {
  return `[${items.map(pythonStrRepr).join(', ')}]`;
}

/** Parses JSON keeping each number's literal (LosslessNumber), as Python's json.loads keeps int vs float. */
export function parseJsonKeepingNumbers(text: string): unknown {
  return parseLossless(text);
}

export function isJsonNumber(value: unknown): value is LosslessNumber {
  return isLosslessNumber(value);
}

/**
 * A JSON string as Python's json (ensure_ascii) writes it; `escapeSlash` adds pandas' "\/".
 */
export function asciiJsonString(text: string, escapeSlash = false): string {
  let out = '"';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    const code = text.charCodeAt(index);
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '/' && escapeSlash) out += '\\/';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\b') out += '\\b';
    else if (char === '\f') out += '\\f';
    // ensure_ascii: every other code unit outside printable ASCII as \uXXXX (UTF-16, so astral
    // characters become surrogate pairs exactly as Python writes them).
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** A value Python held as a float even when it is whole (json.dumps prints 5.0, not 5). */
export class PythonFloat {
  constructor(readonly value: number) {}
}

/**
 * `json.dumps(value)` with Python's defaults: ", " and ": " separators, ensure_ascii, floats
 * through repr (NaN, Infinity). Numbers parsed with parseJsonKeepingNumbers keep int vs float;
 * a plain JS number prints as an int when whole (use it only for values Python held as ints).
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (isLosslessNumber(value)) return pythonNumberText(value.value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof PythonFloat) return Number.isFinite(value.value) ? pythonFloatRepr(value.value) : Number.isNaN(value.value) ? 'NaN' : value.value > 0 ? 'Infinity' : '-Infinity';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return Number.isInteger(value) ? String(value) : pythonFloatRepr(value);
  }
  if (typeof value === 'string') return asciiJsonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${asciiJsonString(key)}: ${pythonJsonDumps(item)}`)
      .join(', ')}}`;
  }
  return asciiJsonString(String(value));
}
