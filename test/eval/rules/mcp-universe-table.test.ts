// MCP-Universe's evaluator semantics, case by case. Each expected result is derived by reading
// MCP-Universe's own code (SalesforceAIResearch/MCP-Universe, mcpuniverse/evaluator/functions.py
// and evaluator.py); the first column names the function whose behaviour the case pins:
// json_decode, get, length, foreach, raw_decode, to_list (the pipeline functions), equal,
// less_than, less_equal, greater_than, greater_equal, is_in, contain (the operators), and
// Evaluator._parse_func / Evaluator.evaluate (the pipeline parsing and the per-result test).
import { describe, expect, it } from 'vitest';
import { evaluateRule, RuleRegistry } from '../../../src/eval/rules/evaluate.js';
import { evaluatorSchema } from '../../../src/tasks/task-checks.js';

const registry = new RuleRegistry();

interface Case {
  from: string;
  answer: string;
  func: string;
  op?: string;
  value?: unknown;
  passes: boolean;
}

const cases: Case[] = [
  { from: 'json_decode', answer: '{"a": 1}', func: 'json -> get(a)', op: '=', value: 1, passes: true },
  { from: 'json_decode (backticks and a leading "json" stripped)', answer: '```json\n{"a": 1}\n```', func: 'json -> get(a)', op: '=', value: 1, passes: true },
  { from: 'json_decode (strip, then strip("`"))', answer: '  `{"a": 2}`  ', func: 'json -> get(a)', op: '=', value: 2, passes: true },
  { from: 'json_decode (leading "json" dropped)', answer: 'json {"a": 1}', func: 'json -> get(a)', op: '=', value: 1, passes: true },
  { from: 'json_decode (prose around the JSON: JSONDecodeError)', answer: 'The answer: {"a": 1}', func: 'json -> get(a)', op: '=', value: 1, passes: false },
  { from: 'json_decode (a trailing comma: JSONDecodeError)', answer: '{"a": 1,}', func: 'json', op: '', passes: false },
  {
    from: 'json_decode (mapped over foreach items)',
    answer: '["{\\"a\\": 1}", "{\\"a\\": 1}"]',
    func: 'json -> foreach -> json -> get(a)',
    op: '=',
    value: 1,
    passes: true,
  },
  { from: 'json_decode (a dict is not a str)', answer: '{"a": {"b": 1}}', func: 'json -> get(a) -> json', op: '', passes: false },
  { from: 'get (a missing key gives None)', answer: '{"a": 1}', func: 'json -> get(b)', op: '=', value: null, passes: true },
  { from: 'get (a missing key, value left out: None == None)', answer: '{"a": 1}', func: 'json -> get(b)', op: '=', passes: true },
  { from: 'get (a list is not a dict)', answer: '[1, 2]', func: 'json -> get(0)', op: '=', value: 1, passes: false },
  { from: 'get (a str is not a dict)', answer: '"text"', func: 'json -> get(a)', op: '', passes: false },
  { from: 'get (nested)', answer: '{"a": {"b": "x"}}', func: 'json -> get(a) -> get(b)', op: '=', value: 'x', passes: true },
  { from: 'get (extra arguments ignored, *args)', answer: '{"a": 1}', func: 'json -> get(a, b)', op: '=', value: 1, passes: true },
  { from: 'get (mapped over foreach items)', answer: '[{"a": 1}, {"a": 1}]', func: 'json -> foreach -> get(a)', op: '=', value: 1, passes: true },
  { from: 'length', answer: '[1, 2, 3]', func: 'json -> len', op: '=', value: 3, passes: true },
  { from: 'length (a str is not a list)', answer: '"abc"', func: 'json -> len', op: '=', value: 3, passes: false },
  { from: 'length (a dict is not a list)', answer: '{"a": 1}', func: 'json -> len', op: '=', value: 1, passes: false },
  {
    from: 'foreach (the op tests each item)',
    answer: '{"x": [{"y": [1]}, {"y": [1, 1]}]}',
    func: 'json -> get(x) -> foreach -> get(y) -> len',
    op: '>=',
    value: 1,
    passes: true,
  },
  {
    from: 'foreach (one item failing fails)',
    answer: '{"x": [{"y": [1]}, {"y": [1, 1]}]}',
    func: 'json -> get(x) -> foreach -> get(y) -> len',
    op: '=',
    value: 1,
    passes: false,
  },
  { from: 'foreach (the whole list is not compared)', answer: '[1, 1, 1]', func: 'json -> foreach', op: '=', value: [1, 1, 1], passes: false },
  { from: 'foreach (every item equal)', answer: '[1, 1, 1]', func: 'json -> foreach', op: '=', value: 1, passes: true },
  { from: 'foreach (an empty list passes)', answer: '[]', func: 'json -> foreach', op: '=', value: 'anything', passes: true },
  { from: 'foreach (an empty list, later steps never run)', answer: '{"x": []}', func: 'json -> get(x) -> foreach -> get(y)', op: '=', value: 5, passes: true },
  { from: 'foreach (a dict is not a list)', answer: '{"a": 1}', func: 'json -> foreach', op: '=', value: 1, passes: false },
  { from: 'foreach (nested: results flattened)', answer: '[[1, 2], [3]]', func: 'json -> foreach -> foreach', op: '<', value: 4, passes: true },
  { from: 'foreach (a missing key in one item is None)', answer: '[{"a": 1}, {"b": 2}]', func: 'json -> foreach -> get(a)', op: '=', value: 1, passes: false },
  { from: 'raw_decode (equal unwraps the result)', answer: 'hello', func: 'raw', op: '=', value: 'hello', passes: true },
  { from: 'to_list', answer: '{"a": 1}', func: 'json -> get(a) -> list', op: '=', value: [1], passes: true },
  { from: 'to_list (then contain)', answer: '{"a": 1}', func: 'json -> get(a) -> list', op: 'contain', value: 1, passes: true },
  { from: 'Evaluator._parse_func (empty func: the raw output)', answer: 'hi', func: '', op: '=', value: 'hi', passes: true },
  { from: 'Evaluator._parse_func (empty parts dropped)', answer: '{"a": 1}', func: 'json -> -> get(a)', op: '=', value: 1, passes: true },
  { from: 'Evaluator._parse_func (arguments stripped)', answer: '{"a": 1}', func: 'json -> get( a )', op: '=', value: 1, passes: true },
  { from: 'Evaluator._parse_func (an unknown func fails)', answer: '{}', func: 'json -> explode', op: '', passes: false },
  { from: 'Evaluator.evaluate (no op: passes)', answer: '{"a": 1}', func: 'json -> get(a)', op: '', passes: true },
  { from: 'Evaluator.evaluate (no op, the func failing fails)', answer: 'not json', func: 'json', op: '', passes: false },
  { from: 'equal (True == 1)', answer: '{"a": true}', func: 'json -> get(a)', op: '=', value: 1, passes: true },
  { from: 'equal (2.0 == 2)', answer: '{"a": 2.0}', func: 'json -> get(a)', op: '=', value: 2, passes: true },
  { from: 'equal ("15" != 15)', answer: '{"a": "15"}', func: 'json -> get(a)', op: '=', value: 15, passes: false },
  { from: 'equal (dicts by keys, not order)', answer: '{"a": {"x": 1, "y": 2}}', func: 'json -> get(a)', op: '=', value: { y: 2, x: 1 }, passes: true },
  { from: 'equal (lists element by element, True == 1.0)', answer: '{"a": [1, true]}', func: 'json -> get(a)', op: '=', value: [1.0, 1], passes: true },
  { from: 'less_than (lists in order)', answer: '[1, 2]', func: 'json', op: '<', value: [1, 3], passes: true },
  { from: 'less_than (a prefix is smaller)', answer: '[1, 2]', func: 'json', op: '<', value: [1, 2, 0], passes: true },
  { from: 'less_than (None < int: TypeError)', answer: '{"a": null}', func: 'json -> get(a)', op: '<', value: 1, passes: false },
  { from: 'less_than (str < int: TypeError)', answer: '{"a": "2"}', func: 'json -> get(a)', op: '<', value: 3, passes: false },
  { from: 'less_than (strings)', answer: '{"a": "apple"}', func: 'json -> get(a)', op: '<', value: 'banana', passes: true },
  { from: 'less_than (strings by code point, not UTF-16)', answer: '{"a": "\\uffff"}', func: 'json -> get(a)', op: '<', value: '😀', passes: true },
  { from: 'less_equal', answer: '{"a": 3}', func: 'json -> get(a)', op: '<=', value: 3, passes: true },
  { from: 'greater_than (False is 0)', answer: '{"a": false}', func: 'json -> get(a)', op: '>', value: -1, passes: true },
  { from: 'greater_than (dict > dict: TypeError)', answer: '{"a": {}}', func: 'json -> get(a)', op: '>', value: {}, passes: false },
  { from: 'greater_equal (lists: the first difference decides)', answer: '[2]', func: 'json', op: '>=', value: [1, 9], passes: true },
  { from: 'is_in (substring)', answer: '{"a": "b"}', func: 'json -> get(a)', op: 'in', value: 'abc', passes: true },
  { from: 'is_in (list member by ==)', answer: '{"a": 2}', func: 'json -> get(a)', op: 'in', value: [1, 2.0], passes: true },
  { from: 'is_in (int in str: TypeError)', answer: '{"a": 2}', func: 'json -> get(a)', op: 'in', value: 'a2', passes: false },
  { from: 'is_in (a dict container: ValueError)', answer: '{"a": "x"}', func: 'json -> get(a)', op: 'in', value: { x: 1 }, passes: false },
  { from: 'contain (substring)', answer: '{"a": "hello world"}', func: 'json -> get(a)', op: 'contain', value: 'world', passes: true },
  { from: 'contain (list member)', answer: '{"a": [1, 2]}', func: 'json -> get(a)', op: 'contain', value: 2, passes: true },
  { from: 'contain (a dict output: ValueError)', answer: '{"a": {"k": 1}}', func: 'json -> get(a)', op: 'contain', value: 'k', passes: false },
  { from: 'contain (a list is not its own member)', answer: '{"a": ["x"]}', func: 'json -> get(a)', op: 'contain', value: ['x'], passes: false },
];

describe("MCP-Universe's evaluator semantics", () => {
  it('the table has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('$from: $func $op $value on $answer', ({ answer, func, op, value, passes }) => {
    const evaluator = evaluatorSchema.parse({ func, ...(op === undefined ? {} : { op }), ...(value === undefined ? {} : { value }) });
    const check = evaluateRule(evaluator, { answer, calls: [] }, registry);
    expect(check.passed, check.reason).toBe(passes);
  });

  it('op defaults to "" as in EvaluatorConfig, so a task file may leave it out', () => {
    const evaluator = evaluatorSchema.parse({ func: 'json' });
    expect(evaluator.op).toBe('');
    expect(evaluateRule(evaluator, { answer: '{}', calls: [] }, registry).passed).toBe(true);
  });
});

describe("m3bench's extras keep names MCP-Universe does not use", () => {
  const check = (func: string, op: string, value: unknown, answer: string) =>
    evaluateRule(evaluatorSchema.parse({ func, op, value }), { answer, calls: [] }, registry).passed;

  it('find_json reads JSON inside prose, where json fails', () => {
    expect(check('find_json -> get(a)', '=', 1, 'The answer: {"a": 1}.')).toBe(true);
    expect(check('json -> get(a)', '=', 1, 'The answer: {"a": 1}.')).toBe(false);
  });

  it('at indexes a list, size measures strings and objects, contains finds object keys', () => {
    expect(check('json -> at(-1)', '=', 3, '[1, 2, 3]')).toBe(true);
    expect(check('size', '=', 3, 'a😀c')).toBe(true);
    expect(check('json -> size', '=', 2, '{"a": 1, "b": 2}')).toBe(true);
    expect(check('json', 'contains', 'k', '{"k": 1}')).toBe(true);
    expect(check('json', 'contain', 'k', '{"k": 1}')).toBe(false);
  });
});
