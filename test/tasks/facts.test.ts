// Fact checks on hand-made tool results: the JSON-path subset, every check kind (holding and
// failing), the schema's "exactly one check" rules, and how results become checkable.
import { describe, expect, it } from 'vitest';
import {
  checkFact,
  describeFact,
  factSchema,
  parsePath,
  resolvePath,
  resultText,
  textContains,
  toCheckableResult,
  type CheckableResult,
  type Fact,
} from '../../src/tasks/facts.js';

const detection = {
  count: 3,
  counts: { dog: 1, 'stop sign': 1, car: 1 },
  objects: [
    { category: 'dog', score: 0.85, bbox: { x1: 133, y1: 205, x2: 323, y2: 543 } },
    { category: 'stop sign', score: 0.8, bbox: { x1: 298, y1: 148, x2: 421, y2: 355 } },
    { category: 'car', score: 0.7, bbox: { x1: 467, y1: 78, x2: 693, y2: 171 } },
  ],
};
const detectionResult: CheckableResult = { isError: false, text: JSON.stringify(detection), json: detection };
const ocrPayload = {
  text: 'FRESH MART\nTOTAL  15.00',
  lines: [
    { text: 'FRESH MART', box: [[1, 2]] },
    { text: 'TOTAL  15.00', box: [[120, 95]] },
  ],
};
const ocrResult: CheckableResult = { isError: false, text: JSON.stringify(ocrPayload), json: ocrPayload };
const mathResult: CheckableResult = { isError: false, text: '15.000000000000002' };
const errorResult: CheckableResult = { isError: true, text: 'cannot read image "./media/inbox/x.png": ENOENT' };

function fact(input: Record<string, unknown>): Fact {
  return factSchema.parse({ step: 1, call: 0, reply: 'x', ...input });
}

describe('JSON-path subset', () => {
  it('parses dot keys, indexes and wildcards, including keys with spaces', () => {
    expect(parsePath('results[0].codes[*].text')).toEqual([{ key: 'results' }, { index: 0 }, { key: 'codes' }, { wildcard: true }, { key: 'text' }]);
    expect(parsePath('counts.stop sign')).toEqual([{ key: 'counts' }, { key: 'stop sign' }]);
    expect(() => parsePath('a..b')).toThrow(/not in the supported subset/);
    expect(() => parsePath('a[x]')).toThrow(/not in the supported subset/);
  });

  it('resolves single values, misses and wildcard lists', () => {
    expect(resolvePath(detection, 'objects[1].bbox.x2')).toEqual({ found: true, value: 421, multiple: false });
    expect(resolvePath(detection, 'counts.stop sign').value).toBe(1);
    expect(resolvePath(detection, 'objects[7].category').found).toBe(false);
    expect(resolvePath(detection, 'counts.cat').found).toBe(false);
    expect(resolvePath(detection, 'objects[*].category')).toEqual({ found: true, value: ['dog', 'stop sign', 'car'], multiple: true });
    expect(resolvePath({ objects: [] }, 'objects[*].category')).toEqual({ found: true, value: [], multiple: true });
    expect(resolvePath([[1, 2], [3]], '[*][0]').value).toEqual([1, 3]);
  });
});

describe('checkFact', () => {
  it('equals compares deeply, on single values and on wildcard lists', () => {
    expect(checkFact(fact({ path: 'counts.dog', equals: 1 }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'counts.dog', equals: 2 }), detectionResult)).toBe('expected 2, got 1');
    expect(checkFact(fact({ path: 'objects[0].bbox', equals: { x1: 133, y1: 205, x2: 323, y2: 543 } }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'objects[*].category', equals: ['dog', 'stop sign', 'car'] }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'objects[*].category', equals: ['dog'] }), detectionResult)).toMatch(/expected \["dog"\]/);
  });

  it('includes and excludes look into lists, or into text without case and spaces', () => {
    expect(checkFact(fact({ path: 'objects[*].category', includes: 'stop sign' }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'objects[*].category', includes: 'cat' }), detectionResult)).toMatch(/does not include "cat"/);
    expect(checkFact(fact({ path: 'objects[*].category', excludes: 'cat' }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'objects[*].category', excludes: 'dog' }), detectionResult)).toMatch(/includes "dog", which it must not/);
    expect(checkFact(fact({ path: 'text', includes: 'total 15.00' }), ocrResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'count', includes: 3 }), detectionResult)).toMatch(/cannot look for 3/);
  });

  it('textIncludes without a path searches the decoded strings of a JSON result, not its escapes or numbers', () => {
    expect(checkFact(fact({ textIncludes: 'fresh mart total 15.00' }), ocrResult)).toBeUndefined();
    expect(checkFact(fact({ textIncludes: 'TOTAL 15.00' }), ocrResult)).toBeUndefined();
    // 120 appears only as a box coordinate, which is a number, not text the image shows.
    expect(checkFact(fact({ textIncludes: '120' }), ocrResult)).toMatch(/does not contain "120"/);
    expect(resultText(ocrResult)).toBe('FRESH MART\nTOTAL  15.00\nFRESH MART\nTOTAL  15.00');
    expect(checkFact(fact({ textIncludes: 'total 16.00' }), ocrResult)).toMatch(/does not contain "total 16.00"/);
    expect(checkFact(fact({ path: 'lines[1].text', textIncludes: 'total15.00' }), ocrResult)).toBeUndefined();
  });

  it('number parses plain-text results and honours the tolerance', () => {
    expect(checkFact(fact({ number: 15, tolerance: 0.001 }), mathResult)).toBeUndefined();
    // The default tolerance absorbs floating-point noise, nothing more.
    expect(checkFact(fact({ number: 15 }), mathResult)).toBeUndefined();
    expect(checkFact(fact({ number: 15.01 }), mathResult)).toMatch(/expected 15.01 \(±1e-9\), got 15.000000000000002/);
    expect(checkFact(fact({ path: 'objects[0].bbox.x1', number: 130, tolerance: 4 }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'objects[0].bbox.x1', number: 120, tolerance: 4 }), detectionResult)).toMatch(/expected 120/);
    expect(checkFact(fact({ number: 1 }), { isError: false, text: 'Entries (1) appeared 2 times' })).toMatch(/expected a number/);
  });

  it('atLeast, atMost and length work on numbers and lists', () => {
    expect(checkFact(fact({ path: 'count', atLeast: 3 }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'count', atLeast: 4 }), detectionResult)).toBe('expected at least 4, got 3');
    expect(checkFact(fact({ path: 'objects[*]', atMost: 2 }), detectionResult)).toBe('expected at most 2, got 3');
    expect(checkFact(fact({ path: 'objects', length: 3 }), detectionResult)).toBeUndefined();
    expect(checkFact(fact({ path: 'objects', length: 2 }), detectionResult)).toMatch(/expected 2 item\(s\), got 3/);
    expect(checkFact(fact({ path: 'count', length: 3 }), detectionResult)).toMatch(/expected a list of 3/);
  });

  it('expectError holds only on failures, and can check the message', () => {
    const expected = factSchema.parse({ step: 1, call: 0, expectError: true, textIncludes: 'enoent' });
    expect(checkFact(expected, errorResult)).toBeUndefined();
    expect(checkFact(factSchema.parse({ step: 1, call: 0, expectError: true, textIncludes: 'EACCES' }), errorResult)).toMatch(/does not mention "EACCES"/);
    expect(checkFact(expected, mathResult)).toMatch(/expected this call to fail, but it succeeded/);
    expect(checkFact(fact({ number: 15 }), errorResult)).toMatch(/^the call failed: .*ENOENT/);
  });

  it('reports missing paths and non-JSON results', () => {
    expect(checkFact(fact({ path: 'counts.cat', equals: 1 }), detectionResult)).toMatch(/path "counts.cat" not found/);
    expect(checkFact(fact({ path: 'count', equals: 1 }), mathResult)).toMatch(/not JSON, so path "count" cannot be read/);
  });
});

describe('factSchema', () => {
  it('needs exactly one check, a reply (except for expected errors) and tolerance only with number', () => {
    const issues = (input: Record<string, unknown>) => factSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues({ step: 1, call: 0, reply: 'r' })).toEqual([expect.stringMatching(/exactly one check .* got none/)]);
    expect(issues({ step: 1, call: 0, reply: 'r', equals: 1, number: 1 })).toEqual([expect.stringMatching(/got equals \+ number/)]);
    expect(issues({ step: 1, call: 0, equals: 1 })).toEqual([expect.stringMatching(/needs "reply"/)]);
    expect(issues({ step: 1, call: 0, reply: 'r', equals: 1, tolerance: 0.1 })).toEqual([expect.stringMatching(/"tolerance" only goes with "number"/)]);
    expect(issues({ step: 1, call: 0, expectError: true, path: 'x' })).toEqual([expect.stringMatching(/checks the error text, not a path/)]);
    expect(issues({ step: 0, call: 0, reply: 'r', equals: 1 }).length).toBe(1);
    expect(issues({ step: 1, call: 0, reply: 'r', equals: 1, colour: 'red' }).length).toBe(1);
    expect(issues({ step: 1, call: 0, expectError: true })).toEqual([]);
  });

  it('describes a fact in one line for messages', () => {
    expect(describeFact(fact({ path: 'counts.dog', equals: 2 }))).toBe('step 1 call 0, counts.dog equals 2');
    expect(describeFact(fact({ number: 0.3, tolerance: 0.01 }))).toBe('step 1 call 0 number 0.3 ±0.01');
    expect(describeFact(factSchema.parse({ step: 2, call: 1, expectError: true, textIncludes: 'ENOENT' }))).toBe('step 2 call 1 expectError');
  });
});

describe('toCheckableResult and text comparison', () => {
  it('parses the first JSON text item, prefers structured content, and keeps plain text as is', () => {
    expect(toCheckableResult({ isError: false, texts: ['{"a":1}', '[image]'] })).toEqual({ isError: false, text: '{"a":1}\n[image]', json: { a: 1 } });
    expect(toCheckableResult({ isError: false, texts: ['{"a":1}'], structuredContent: { b: 2 } }).json).toEqual({ b: 2 });
    expect(toCheckableResult({ isError: false, texts: ['15'] })).toEqual({ isError: false, text: '15' });
    expect(toCheckableResult({ isError: true, texts: ['{not json'] })).toEqual({ isError: true, text: '{not json' });
  });

  it('ignores case, whitespace and compatibility forms', () => {
    expect(textContains('PLATFORM7\nTRAINSTO LYON', 'platform 7 trains to lyon')).toBe(true);
    expect(textContains('ＴＯＴＡＬ 15.00', 'total 15.00')).toBe(true);
    expect(textContains('TOTAL 15.00', 'TOTAL 16.00')).toBe(false);
  });
});
