// Canonical `server/tool` ↔ provider function names: legal alphabet, length, uniqueness,
// stability, and exact round trips for awkward names.
import { describe, expect, it } from 'vitest';
import { FunctionNameTable, isValidFunctionName, maxFunctionNameLength, toBaseFunctionName } from '../../src/mcp/function-names.js';

const awkward = [
  'math/add',
  'dinox-mcp/detect-all-objects',
  'google.maps/search places',
  'wiki/résumé',
  'ocr/读取文字',
  'emoji/🚀launch',
  'a.b/c',
  'a_b/c',
  'a b/c',
  'x/y/z',
  `long-server-name/${'very_long_tool_name_'.repeat(6)}`,
  `long-server-name/${'very_long_tool_name_'.repeat(6)}2`,
  'Case/Tool',
  'case/tool',
  '3d-scanner/scan',
  '-dash/tool',
  `9${'x'.repeat(70)}/tool`,
];

describe('toBaseFunctionName', () => {
  it('joins server and tool with a double underscore and replaces illegal characters', () => {
    expect(toBaseFunctionName('math/add')).toBe('math__add');
    expect(toBaseFunctionName('dinox-mcp/detect-all-objects')).toBe('dinox-mcp__detect-all-objects');
    expect(toBaseFunctionName('google.maps/search places')).toBe('google_maps__search_places');
    expect(toBaseFunctionName('wiki/résumé')).toBe('wiki__r_sum_');
    expect(toBaseFunctionName('emoji/🚀launch')).toBe('emoji___launch');
    expect(toBaseFunctionName('x/y/z')).toBe('x__y_z');
  });

  it('starts every name with a letter or an underscore (Gemini refuses a leading digit or dash)', () => {
    expect(toBaseFunctionName('3d-scanner/scan')).toBe('_3d-scanner__scan');
    expect(toBaseFunctionName('-dash/tool')).toBe('_-dash__tool');
    expect(toBaseFunctionName('')).toBe('_');
    expect(isValidFunctionName('3d__scan')).toBe(false);
    expect(isValidFunctionName('-x')).toBe(false);
    expect(isValidFunctionName('_3d__scan')).toBe(true);
  });
});

describe('FunctionNameTable', () => {
  const table = new FunctionNameTable(awkward);

  it('gives every name a legal, unique function name that maps back exactly', () => {
    const functionNames = awkward.map((name) => table.functionNameOf(name) ?? '');
    for (const functionName of functionNames) expect(isValidFunctionName(functionName)).toBe(true);
    expect(new Set(functionNames).size).toBe(awkward.length);
    for (const name of awkward) expect(table.canonicalOf(table.functionNameOf(name) ?? '')).toBe(name);
  });

  it('keeps plain names readable and only hashes colliding or over-long ones', () => {
    expect(table.functionNameOf('math/add')).toBe('math__add');
    expect(table.functionNameOf('Case/Tool')).toBe('Case__Tool');
    const dotted = table.functionNameOf('a.b/c') ?? '';
    const underscored = table.functionNameOf('a_b/c') ?? '';
    expect(dotted).toMatch(/^a_b__c_[0-9a-f]{8}$/);
    expect(underscored).toMatch(/^a_b__c_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(underscored);
    const long = table.functionNameOf(awkward[10] ?? '') ?? '';
    expect(long).toHaveLength(maxFunctionNameLength);
    expect(long.startsWith('long-server-name__very_long_tool_name_')).toBe(true);
  });

  it('is stable: the same name gets the same function name whatever the order or neighbours', () => {
    const reversed = new FunctionNameTable([...awkward].reverse());
    for (const name of awkward) expect(reversed.functionNameOf(name)).toBe(table.functionNameOf(name));
    const alone = new FunctionNameTable(['a.b/c']);
    expect(alone.functionNameOf('a.b/c')).toBe('a_b__c');
  });

  it('resolves a hashed name that collides with another tool literally named like it', () => {
    const hashed = table.functionNameOf('a.b/c') ?? '';
    const trap = `${hashed.slice(0, hashed.lastIndexOf('__'))}/${hashed.slice(hashed.lastIndexOf('__') + 2)}`;
    const tricky = new FunctionNameTable(['a.b/c', 'a_b/c', trap]);
    const names = ['a.b/c', 'a_b/c', trap].map((name) => tricky.functionNameOf(name));
    expect(new Set(names).size).toBe(3);
    for (const name of ['a.b/c', 'a_b/c', trap]) expect(tricky.canonicalOf(tricky.functionNameOf(name) ?? '')).toBe(name);
  });

  it('handles a thousand generated names without a clash', () => {
    const many = Array.from({ length: 1000 }, (_unused, index) => `srv${index % 7}/tool.${index}`);
    const big = new FunctionNameTable(many);
    const functionNames = many.map((name) => big.functionNameOf(name));
    expect(new Set(functionNames).size).toBe(1000);
    expect(big.entries()).toHaveLength(1000);
  });
});
