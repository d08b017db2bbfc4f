// Python-style printing of parsed JSON, as the FastMCP reference servers showed upstream data.
// Expected strings are what CPython 3.12 prints for the same values.
import { describe, expect, it } from 'vitest';
import { parseLosslessJson, pythonFloat, pythonRepr, pythonSlice, pythonStr, pythonTruthy, toPythonJson } from '../../../servers/shared/python-format.js';

describe('Python-style formatting', () => {
  it('prints values as str() and repr() do, keeping the JSON number text', () => {
    const value = parseLosslessJson(
      '{"a": 643.0, "b": 12, "c": null, "d": true, "e": ["x", 1e-5], "f": "it\'s", "g": "say \\"hi\\" it\'s", "h": "tab\\tnew\\nline\\u00a0"}',
    );
    expect(pythonRepr(value)).toBe(
      `{'a': 643.0, 'b': 12, 'c': None, 'd': True, 'e': ['x', 1e-05], 'f': "it's", 'g': 'say "hi" it\\'s', 'h': 'tab\\tnew\\nline\\xa0'}`,
    );
    expect(pythonStr('plain')).toBe('plain');
    expect(pythonStr(null)).toBe('None');
    expect(pythonStr(pythonFloat(5))).toBe('5.0');
  });

  it('applies Python truthiness and code-point slicing', () => {
    expect([[], {}, '', 0, null, false].map(pythonTruthy)).toEqual([false, false, false, false, false, false]);
    expect([[0], { a: 1 }, ' ', parseLosslessJson('0.5'), true].map(pythonTruthy)).toEqual([true, true, true, true, true]);
    expect(pythonSlice('a😀b', 2)).toBe('a😀');
  });

  it('serialises dicts as FastMCP does (indent 2, floats kept, non-ASCII raw, empty containers inline)', () => {
    const value = { count: 1, events: [{ speed: parseLosslessJson('502.0'), kp: [pythonFloat(6)], name: 'Zürich', none: null, list: [] }] };
    expect(toPythonJson(value)).toBe(
      '{\n  "count": 1,\n  "events": [\n    {\n      "speed": 502.0,\n      "kp": [\n        6.0\n      ],\n      "name": "Zürich",\n      "none": null,\n      "list": []\n    }\n  ]\n}',
    );
  });
});
