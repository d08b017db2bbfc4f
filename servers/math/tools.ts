// The 22 tools of the reference math-mcp server (EthanHenrickson/math-mcp, as vendored by
// M3-Bench): exact names and argument names (including `multiply`'s `SecondNumber`), schemas
// that produce the same JSON Schema (types, required, minItems), and results as plain text
// (`${value}`; mode as "Entries (a, b) appeared n times").
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { guarded } from '../shared/tool-result.js';
import * as math from './math-functions.js';

type Shape = Record<string, z.ZodType>;

interface MathTool {
  name: string;
  description: string;
  shape: Shape;
  /** Returns the result text; throws MathInputError for invalid input. */
  run: (args: Record<string, unknown>) => string;
}

const numberList = (what: string) => z.array(z.number()).describe(what);
const nonEmptyList = (what: string) => z.array(z.number()).min(1).describe(what);
const single = (what: string) => ({ number: z.number().describe(what) });

function num(args: Record<string, unknown>, key: string): number {
  return args[key] as number;
}

function list(args: Record<string, unknown>): number[] {
  return args.numbers as number[];
}

/** A one-number tool whose result is `fn(number)`. */
function unary(name: string, description: string, what: string, fn: (value: number) => number): MathTool {
  return { name, description, shape: single(what), run: (args) => `${math.requireFinite(fn(num(args, 'number')), name)}` };
}

/** A list tool whose result is `fn(numbers)`. */
function aggregate(name: string, description: string, shape: Shape, fn: (numbers: number[]) => number): MathTool {
  return { name, description, shape, run: (args) => `${math.requireFinite(fn(list(args)), name)}` };
}

const mathTools: MathTool[] = [
  {
    name: 'add',
    description: 'Adds two numbers together',
    shape: { firstNumber: z.number().describe('The first addend'), secondNumber: z.number().describe('The second addend') },
    run: (args) => `${math.requireFinite(num(args, 'firstNumber') + num(args, 'secondNumber'), 'add')}`,
  },
  {
    name: 'subtract',
    description: 'Subtracts the second number from the first number',
    shape: {
      minuend: z.number().describe('The number to subtract from (minuend)'),
      subtrahend: z.number().describe('The number being subtracted (subtrahend)'),
    },
    run: (args) => `${math.requireFinite(num(args, 'minuend') - num(args, 'subtrahend'), 'subtract')}`,
  },
  {
    name: 'multiply',
    description: 'Multiplies two numbers together',
    shape: { firstNumber: z.number().describe('The first number'), SecondNumber: z.number().describe('The second number') },
    run: (args) => `${math.requireFinite(num(args, 'firstNumber') * num(args, 'SecondNumber'), 'multiply')}`,
  },
  {
    name: 'division',
    description: 'Divides the first number by the second number',
    shape: {
      numerator: z.number().describe('The number being divided (numerator)'),
      denominator: z.number().describe('The number to divide by (denominator)'),
    },
    run: (args) => `${math.requireFinite(math.divide(num(args, 'numerator'), num(args, 'denominator')), 'division')}`,
  },
  aggregate('sum', 'Adds any number of numbers together', { numbers: nonEmptyList('Array of numbers to sum') }, math.sum),
  {
    name: 'modulo',
    description: 'Divides two numbers and returns the remainder',
    shape: {
      numerator: z.number().describe('The number being divided (numerator)'),
      denominator: z.number().describe('The number to divide by (denominator)'),
    },
    run: (args) => `${math.modulo(num(args, 'numerator'), num(args, 'denominator'))}`,
  },
  aggregate('mean', 'Calculates the arithmetic mean of a list of numbers', { numbers: nonEmptyList('Array of numbers to find the mean of') }, math.mean),
  aggregate('median', 'Calculates the median of a list of numbers', { numbers: nonEmptyList('Array of numbers to find the median of') }, math.median),
  {
    name: 'mode',
    description: 'Finds the most common number(s) in a list of numbers',
    shape: { numbers: numberList('Array of numbers to find the mode of') },
    run: (args) => {
      const result = math.mode(list(args));
      return `Entries (${result.modes.join(', ')}) appeared ${result.frequency} times`;
    },
  },
  aggregate('min', 'Finds the minimum value from a list of numbers', { numbers: numberList('Array of numbers to find the minimum of') }, math.min),
  aggregate('max', 'Finds the maximum value from a list of numbers', { numbers: numberList('Array of numbers to find the maximum of') }, math.max),
  unary('floor', 'Rounds a number down to the nearest integer', 'The number to round down', Math.floor),
  unary('ceiling', 'Rounds a number up to the nearest integer', 'The number to round up', Math.ceil),
  unary('round', 'Rounds a number to the nearest integer (halves round up)', 'The number to round', Math.round),
  unary('sin', 'Calculates the sine of a number in radians', 'The angle in radians', Math.sin),
  unary('arcsin', 'Calculates the arcsine of a number in radians', 'A value between -1 and 1', math.arcsin),
  unary('cos', 'Calculates the cosine of a number in radians', 'The angle in radians', Math.cos),
  unary('arccos', 'Calculates the arccosine of a number in radians', 'A value between -1 and 1', math.arccos),
  unary('tan', 'Calculates the tangent of a number in radians', 'The angle in radians', Math.tan),
  unary('arctan', 'Calculates the arctangent of a number in radians', 'The value', Math.atan),
  unary('radiansToDegrees', 'Converts a radian value to its equivalent in degrees', 'The angle in radians', math.radiansToDegrees),
  unary('degreesToRadians', 'Converts a degree value to its equivalent in radians', 'The angle in degrees', math.degreesToRadians),
];

export function registerMathTools(server: McpServer): void {
  for (const tool of mathTools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.shape }, async (args: Record<string, unknown>) =>
      guarded(async (): Promise<CallToolResult> => ({ content: [{ type: 'text', text: tool.run(args) }] })),
    );
  }
}
