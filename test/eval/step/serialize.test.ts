// Serialisation must equal Python's json.dumps(args, sort_keys=True, separators=(',', ':'),
// ensure_ascii=False) after json.loads. Expected strings were produced once with python3 and are
// hard-coded here (input JSON text → Python's output).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, formatPythonFloat, parseLosslessJson, serializeArguments } from '../../../src/eval/step/serialize.js';
import { loadTrajectories } from '../../../src/eval/step/trajectory.js';

const pythonTable: Array<[string, string]> = [
  ['{"b":1,"a":"\u00e9 x"}', '{"a":"\u00e9 x","b":1}'],
  ['null', 'null'],
  ['"{\\"a\\": 1}"', '"{\\"a\\": 1}"'],
  ['{"x":2.0,"y":1e-05,"z":1E5,"w":-0.0,"v":-0}', '{"v":0,"w":-0.0,"x":2.0,"y":1e-05,"z":100000.0}'],
  [
    '[1e16,1e15,0.0001,0.00001,123456789012345678901234567890,1.5e300,3.14159,100.0,1e400]',
    '[1e+16,1000000000000000.0,0.0001,1e-05,123456789012345678901234567890,1.5e+300,3.14159,100.0,Infinity]',
  ],
  [
    '{"z":{"b":[true,false,null],"a":{}},"A":[],"\u00e9":"\u00fc","a":"tab\\tnl\\nq\\"bs\\\\ctl\\u0001"}',
    '{"A":[],"a":"tab\\tnl\\nq\\"bs\\\\ctl\\u0001","z":{"a":{},"b":[true,false,null]},"\u00e9":"\u00fc"}',
  ],
  ['{"\\ud83d\\ude00":1,"\\uffff":2,"a":3}', '{"a":3,"\uffff":2,"\ud83d\ude00":1}'],
  ['{"lat":48.8566,"lng":2.3522,"n":10,"f":0.1,"g":1.0e-7,"h":123e-2}', '{"f":0.1,"g":1e-07,"h":1.23,"lat":48.8566,"lng":2.3522,"n":10}'],
  ['{"text":"\\u2028 \\u00e9 \\u4e2d\\u6587 \\u007f"}', '{"text":"\u2028 \u00e9 \u4e2d\u6587 \u007f"}'],
  ['12345678901234567.0', '1.2345678901234568e+16'],
];

describe('serializeArguments (Python json.dumps compatibility)', () => {
  it.each(pythonTable)('%s', (input, expected) => {
    expect(serializeArguments(parseLosslessJson(input))).toBe(expected);
  });

  it('treats a missing arguments value as null', () => {
    expect(serializeArguments(undefined)).toBe('null');
  });

  it('prints plain JS numbers as Python would print the value (ints when safe integers)', () => {
    expect(serializeArguments({ a: 2, b: 0.5, c: 1e-7, d: 2 ** 60 })).toBe('{"a":2,"b":0.5,"c":1e-07,"d":1.152921504606847e+18}');
  });

  it('keeps the last value of a duplicated key, like json.loads', () => {
    expect(serializeArguments(parseLosslessJson('{"a":1,"a":2.50}'))).toBe('{"a":2.5}');
  });
});

describe('formatPythonFloat', () => {
  it.each([
    [0.1 + 0.2, '0.30000000000000004'],
    [1e22, '1e+22'],
    [9999999999999998, '9999999999999998.0'],
    [0.00012, '0.00012'],
    [-1.5e-10, '-1.5e-10'],
    [5e-324, '5e-324'],
    [-0, '-0.0'],
  ])('%s → %s', (value, expected) => {
    expect(formatPythonFloat(value)).toBe(expected);
  });
});

describe('compareCodePoints', () => {
  it('orders astral characters after U+FFFF (code point order, not UTF-16 order)', () => {
    const keys = ['\u{1F600}', '\uffff', 'a', 'A', 'é'];
    expect([...keys].sort(compareCodePoints)).toEqual(['A', 'a', 'é', '\uffff', '\u{1F600}']);
    expect([...keys].sort()).not.toEqual(['A', 'a', 'é', '\uffff', '\u{1F600}']);
  });
});

describe('loadTrajectories keeps the exact number text of the file', () => {
  it('reads an id-keyed prediction object and a wrapped array without losing 2.0 or 1e-05', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'm3-serialize-'));
    try {
      const keyed = path.join(dir, 'keyed.json');
      writeFileSync(
        keyed,
        '{"00000001": {"steps": [{"step": 1, "calls": [{"name": " wiki/summary ", "arguments": {"z": 2.0, "a": 1e-05}}, {"name": "x/y"}]}]}}',
      );
      const loaded = loadTrajectories(keyed, 'pred');
      const calls = loaded.byId.get('00000001')?.calls ?? [];
      expect(calls.map((call) => [call.tool, call.text])).toEqual([
        ['wiki/summary', '{"a":1e-05,"z":2.0}'],
        ['x/y', 'null'],
      ]);
      const wrapped = path.join(dir, 'wrapped.json');
      writeFileSync(wrapped, '{"results": [{"id": 7, "steps": [{"calls": [{"name": "a/b", "arguments": [100.0, 3]}]}]}]}');
      expect(loadTrajectories(wrapped, 'pred').byId.get('7')?.calls[0]?.text).toBe('[100.0,3]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
