// The one retry policy (src/core/retry-policy.ts) that the model calls, the embeddings client and
// the web servers' HTTP client share: backoff, jitter, retry-after, and the loop.
import { describe, expect, it } from 'vitest';
import { backoffDelay, retryDelay, withRetries } from '../../src/core/retry-policy.js';

const backoff = { baseDelayMs: 100, maxDelayMs: 500 };

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, exactly when there is no jitter', () => {
    expect([1, 2, 3, 4, 10].map((retry) => backoffDelay(backoff, retry))).toEqual([100, 200, 400, 500, 500]);
  });

  it('takes at most the jitter share off a backoff wait, never adds to it, and leaves a retry-after alone', () => {
    const jittered = { ...backoff, jitter: 0.25 };
    expect(backoffDelay(jittered, 2, undefined, () => 0)).toBe(200);
    expect(backoffDelay(jittered, 2, undefined, () => 0.999_999)).toBe(150);
    expect(backoffDelay(jittered, 2, undefined, () => 0.5)).toBe(175);
    expect(backoffDelay(jittered, 2, 300, () => 0.999_999)).toBe(300);
  });

  it('caps a long retry-after, or gives up on it when the policy says so', () => {
    expect(backoffDelay(backoff, 1, 450)).toBe(450);
    expect(backoffDelay(backoff, 1, 9000)).toBe(500);
    expect(backoffDelay({ ...backoff, longRetryAfter: 'give-up' }, 1, 500)).toBe(500);
    expect(backoffDelay({ ...backoff, longRetryAfter: 'give-up' }, 1, 501)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('retries only a retryable failure and only maxRetries times', () => {
    const limits = { ...backoff, maxRetries: 2 };
    expect(retryDelay(limits, 1, { retryable: true })).toBe(100);
    expect(retryDelay(limits, 2, { retryable: true, retryAfterMs: 42 })).toBe(42);
    expect(retryDelay(limits, 3, { retryable: true })).toBeUndefined();
    expect(retryDelay(limits, 1, { retryable: false })).toBeUndefined();
  });
});

describe('withRetries', () => {
  const transient = new Error('transient');
  const final = new Error('final');
  const classify = (error: unknown) => ({ retryable: error === transient });

  it('retries until the work succeeds, waiting the policy waits in between', async () => {
    const waits: number[] = [];
    const attempts: number[] = [];
    const result = await withRetries(
      { ...backoff, maxRetries: 3 },
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 3) throw transient;
        return 'done';
      },
      { classify, sleep: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe('done');
    expect(attempts).toEqual([1, 2, 3]);
    expect(waits).toEqual([100, 200]);
  });

  it('throws a final error at once and the last retryable one when the retries run out', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    let calls = 0;
    await expect(
      withRetries(
        { ...backoff, maxRetries: 3 },
        async () => {
          calls += 1;
          throw final;
        },
        { classify, sleep },
      ),
    ).rejects.toBe(final);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
    await expect(
      withRetries(
        { ...backoff, maxRetries: 1 },
        async () => {
          throw transient;
        },
        { classify, sleep },
      ),
    ).rejects.toBe(transient);
    expect(waits).toEqual([100]);
  });

  it('stops when the caller aborts instead of waiting for another attempt', async () => {
    const controller = new AbortController();
    let calls = 0;
    const work = async () => {
      calls += 1;
      controller.abort(new Error('stop'));
      throw transient;
    };
    await expect(withRetries({ ...backoff, maxRetries: 5 }, work, { classify, signal: controller.signal })).rejects.toBe(transient);
    expect(calls).toBe(1);
  });
});
