// The rule evaluators: MCP-Universe's README examples, the built-in functions and operators,
// registration of new ones, and every kind of bad rule or bad answer ending as a failed check
// with a reason (never a throw).
import { describe, expect, it } from 'vitest';
import { evaluateRule, pipelineResults, RuleRegistry, runPipeline, type RuleSubject } from '../../../src/eval/rules/evaluate.js';
import { parsePipeline } from '../../../src/eval/rules/pipeline.js';
import { evaluatorSchema } from '../../../src/tasks/task-checks.js';

const registry = new RuleRegistry();
const rule = (raw: Record<string, unknown>) => evaluatorSchema.parse(raw);
const answer = (text: string, calls: RuleSubject['calls'] = []): RuleSubject => ({ answer: text, calls });

describe('MCP-Universe README examples', () => {
  it('json -> get(city) with = on the weather task', () => {
    const evaluator = rule({ func: 'json -> get(city)', op: '=', value: 'San Francisco' });
    const good = evaluateRule(evaluator, answer('{"city": "San Francisco", "weather": "fog, 14C"}'), registry);
    expect(good).toMatchObject({ passed: true, actual: 'San Francisco' });
    const wrong = evaluateRule(evaluator, answer('{"city": "Los Angeles", "weather": "sun"}'), registry);
    expect(wrong.passed).toBe(false);
    expect(wrong.reason).toContain('"Los Angeles"');
  });

  it('get(x) -> foreach -> get(y) -> len gives [1, 2, 4] on the documented data, and the op tests each', () => {
    const data = { x: [{ y: [1] }, { y: [1, 1] }, { y: [1, 2, 3, 4] }] };
    expect(pipelineResults(runPipeline(parsePipeline('get(x) -> foreach -> get(y) -> len'), data, registry))).toEqual([1, 2, 4]);
    const each = (op: string, value: unknown) =>
      evaluateRule(rule({ func: 'json -> get(x) -> foreach -> get(y) -> len', op, value }), answer(JSON.stringify(data)), registry);
    expect(each('>', 0)).toMatchObject({ passed: true, actual: [1, 2, 4] });
    expect(each('=', [1, 2, 4])).toMatchObject({ passed: false, reason: 'item 0 1 not = [1,2,4]' });
  });
});

describe('built-in functions and operators', () => {
  it('reads numbers, regex groups and JSON wrapped in prose or code fences', () => {
    const text = 'Here you go:\n```json\n{"total": "1,250.00 EUR", "items": [2.5, 3.25]}\n```';
    expect(evaluateRule(rule({ func: 'find_json -> get(total) -> number', op: '=', value: 1250 }), answer(text), registry).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'find_json -> get(items) -> sum', op: 'approx', value: 5.75 }), answer(text), registry).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'regex("TOTAL ([0-9.]+)") -> number', op: '=', value: 15 }), answer('... TOTAL 15.00 ...'), registry).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'numbers', op: 'contains', value: 26.1 }), answer('5.8 x 4.50 = 26.10'), registry).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'numbers', op: '=', value: [3, 2024] }), answer('sheet 03-2024'), registry).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'lower', op: 'contains', value: 'room 204' }), answer('MEETING ROOM 204'), registry).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'json -> keys -> len', op: '>=', value: 2 }), answer('{"a":1,"b":2}'), registry).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'json -> last', op: 'in', value: ['x', 'y'] }), answer('["a","y"]'), registry).passed).toBe(true);
  });

  it('approx honours absolute and relative tolerances', () => {
    const check = (value: number, opArgs: unknown) =>
      evaluateRule(rule({ func: 'number', op: 'approx', value, op_args: opArgs }), answer('30.01 %'), registry).passed;
    expect(check(30, { tolerance: 0.02 })).toBe(true);
    expect(check(30, { tolerance: 0.001 })).toBe(false);
    expect(check(30, { relative: 0.001 })).toBe(true);
    expect(check(30, [0.1])).toBe(true);
  });

  it('reads a predicted tool result by flat index or by tool name', () => {
    const calls = [
      { tool: 'pyzbar-mcp/scan_barcode', result: '{"results":[{"codes":[{"text":"WEIGHT=5.8"}]}]}' },
      { tool: 'math/multiply', result: '26.1' },
    ];
    expect(evaluateRule(rule({ func: 'number', op: '=', value: 26.1, target: { call: -1 } }), answer('', calls), registry).passed).toBe(true);
    const scan = rule({
      func: 'json -> get(results) -> first -> get(codes) -> foreach -> get(text)',
      op: 'contains',
      value: 'WEIGHT=5.8',
      target: { tool: 'pyzbar-mcp/scan_barcode' },
    });
    expect(evaluateRule(scan, answer('', calls), registry).passed).toBe(true);
  });

  it('takes registered functions and operators', () => {
    const custom = new RuleRegistry()
      .registerFunction('words', (value) => String(value).split(/\s+/).filter(Boolean))
      .registerOperator('startsWith', (actual, expected) => String(actual).startsWith(String(expected)));
    expect(evaluateRule(rule({ func: 'words -> len', op: '=', value: 3 }), answer('one two three'), custom).passed).toBe(true);
    expect(evaluateRule(rule({ func: 'trim', op: 'startsWith', value: 'TRK' }), answer(' TRK48213377 '), custom).passed).toBe(true);
    expect(() => custom.registerFunction('foreach', (value) => value)).toThrow(RangeError);
  });
});

describe('errors are failed checks with a reason', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['non-JSON answer', { func: 'json -> get(city)', op: '=', value: 'SF' }, 'It is sunny in San Francisco.', /JSON decoding error/],
    ['missing key (null is not "SF")', { func: 'json -> get(town)', op: '=', value: 'SF' }, '{"city":"SF"}', /^null not = "SF"$/],
    ['get on a list', { func: 'json -> get(city)', op: '=', value: 1 }, '[1,2]', /get\(city\) needs an object/],
    ['index out of range', { func: 'json -> at(5)', op: '=', value: 1 }, '[1,2]', /out of range/],
    ['unknown function', { func: 'json -> explode', op: '=', value: 1 }, '{}', /unknown function "explode"/],
    ['unknown operator', { func: 'json', op: '~=', value: 1 }, '{}', /unknown operator "~="/],
    ['syntax error', { func: 'json -> get(city', op: '=', value: 1 }, '{}', /unbalanced/],
    ['foreach on an object', { func: 'json -> foreach -> len', op: '=', value: 1 }, '{"a":1}', /foreach needs a list/],
    ['foreach item failing', { func: 'json -> foreach -> get(y) -> len', op: '=', value: 1 }, '[{"y":[1]},{"z":2}]', /foreach item 1: len needs a list/],
    ['ordering a string against a number', { func: 'json -> get(a)', op: '<', value: 3 }, '{"a":"2"}', /not supported between instances of 'str' and 'int'/],
    ['bad tolerance', { func: 'number', op: 'approx', value: 3, op_args: { tolerance: -1 } }, '3', /op_args/],
    ['regex without a match', { func: 'regex(TOTAL ([0-9]+))', op: '=', value: '1' }, 'nothing', /no match/],
    ['invalid regex', { func: 'regex("([")', op: '=', value: '1' }, 'x', /invalid pattern/],
    ['number in no number', { func: 'number', op: '=', value: 1 }, 'none here', /no number/],
    ['a call that is not there', { func: 'number', op: '=', value: 1, target: { call: 3 } }, '', /no predicted call 3/],
  ];
  it.each(cases)('%s', (_name, raw, text, reason) => {
    const result = evaluateRule(rule(raw), answer(text), registry);
    expect(result.passed).toBe(false);
    expect(result.reason).toMatch(reason);
  });

  it('a registered function that throws is a failed check too', () => {
    const custom = new RuleRegistry().registerFunction('boom', () => {
      throw new TypeError('kaput');
    });
    expect(evaluateRule(rule({ func: 'boom', op: '=', value: 1 }), answer('x'), custom)).toMatchObject({ passed: false, reason: 'boom failed: kaput' });
  });

  it('quoted arguments may hold commas, parentheses and arrows', () => {
    expect(parsePipeline('regex("a(b), c -> d", 0) -> trim')).toEqual([
      { name: 'regex', args: ['a(b), c -> d', '0'], text: 'regex("a(b), c -> d", 0)' },
      { name: 'trim', args: [], text: 'trim' },
    ]);
  });
});
