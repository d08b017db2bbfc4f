// How a Python (FastMCP) reference server turns upstream JSON into the text a model sees, for
// our servers that must show the same text: `str()` / `repr()` of parsed JSON values (what an
// f-string prints), Python truthiness, code-point slicing, and the JSON FastMCP sends for a
// returned dict (`pydantic_core.to_json(result, indent=2)`).
//
// Upstream bodies are parsed with lossless-json (`parseLosslessJson`), so a number keeps its
// source text and prints as Python would after `json.loads`: `643.0` stays `643.0`, `12` stays
// `12`. Plain JS numbers print as ints when they are safe integers and as Python floats
// otherwise; wrap a value in `pythonFloat()` when the reference computed a float (`float(x)`).
// Known difference: floats below 1e-4 or from 1e16 up print in Python's `repr` exponent form
// (`1e-05`), where pydantic's JSON writes `1e-5`.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import { formatPythonFloat, formatPythonNumberText, parseLosslessJson } from '../../src/core/json-numbers.js';
import { textResult } from './tool-result.js';

export { parseLosslessJson };

/** A JSON number parsed with `parseLosslessJson` (keeps its literal, so int vs float). */
export function isJsonNumber(value: unknown): value is LosslessNumber {
  return isLosslessNumber(value);
}

/** A value Python held as a float even when it is whole (prints 5.0, not 5). */
export class PythonFloat {
  constructor(readonly value: number) {}
}

/** Python `repr(float)` (`nan`, `inf` as repr prints them; JSON writers use formatPythonFloat's `NaN`). */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return formatPythonFloat(value);
}

/** How Python prints a JSON number literal after json.loads: int as is, float through repr. */
export const pythonNumberText = formatPythonNumberText;

/** A number printed as a Python float (`5` → `5.0`). */
export function pythonFloat(value: number): LosslessNumber {
  return new LosslessNumber(formatPythonFloat(value));
}

function formatNumber(value: unknown): string | undefined {
  if (value instanceof PythonFloat) return formatPythonFloat(value.value);
  if (isLosslessNumber(value)) return formatPythonNumberText((value as LosslessNumber).value);
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : formatPythonFloat(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/** The numeric value of a parsed JSON number (lossless or plain); undefined for anything else. */
export function numberValue(value: unknown): number | undefined {
  if (isLosslessNumber(value)) return Number((value as LosslessNumber).value);
  return typeof value === 'number' ? value : undefined;
}

// Python's str.isprintable() is false for these (space excepted): repr() escapes them.
const nonPrintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function escapeCodePoint(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Python `repr(str)`: single quotes unless the text has a `'` and no `"`. */
function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char !== ' ' && nonPrintable.test(char)) out += escapeCodePoint(char.codePointAt(0) ?? 0);
    else out += char;
  }
  return out + quote;
}

/** Python `repr()` of a parsed JSON value (dicts as `{'k': v}`, `None`, `True`). */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return pythonStringRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  const number = formatNumber(value);
  if (number !== undefined) return number;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => `${pythonStringRepr(key)}: ${pythonRepr(item)}`);
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

/** Python `str()` of a parsed JSON value: what `f"{value}"` prints. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python truthiness of a parsed JSON value (`[]`, `{}`, `""`, `0`, `None`, `False` are falsy). */
export function pythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '') return false;
  const number = numberValue(value);
  if (number !== undefined) return number !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value as object).length > 0;
  return true;
}

/** `dict.get(key, default)` on a parsed JSON value: the default only when the key is absent. */
export function pythonGet(record: unknown, key: string, fallback: unknown = null): unknown {
  if (!record || typeof record !== 'object' || Array.isArray(record) || !Object.hasOwn(record, key)) return fallback;
  return (record as Record<string, unknown>)[key];
}

/** `len(text)` and `text[:n]` count code points, not UTF-16 units. */
export function pythonLength(text: string): number {
  return Array.from(text).length;
}

export function pythonSlice(text: string, end: number): string {
  return Array.from(text).slice(0, end).join('');
}

/** The text FastMCP sends for a returned dict or list: `pydantic_core.to_json(value, indent=2)`. */
export function toPythonJson(value: unknown, indent = 2, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const number = formatNumber(value);
  if (number !== undefined) return number;
  const pad = ' '.repeat(indent * (depth + 1));
  const close = ' '.repeat(indent * depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => pad + toPythonJson(item, indent, depth + 1)).join(',\n')}\n${close}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([key, item]) => `${pad}${JSON.stringify(key)}: ${toPythonJson(item, indent, depth + 1)}`).join(',\n')}\n${close}}`;
  }
  return JSON.stringify(String(value));
}

// The characters Python's str.isspace() accepts (str.strip() removes them); JS's trim() differs
// on \x1c-\x1f and \x85 (Python strips them) and \ufeff (Python keeps it).
const pythonSpace = '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const pythonEdgeSpace = new RegExp(`^${pythonSpace}+|${pythonSpace}+$`, 'g');
const pythonSpaceRun = new RegExp(`${pythonSpace}+`);

/** Python `text.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(pythonEdgeSpace, '');
}

/** Python `text.split()` (no separator: runs of whitespace, no empty parts). */
export function pythonSplitWords(text: string): string[] {
  return pythonStrip(text)
    .split(pythonSpaceRun)
    .filter((part) => part !== '');
}

/** Python `f"{n:,}"` for an integer. */
export function pythonThousands(value: number): string {
  return Math.trunc(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A JSON string as Python's json writes it; with `ensureAscii` (Python's default) every code unit
 * outside printable ASCII as \uXXXX (astral characters as surrogate pairs, as Python writes
 * them); `escapeSlash` adds pandas' "\/".
 */
export function asciiJsonString(text: string, escapeSlash = false, ensureAscii = true): string {
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
    else if (code < 0x20 || (ensureAscii && code > 0x7e)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * `json.dumps(value)`: ", " and ": " separators, floats through repr (NaN, Infinity), ensure_ascii
 * unless `ensureAscii: false`. Lossless numbers keep int vs float; a plain JS number prints as an
 * int when whole (wrap it in PythonFloat when Python held a float).
 */
export function pythonJsonDumps(value: unknown, options: { ensureAscii?: boolean } = {}): string {
  const ascii = options.ensureAscii ?? true;
  const dump = (item: unknown): string => {
    if (item === null || item === undefined) return 'null';
    if (item === true) return 'true';
    if (item === false) return 'false';
    const number = formatNumber(item);
    if (number !== undefined) return number;
    if (typeof item === 'string') return asciiJsonString(item, false, ascii);
    if (Array.isArray(item)) return `[${item.map(dump).join(', ')}]`;
    if (typeof item === 'object') {
      return `{${Object.entries(item as Record<string, unknown>)
        .filter(([, entry]) => entry !== undefined)
        .map(([key, entry]) => `${asciiJsonString(key, false, ascii)}: ${dump(entry)}`)
        .join(', ')}}`;
    }
    return asciiJsonString(String(item), false, ascii);
  };
  return dump(value);
}

/** A FastMCP answer for a returned dict: one text part with `toPythonJson(payload)` (plus images). */
export function fastMcpJsonResult(payload: unknown, images: Array<{ data: Buffer; mimeType: string }> = []): CallToolResult {
  return textResult(toPythonJson(payload), images);
}
