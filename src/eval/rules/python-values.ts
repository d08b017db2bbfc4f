// Python's equality, ordering and membership on JSON values, as MCP-Universe's operators rely
// on them (its `=` is Python `a == b`, its `<` is Python `a < b`, its `in` / `contain` are Python
// `a in b`). JSON values only: numbers and booleans compare as numbers (`True == 1`), strings
// by code point, lists in order, objects by equal key sets; anything Python would refuse to order
// (`None < 1`, `{} < {}`, `"2" < 3`) throws PythonTypeError, which the evaluator records as a
// failed check, as MCP-Universe's "Execution error" does.
export class PythonTypeError extends Error {}

/** Python's type name of a JSON value, for the same messages Python gives. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

const isNumeric = (value: unknown): value is number | boolean => typeof value === 'number' || typeof value === 'boolean';

/** Python `a == b` on JSON values. */
export function pythonEqual(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => pythonEqual(item, b[index]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = Object.keys(left);
    return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && pythonEqual(left[key], right[key]));
  }
  return false;
}

/** Code-point order (Python's), not UTF-16 order (JavaScript's `<`). */
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = (left[index]?.codePointAt(0) ?? 0) - (right[index]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/**
 * Negative, zero or positive as Python orders a and b (NaN when a number is NaN: every test is
 * then false, as in Python). Lists: the first pair that is not equal decides, else the length.
 */
export function pythonCompare(a: unknown, b: unknown, operator: string): number {
  if (isNumeric(a) && isNumeric(b)) return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
      if (!pythonEqual(a[index], b[index])) return pythonCompare(a[index], b[index], operator);
    }
    return a.length - b.length;
  }
  throw new PythonTypeError(`'${operator}' not supported between instances of '${pythonTypeName(a)}' and '${pythonTypeName(b)}'`);
}

/** Python `item in container` for a str or list container (MCP-Universe refuses other containers before this). */
export function pythonIn(item: unknown, container: string | readonly unknown[]): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new PythonTypeError(`'in <string>' requires string as left operand, not ${pythonTypeName(item)}`);
    return container.includes(item);
  }
  return container.some((element) => pythonEqual(element, item));
}
