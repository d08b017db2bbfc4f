// The math MCP server as a real child process, through the SDK client: the tool surface matches
// the M3-Bench catalog, every tool computes the right value, and bad input gives clear errors.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataDir } from '../support/shared-assets.js';
import { connectInProcess } from '../support/in-process-servers.js';

// The numbers of the GT "statistic and purchase" tasks (math/mean, math/median, math/mode).
const surveyNumbers = [
  6, 3, 4, 4, 13, 17, 1, 7, 10, 6, 12, 3, 11, 7, 18, 2, 5, 10, 1, 17, 5, 1, 6, 16, 4, 19, 1, 3, 18, 11, 14, 7, 7, 19, 5, 2, 17, 10, 11, 11, 2, 12, 12, 9, 6, 18,
  19, 17, 17, 16,
];

let client: Client;
let tools: Tool[];

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join('\n');
  return { text, isError: result.isError === true };
}

async function value(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError, `${name} ${JSON.stringify(args)} → ${result.text}`).toBe(false);
  return result.text;
}

async function failure(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError, `${name} ${JSON.stringify(args)} should fail but returned ${result.text}`).toBe(true);
  return result.text;
}

beforeAll(async () => {
  client = (await connectInProcess('math')).client;
  tools = (await client.listTools()).tools;
});

afterAll(async () => {
  await client?.close();
});

/** The parts of a JSON Schema the catalog records: types, items, required, minItems. */
function essentials(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(essentials);
  if (schema === null || typeof schema !== 'object') return schema;
  const kept = Object.entries(schema as Record<string, unknown>).filter(([key]) => ['type', 'properties', 'items', 'required', 'minItems'].includes(key));
  return Object.fromEntries(
    kept.map(([key, item]) =>
      key === 'properties'
        ? [key, Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([name, prop]) => [name, essentials(prop)]))]
        : [key, essentials(item)],
    ),
  );
}

describe('math server tool surface', () => {
  it('lists the 22 reference tools with exact names', () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'add',
        'subtract',
        'multiply',
        'division',
        'sum',
        'modulo',
        'mean',
        'median',
        'mode',
        'min',
        'max',
        'floor',
        'ceiling',
        'round',
        'sin',
        'arcsin',
        'cos',
        'arccos',
        'tan',
        'arctan',
        'radiansToDegrees',
        'degreesToRadians',
      ].sort(),
    );
    for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(5);
  });

  it('keeps the reference argument names, including multiply.SecondNumber and minItems on sum/mean/median', () => {
    const byName = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
    expect(byName.get('multiply')?.required).toEqual(['firstNumber', 'SecondNumber']);
    expect(byName.get('subtract')?.required).toEqual(['minuend', 'subtrahend']);
    expect(essentials(byName.get('median'))).toEqual({
      type: 'object',
      properties: { numbers: { type: 'array', items: { type: 'number' }, minItems: 1 } },
      required: ['numbers'],
    });
    expect(essentials(byName.get('mode'))).toEqual({
      type: 'object',
      properties: { numbers: { type: 'array', items: { type: 'number' } } },
      required: ['numbers'],
    });
  });

  it('produces the same JSON Schemas as the M3-Bench tool catalog', (context) => {
    const dir = sharedDataDir();
    const catalogFile = dir ? path.join(dir, 'tools_catalog.json') : '';
    if (!dir || !existsSync(catalogFile)) {
      context.skip('tools_catalog.json not found under ../shared/data/m3bench');
      return;
    }
    const catalog = JSON.parse(readFileSync(catalogFile, 'utf8')) as { servers: { math: { tools: Record<string, { input_schema: unknown }> } } };
    const expected = catalog.servers.math.tools;
    expect(Object.keys(expected).sort()).toEqual(tools.map((tool) => tool.name).sort());
    for (const tool of tools) expect(essentials(tool.inputSchema), tool.name).toEqual(essentials(expected[tool.name]?.input_schema));
  });
});

describe('math server results', () => {
  it('does arithmetic on two numbers', async () => {
    expect(await value('add', { firstNumber: 2, secondNumber: 3 })).toBe('5');
    expect(await value('add', { firstNumber: 0.1, secondNumber: 0.2 })).toBe('0.30000000000000004');
    expect(await value('subtract', { minuend: 10, subtrahend: 14.5 })).toBe('-4.5');
    expect(await value('multiply', { firstNumber: 6, SecondNumber: 7 })).toBe('42');
    expect(await value('division', { numerator: 7, denominator: 2 })).toBe('3.5');
    expect(await value('modulo', { numerator: 17, denominator: 5 })).toBe('2');
    expect(await value('modulo', { numerator: -7, denominator: 3 })).toBe('-1');
  });

  it('aggregates lists (the GT survey numbers included)', async () => {
    expect(await value('sum', { numbers: [1, 2, 3.5] })).toBe('6.5');
    expect(await value('mean', { numbers: surveyNumbers })).toBe('9.44');
    expect(await value('median', { numbers: surveyNumbers })).toBe('9.5');
    expect(await value('median', { numbers: [5, 1, 3] })).toBe('3');
    expect(await value('median', { numbers: [4, 1, 3, 2] })).toBe('2.5');
    expect(await value('mode', { numbers: surveyNumbers })).toBe('Entries (17) appeared 5 times');
    expect(await value('mode', { numbers: [3, 1, 2, 2, 3] })).toBe('Entries (3, 2) appeared 2 times');
    expect(await value('min', { numbers: [4, -2.5, 9] })).toBe('-2.5');
    expect(await value('max', { numbers: [4, -2.5, 9] })).toBe('9');
    const long = Array.from({ length: 300_000 }, (_unused, index) => index % 1000);
    expect(await value('max', { numbers: long })).toBe('999');
  });

  it('rounds', async () => {
    expect(await value('floor', { number: -2.5 })).toBe('-3');
    expect(await value('ceiling', { number: 2.1 })).toBe('3');
    expect(await value('round', { number: 2.5 })).toBe('3');
    expect(await value('round', { number: 2.49 })).toBe('2');
  });

  it('does trigonometry in radians', async () => {
    expect(Number(await value('sin', { number: Math.PI / 2 }))).toBe(1);
    expect(Number(await value('cos', { number: 0 }))).toBe(1);
    expect(Number(await value('tan', { number: Math.PI / 4 }))).toBeCloseTo(1, 12);
    expect(await value('arcsin', { number: 1 })).toBe('1.5707963267948966');
    expect(await value('arccos', { number: -1 })).toBe('3.141592653589793');
    expect(await value('arctan', { number: 1 })).toBe('0.7853981633974483');
    expect(await value('radiansToDegrees', { number: Math.PI })).toBe('180');
    expect(await value('degreesToRadians', { number: 180 })).toBe('3.141592653589793');
  });
});

describe('math server errors', () => {
  it('refuses division and modulo by zero', async () => {
    expect(await failure('division', { numerator: 1, denominator: 0 })).toContain('cannot divide by zero');
    expect(await failure('modulo', { numerator: 1, denominator: 0 })).toContain('modulo zero');
  });

  it('refuses inputs outside the domain of arcsin/arccos', async () => {
    expect(await failure('arcsin', { number: 2 })).toContain('arcsin: input 2 is outside the domain [-1, 1]');
    expect(await failure('arccos', { number: -1.5 })).toContain('outside the domain [-1, 1]');
  });

  it('refuses empty lists with a message naming the argument', async () => {
    expect(await failure('mode', { numbers: [] })).toContain('mode: "numbers" is empty');
    expect(await failure('min', { numbers: [] })).toContain('"numbers" is empty');
    expect(await failure('max', { numbers: [] })).toContain('"numbers" is empty');
    expect(await failure('median', { numbers: [] })).toMatch(/Input validation error.*>=1 items/s);
    expect(await failure('sum', { numbers: [] })).toMatch(/Input validation error/);
  });

  it('refuses non-numbers, missing and misspelled arguments', async () => {
    expect(await failure('mean', { numbers: '1, 2, 3' })).toMatch(/Input validation error.*expected array/s);
    expect(await failure('sum', { numbers: [1, 'two', 3] })).toMatch(/expected number, received string/);
    expect(await failure('add', { firstNumber: 1 })).toMatch(/secondNumber/);
    expect(await failure('multiply', { firstNumber: 2, secondNumber: 3 })).toMatch(/SecondNumber/);
    expect(await failure('floor', { number: '2.5' })).toMatch(/expected number/);
  });

  it('refuses results that overflow to infinity', async () => {
    expect(await failure('multiply', { firstNumber: 1e308, SecondNumber: 10 })).toContain('multiply: the result is not a finite number');
  });
});
