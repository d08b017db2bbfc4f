import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/usage.js';
import { ProviderError, type ProviderErrorClass } from '../../src/errors/index.js';
import { backoffDelay, generateWithRetry, type AttemptRecord } from '../../src/llm/retry.js';
import type { GenerateResponse, ModelDriver } from '../../src/llm/types.js';

/** A driver that fails with the given classes in order, then answers. */
function scriptedDriver(failures: Array<{ errorClass: ProviderErrorClass; retryAfterMs?: number } | 'hang'>): ModelDriver & { calls: number } {
  const driver = {
    id: 'script:test',
    provider: 'script',
    model: 'test',
    acceptsImages: true,
    calls: 0,
    async generate(_request: unknown, options?: { signal?: AbortSignal }): Promise<GenerateResponse> {
      const failure = failures[driver.calls];
      driver.calls += 1;
      if (failure === 'hang') {
        await new Promise((_, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      }
      if (failure && failure !== 'hang')
        throw new ProviderError(
          failure.errorClass,
          `fail ${failure.errorClass}`,
          failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {},
        );
      return { text: 'ok', toolCalls: [], stopReason: 'end', usage: emptyUsage(), latencyMs: 1, warnings: [] };
    },
    classifyError(error: unknown) {
      if (error instanceof ProviderError)
        return { errorClass: error.errorClass, message: error.message, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) };
      return { errorClass: 'fatal' as const, message: String(error) };
    },
  };
  return driver;
}

const request = { messages: [], tools: [], maxTokens: 10 };
const policy = { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 1000, timeoutMs: 0 };

describe('generateWithRetry', () => {
  it('retries rate limits and transient errors, honouring retry-after, and records every attempt', async () => {
    const driver = scriptedDriver([{ errorClass: 'rate_limit', retryAfterMs: 120 }, { errorClass: 'transient' }]);
    const started = Date.now();
    const records: AttemptRecord[] = [];
    const response = await generateWithRetry(driver, request, policy, { onAttempt: (record) => records.push(record) });
    expect(response.text).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    expect(response.attempts.map((attempt) => [attempt.ok, attempt.errorClass, attempt.waitMs])).toEqual([
      [false, 'rate_limit', 120],
      [false, 'transient', 10],
      [true, undefined, undefined],
    ]);
    expect(records).toHaveLength(3);
  });

  it('stops at the retry cap with the final class', async () => {
    const driver = scriptedDriver([{ errorClass: 'transient' }, { errorClass: 'transient' }, { errorClass: 'transient' }, { errorClass: 'transient' }]);
    const error = await generateWithRetry(driver, request, policy).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).errorClass).toBe('transient');
    expect((error as { attempts: AttemptRecord[] }).attempts).toHaveLength(3);
    expect(driver.calls).toBe(3);
  });

  it('fails fast on auth and invalid requests', async () => {
    for (const errorClass of ['auth', 'invalid_request', 'context_length'] as const) {
      const driver = scriptedDriver([{ errorClass }]);
      await expect(generateWithRetry(driver, request, policy)).rejects.toMatchObject({ errorClass });
      expect(driver.calls).toBe(1);
    }
  });

  it('turns a hung request into a transient timeout after the per-attempt budget', async () => {
    const driver = scriptedDriver(['hang', 'hang', 'hang']);
    const error = await generateWithRetry(driver, request, { ...policy, maxRetries: 1, timeoutMs: 100 }).catch((caught: unknown) => caught);
    expect((error as ProviderError).errorClass).toBe('transient');
    expect((error as Error).message).toContain('timed out after 100 ms');
    // The hang never ends by itself: any finish at all proves the budget cut it (the test timeout is the hang guard).
    expect(driver.calls).toBe(2);
  });

  it('backs off exponentially up to the cap', () => {
    expect([1, 2, 3, 10].map((attempt) => backoffDelay({ ...policy, baseDelayMs: 100, maxDelayMs: 500 }, attempt))).toEqual([100, 200, 400, 500]);
  });
});
