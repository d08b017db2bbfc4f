// The transport policy's encode memo (src/media/encode-memo.ts): one encode per key, concurrent
// callers share it, a failure is tried again, and the oldest entries make room past the bound.
import { describe, expect, it } from 'vitest';
import { inputDigest, memoised } from '../../src/media/encode-memo.js';

describe('encode memo', () => {
  it('encodes once per key and shares a pending encode', async () => {
    let runs = 0;
    const make = async () => {
      runs += 1;
      return Buffer.from('encoded');
    };
    const [first, second] = await Promise.all([memoised('memo-test|a', make), memoised('memo-test|a', make)]);
    const third = await memoised('memo-test|a', make);
    expect(runs).toBe(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
    await memoised('memo-test|b', make);
    expect(runs).toBe(2);
  });

  it('does not keep a failed encode', async () => {
    await expect(memoised('memo-test|fails', async () => Promise.reject(new Error('corrupt')))).rejects.toThrow('corrupt');
    await Promise.resolve();
    expect(await memoised('memo-test|fails', async () => true)).toBe(true);
  });

  it('lets the oldest entries go past 64 and keeps the recently used', async () => {
    let runs = 0;
    const make = async () => {
      runs += 1;
      return Buffer.alloc(1);
    };
    for (let index = 0; index < 64; index += 1) await memoised(`memo-test|bound-${index}`, make);
    await memoised('memo-test|bound-0', make); // used again: now the newest
    await memoised('memo-test|bound-64', make); // one past the bound: bound-1 goes
    expect(runs).toBe(65);
    await memoised('memo-test|bound-0', make);
    expect(runs).toBe(65);
    await memoised('memo-test|bound-1', make);
    expect(runs).toBe(66);
  });

  it('names an input by its bytes', () => {
    expect(inputDigest(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
