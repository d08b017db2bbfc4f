// JSON numbers the way the reference writes them. Python reads `2.0` as a float and writes it
// back as `2.0` (and `40.50` as `40.5`, `1e-5` as `1e-05`); JavaScript has one number type, so a
// model's `{"a": 2.0}` would be recorded as `{"a": 2}` and every text similarity computed from it
// would differ from the reference's. A number the source wrote as a float is therefore carried as
// a `JsonFloat` from the model's argument text to the prediction file, where it is written as
// Python's `repr` writes it. Everywhere else (MCP calls, schema checks, the store) it is an
// ordinary number: `toJSON` gives the plain value.
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';

/**
 * A number its JSON source wrote as a float (`2.0`, `40.50`, `1e3`).
 * @internal Exported for its tests.
 */
export class JsonFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
  valueOf(): number {
    return this.value;
  }
}

/** Python `repr(float)` for a double: shortest round-trip digits, exponent form outside [1e-4, 1e16). */
export function formatPythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(value.toExponential());
  if (!match) throw new Error(`cannot format ${value} as a Python float`);
  const [, sign = '', lead = '', rest = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const mantissa = rest === '' ? lead : `${lead}.${rest}`;
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  const digits = lead + rest;
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.padEnd(exponent + 1, '0').slice(0, exponent + 1);
  const fraction = digits.slice(exponent + 1);
  return `${sign}${integerPart}.${fraction === '' ? '0' : fraction}`;
}

/** What Python's `json.loads` + `json.dumps` make of a JSON number literal. */
export function formatPythonNumberText(text: string): string {
  if (!/[.eE]/.test(text)) return BigInt(text).toString();
  return formatPythonFloat(Number(text));
}

/** Parses JSON keeping number text; duplicate keys keep the last value, as Python does. */
export function parseLosslessJson(text: string): unknown {
  return parseLossless(text, null, { onDuplicateKey: ({ newValue }) => newValue });
}

/**
 * Parses JSON text; numbers written with `.`, `e` or `E` become JsonFloat, the others plain
 * numbers. Duplicate keys keep the last value, as JSON.parse and Python do.
 */
export function parseJsonKeepingFloats(text: string): unknown {
  return parseLossless(text, null, {
    parseNumber: (number) => {
      const value = Number(number);
      return /[.eE]/.test(number) && Number.isFinite(value) ? new JsonFloat(value) : value;
    },
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

export function containsFloats(value: unknown): boolean {
  if (value instanceof JsonFloat) return true;
  if (Array.isArray(value)) return value.some(containsFloats);
  if (value && typeof value === 'object') return Object.values(value).some(containsFloats);
  return false;
}

/** JSON.stringify, except that a JsonFloat is written as Python writes a float (`2.0`). */
export function stringifyKeepingFloats(value: unknown, space?: number): string {
  const text = stringifyLossless(value, undefined, space, [
    { test: (item) => item instanceof JsonFloat, stringify: (item) => formatPythonFloat((item as JsonFloat).value) },
  ]);
  return text ?? 'null';
}
