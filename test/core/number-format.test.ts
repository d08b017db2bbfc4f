// The one formatting module (src/core/number-format.ts): each option reproduces a way a caller
// printed before the copies were merged, so the tables and messages the other tests assert hold.
import { describe, expect, it } from 'vitest';
import { clip, formatPercent, mean, shareOf, sum } from '../../src/core/number-format.js';

describe('clip', () => {
  it('leaves a text that fits alone and keeps the limit before the marker by default', () => {
    expect(clip('abcdef', 6)).toBe('abcdef');
    expect(clip('abcdefgh', 4)).toBe('abcd...');
  });

  it('counts the marker in the limit when asked, so the result is never longer than the limit', () => {
    const shown = clip('abcdefghij', 7, { markerInLimit: true });
    expect(shown).toBe('abcd...');
    expect(shown).toHaveLength(7);
  });

  it('flattens whitespace and trims before measuring, and builds a marker from the whole text', () => {
    expect(clip('  a \n\n b  ', 3, { flatten: true })).toBe('a b');
    expect(clip('one\ntwo three', 3, { flatten: true, marker: (whole) => `… (${whole.length} characters)` })).toBe('one… (13 characters)');
  });
});

describe('formatPercent', () => {
  it('prints a fraction with fixed digits, padded for a column, and a missing value as asked', () => {
    expect(formatPercent(0.125)).toBe('12.5%');
    expect(formatPercent(0.5, { width: 5 })).toBe(' 50.0%');
    expect(formatPercent(0.12345, { digits: 2, width: 6 })).toBe(' 12.35%');
    expect(formatPercent(null)).toBe('n/a');
    expect(formatPercent(Number.NaN, { width: 5, missing: '   -  ' })).toBe('   -  ');
  });

  it('trims trailing zeros with the separator the paper uses', () => {
    expect(formatPercent(shareOf(3, 4), { trim: true, separator: ' ' })).toBe('75 %');
    expect(formatPercent(shareOf(1, 3), { trim: true })).toBe('33.3%');
    expect(formatPercent(shareOf(1, 0), { trim: true })).toBe('0%');
  });

  it('rounds a count out of a total as 100 * count / total, so a value on a half rounds as the charts printed it', () => {
    // 23 of 80 is 28.75: `100 * 23 / 80` is exact and rounds up; `(23 / 80) * 100` is just under it.
    expect(formatPercent(23, { of: 80 })).toBe('28.8%');
    expect(formatPercent(0, { of: 0 })).toBe('0.0%');
  });
});

describe('sum and mean', () => {
  it('adds values or picked fields in order, and a mean of nothing is NaN unless told otherwise', () => {
    expect(sum([1, 2, 3.5])).toBe(6.5);
    expect(sum([{ n: 2 }, { n: 5 }], (item) => item.n)).toBe(7);
    expect(sum(new Set([4, 6]))).toBe(10);
    expect(sum([])).toBe(0);
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(mean([])).toBeNaN();
    expect(mean([], 0)).toBe(0);
  });
});
