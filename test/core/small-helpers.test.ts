// The one home of each small helper (src/core): the CSV writer, the sleep and the retry-after parser.
import { describe, expect, it } from 'vitest';
import { csvText } from '../../src/core/csv.js';
import { retryAfterFromHeaders } from '../../src/core/retry-after.js';
import { sleep } from '../../src/core/sleep.js';

describe('csvText', () => {
  it('quotes only fields with a comma, quote or line break, and ends every line', () => {
    expect(
      csvText([
        ['a', 'b,c'],
        ['say "hi"', 'x\ny'],
      ]),
    ).toBe('a,"b,c"\n"say ""hi""","x\ny"\n');
    expect(
      csvText(
        [
          ['h1', 'h2'],
          ['1', ''],
        ],
        '\r\n',
      ),
    ).toBe('h1,h2\r\n1,\r\n');
  });
});

describe('sleep', () => {
  it('rejects with the reason the caller aborted with, at once or while waiting', async () => {
    const reason = new Error('stop now');
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('resolves after the delay when nothing aborts', async () => {
    await expect(sleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});

describe('retryAfterFromHeaders', () => {
  it('reads retry-after-ms, delta seconds and HTTP dates, in milliseconds', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250.4', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '7' }))).toBe(7000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 0)).toBe(10_000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});
