// Call-argument serialisation for the step evaluator: byte-identical to Python's
// `json.dumps(args, sort_keys=True, separators=(',', ':'), ensure_ascii=False)`, so the texts we
// embed (and the embedding-cache keys) are the reference's texts.
//
// Numbers are the delicate part. Files are parsed with lossless-json, so every number arrives
// as its source text (`LosslessNumber`); Python's `json.loads` turns text without `.`/`e`/`E` into an
// int (printed exactly, any size) and everything else into a float printed with `repr`
// (`2.0`, `1e-05`, `1e+16`, `0.0001`). Plain JS numbers (values built in memory, e.g. by the
// perturbation module) are printed as ints when they are safe integers and as Python floats
// otherwise: a plain `2` cannot remember whether its source said `2` or `2.0`.
//
// Known, documented difference: a lone UTF-16 surrogate in a string is escaped as `\udXXX` (as
// JSON.stringify does); Python would emit it raw and then fail to encode the text as UTF-8.
import { isLosslessNumber, type LosslessNumber } from 'lossless-json';
import { formatPythonFloat, formatPythonNumberText, parseLosslessJson } from '../../core/json-numbers.js';

// Python's float repr and the lossless parse live with the JSON number model in src/core (our
// web servers use them too); re-exported for the evaluator's callers.
export { formatPythonFloat, parseLosslessJson };

function formatJsNumber(value: number): string {
  if (Number.isSafeInteger(value)) return String(value === 0 ? 0 : value);
  return formatPythonFloat(value);
}

/**
 * Orders strings by Unicode code point (Python's `sort_keys`), not by UTF-16 code unit (JS's
 * default): surrogates are shifted above U+E000–U+FFFF so astral characters sort last.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left !== right) return codeUnitRank(left) - codeUnitRank(right);
  }
  return a.length - b.length;
}

function codeUnitRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Canonical Python-compatible JSON text of an arguments value; `undefined` (missing) → `null`. */
export function serializeArguments(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return formatJsNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (isLosslessNumber(value)) return formatPythonNumberText((value as LosslessNumber).value);
  if (Array.isArray(value)) return `[${value.map((item) => serializeArguments(item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => compareCodePoints(left, right));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${serializeArguments(item)}`).join(',')}}`;
  }
  // Functions and symbols cannot come from JSON; Python falls back to str(), so do we.
  return JSON.stringify(String(value));
}
