// The built-in comparison operators of the rule evaluators: op(actual, value, op_args).
//
// MCP-Universe's operators (mcpuniverse/evaluator/functions.py), with Python's semantics
// (python-values.ts):
//   =             Python `actual == value` (true = 1, 2 = 2.0, objects by keys, lists in order)
//   < > <= >=     Python ordering: numbers, strings by code point, lists element by element;
//                 other pairs (null, objects, a string against a number) fail the check
//   in            Python `actual in value`; value must be a string or a list
//   contain       Python `value in actual`; actual must be a string or a list
//   "" (no op)    passes whatever the func produced (only a func that fails fails)
//
// m3bench's own, under names MCP-Universe does not use:
//   ==, !=        as = and its negation
//   contains      as contain, and an object actual holds the key `value`
//   approx        numbers (or equal-length lists of numbers) within a tolerance:
//                 op_args {"tolerance": 0.01} (absolute, default 1e-6), {"relative": 0.01}, or [0.01]
//
// More are added with RuleRegistry.registerOperator (evaluate.ts).
import { describeValue, RuleFailure } from './functions.js';
import { pythonCompare, pythonEqual, pythonIn, pythonTypeName } from './python-values.js';

export type RuleOperator = (actual: unknown, expected: unknown, opArgs: unknown) => boolean;

function ordered(name: string, test: (comparison: number) => boolean): RuleOperator {
  return (actual, expected) => test(pythonCompare(actual, expected, name));
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

/** Python `item in container`, refusing a container that is not a string or a list as MCP-Universe does. */
function memberOf(item: unknown, container: unknown, name: string, side: string): boolean {
  if (typeof container === 'string' || Array.isArray(container)) return pythonIn(item, container);
  throw new RuleFailure(`${name}: the ${side} must be a list or a string, got ${pythonTypeName(container)} ${describeValue(container)}`);
}

const containsOrKey: RuleOperator = (actual, expected) => {
  if (actual && typeof actual === 'object' && !Array.isArray(actual) && typeof expected === 'string') return Object.hasOwn(actual, expected);
  return memberOf(expected, actual, 'contains', 'output');
};

export function builtinOperators(): Map<string, RuleOperator> {
  return new Map<string, RuleOperator>([
    ['', () => true],
    ['=', pythonEqual],
    ['==', pythonEqual],
    ['!=', (actual, expected) => !pythonEqual(actual, expected)],
    ['<', ordered('<', (comparison) => comparison < 0)],
    ['>', ordered('>', (comparison) => comparison > 0)],
    ['<=', ordered('<=', (comparison) => comparison <= 0)],
    ['>=', ordered('>=', (comparison) => comparison >= 0)],
    ['in', (actual, expected) => memberOf(actual, expected, 'in', 'value')],
    ['contain', (actual, expected) => memberOf(expected, actual, 'contain', 'output')],
    ['contains', containsOrKey],
    ['approx', approx],
  ]);
}
