// The built-in comparison operators of the rule evaluators: op(actual, value, op_args).
//
//   =  (also ==)  deep equality (JSON values; 15 and "15" differ: use `number` first)
//   !=            not deep-equal
//   < > <= >=     two numbers, or two strings (code-point order)
//   in            actual is an element of the list `value`, or a substring of the string `value`
//   contains      the list actual has an element deep-equal to `value`, the string actual holds
//                 the string `value`, or the object actual has the key `value`
//   approx        numbers (or equal-length lists of numbers) within a tolerance:
//                 op_args {"tolerance": 0.01} (absolute, default 1e-6), {"relative": 0.01}, or [0.01]
//
// More are added with RuleRegistry.registerOperator (registry.ts).
import { isDeepStrictEqual } from 'node:util';
import { describeValue, RuleFailure } from './functions.js';

export type RuleOperator = (actual: unknown, expected: unknown, opArgs: unknown) => boolean;

function ordered(name: string, test: (comparison: number) => boolean): RuleOperator {
  return (actual, expected) => {
    if (typeof actual === 'number' && typeof expected === 'number') return test(actual - expected);
    if (typeof actual === 'string' && typeof expected === 'string') return test(actual < expected ? -1 : actual > expected ? 1 : 0);
    throw new RuleFailure(`${name} compares two numbers or two strings, got ${describeValue(actual)} and ${describeValue(expected)}`);
  };
}

function within(actual: number, expected: number, tolerance: { absolute: number; relative: number | undefined }): boolean {
  const allowed = tolerance.relative !== undefined ? Math.abs(expected) * tolerance.relative : tolerance.absolute;
  return Math.abs(actual - expected) <= allowed + Number.EPSILON * Math.max(1, Math.abs(expected));
}

function parseTolerance(opArgs: unknown): { absolute: number; relative: number | undefined } {
  if (opArgs === undefined || opArgs === null) return { absolute: 1e-6, relative: undefined };
  if (Array.isArray(opArgs) && typeof opArgs[0] === 'number' && opArgs[0] >= 0) return { absolute: opArgs[0], relative: undefined };
  if (typeof opArgs === 'number' && opArgs >= 0) return { absolute: opArgs, relative: undefined };
  if (typeof opArgs === 'object' && !Array.isArray(opArgs)) {
    const { tolerance, relative } = opArgs as { tolerance?: unknown; relative?: unknown };
    const absolute = tolerance === undefined ? 1e-6 : tolerance;
    if (typeof absolute === 'number' && absolute >= 0 && (relative === undefined || (typeof relative === 'number' && relative >= 0))) {
      return { absolute, relative: relative as number | undefined };
    }
  }
  throw new RuleFailure(`approx: op_args must be {"tolerance": n}, {"relative": n} or [n] with n >= 0, got ${describeValue(opArgs)}`);
}

const approx: RuleOperator = (actual, expected, opArgs) => {
  const tolerance = parseTolerance(opArgs);
  if (typeof actual === 'number' && typeof expected === 'number') return within(actual, expected, tolerance);
  if (
    Array.isArray(actual) &&
    Array.isArray(expected) &&
    actual.every((item) => typeof item === 'number') &&
    expected.every((item) => typeof item === 'number')
  ) {
    return actual.length === expected.length && actual.every((item, index) => within(item as number, expected[index] as number, tolerance));
  }
  throw new RuleFailure(`approx compares numbers (or lists of numbers), got ${describeValue(actual)} and ${describeValue(expected)}`);
};

function memberOf(item: unknown, container: unknown, name: string): boolean {
  if (Array.isArray(container)) return container.some((element) => isDeepStrictEqual(element, item));
  if (typeof container === 'string' && typeof item === 'string') return container.includes(item);
  if (container && typeof container === 'object' && typeof item === 'string') return Object.hasOwn(container, item);
  throw new RuleFailure(`${name}: cannot look for ${describeValue(item)} in ${describeValue(container)}`);
}

export function builtinOperators(): Map<string, RuleOperator> {
  const equal: RuleOperator = (actual, expected) => isDeepStrictEqual(actual, expected);
  return new Map<string, RuleOperator>([
    ['=', equal],
    ['==', equal],
    ['!=', (actual, expected) => !isDeepStrictEqual(actual, expected)],
    ['<', ordered('<', (comparison) => comparison < 0)],
    ['>', ordered('>', (comparison) => comparison > 0)],
    ['<=', ordered('<=', (comparison) => comparison <= 0)],
    ['>=', ordered('>=', (comparison) => comparison >= 0)],
    ['in', (actual, expected) => memberOf(actual, expected, 'in')],
    ['contains', (actual, expected) => memberOf(expected, actual, 'contains')],
    ['approx', approx],
  ]);
}
