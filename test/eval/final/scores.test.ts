import { describe, expect, it } from 'vitest';
import { boxedContents, meanSkippingMissing, parseScore, trimmedMean } from '../../../src/eval/final/scores.js';

const tc = { min: 0, max: 10 };
const ig = { min: 0, max: 1 };

describe('trimmedMean', () => {
  it('reproduces the spec example: TC raw 7, 8, 6, 9 → 0.75', () => {
    expect(trimmedMean([7, 8, 6, 9].map((score) => score / 10))).toBeCloseTo(0.75, 12);
  });

  it('reproduces the spec example: IG 1.0, 0.67, 0.5, 0.8 → 0.735', () => {
    expect(trimmedMean([1.0, 0.67, 0.5, 0.8])).toBeCloseTo(0.735, 12);
  });

  it('drops one min and one max only with more than two judges', () => {
    expect(trimmedMean([0.2, 0.9, 0.5])).toBe(0.5);
    expect(trimmedMean([0.2, 0.9])).toBeCloseTo(0.55, 12);
    expect(trimmedMean([0.4])).toBe(0.4);
    expect(trimmedMean([0.1, 0.1, 0.1, 1, 1])).toBeCloseTo(0.4, 12);
    expect(trimmedMean([])).toBeNaN();
  });

  it('meanSkippingMissing ignores NaN and null', () => {
    expect(meanSkippingMissing([0.5, Number.NaN, null, 1])).toBe(0.75);
    expect(meanSkippingMissing([null, undefined])).toBeNaN();
  });
});

describe('parseScore', () => {
  it('takes the last boxed value', () => {
    expect(parseScore('Format: \\boxed{S}. Planning 3, process 2, result 2: \\boxed{7}', tc)).toEqual({ ok: true, value: 7, method: 'boxed' });
    expect(parseScore('\\boxed{4} on reflection \\boxed{6.5}', tc)).toEqual({ ok: true, value: 6.5, method: 'boxed' });
    expect(parseScore('$\\boxed{ 0.67 }$', ig)).toEqual({ ok: true, value: 0.67, method: 'boxed' });
    expect(parseScore('\\boxed{\\text{8}}', tc)).toEqual({ ok: true, value: 8, method: 'boxed' });
  });

  it('rejects malformed boxes and out-of-range values', () => {
    expect(parseScore('\\boxed{seven}', tc)).toMatchObject({ ok: false, reason: expect.stringContaining('plain number') });
    expect(parseScore('\\boxed{7/10}', tc)).toMatchObject({ ok: false });
    expect(parseScore('\\boxed{11}', tc)).toMatchObject({ ok: false, reason: expect.stringContaining('outside [0, 10]') });
    expect(parseScore('\\boxed{1.2}', ig)).toMatchObject({ ok: false });
    expect(parseScore('\\boxed{-0.1}', ig)).toMatchObject({ ok: false });
    expect(parseScore('\\boxed{7', tc)).toMatchObject({ ok: false });
  });

  it('needs the boxed form unless lenient mode is asked for, and then takes the last number (bug 42)', () => {
    const reply = 'Planning 3/3, process 2/3, final result 2/4. Total: 7';
    expect(parseScore(reply, tc)).toMatchObject({ ok: false, reason: 'no \\boxed{...} score in the reply' });
    expect(parseScore(reply, tc, { lenient: true })).toEqual({ ok: true, value: 7, method: 'lenient_last_number' });
    expect(parseScore('coverage is 0.5 of 2 steps', ig, { lenient: true })).toMatchObject({ ok: false });
    expect(parseScore('no numbers here', ig, { lenient: true })).toMatchObject({ ok: false });
  });

  it('finds nested boxes with balanced braces', () => {
    expect(boxedContents('a \\boxed{\\text{7}} b \\boxed{8}')).toEqual(['\\text{7}', '8']);
  });
});
