// The one retry policy: how many retries, how long to wait before each (doubling backoff with an
// optional jitter, or the server's own `retry-after` from src/core/retry-after.ts), and the loop
// that applies it. Which failures may be retried stays with each caller, since only it knows its
// errors: the model calls retry rate limits and transient errors (src/llm/retry.ts), the web
// servers' client retries network failures, timeouts, 429 and 5xx but never a final one (a DNS
// failure, the network guard, a refused host: the fallback layer serves those at once,
// servers/shared/http-client.ts). The SDKs' own retries are off; no retry library is a direct
// dependency, and this is the whole of what the harness needs.
import { sleep as sleepFor } from './sleep.js';

/** The wait schedule: the retry loop's (within a RetryLimits) and the MCP host's restarts of a crashed server (src/mcp/server-connection.ts). */
export interface Backoff {
  /** The wait before the first retry, doubled before each next one. */
  baseDelayMs: number;
  /** The longest wait: caps the doubling, and a server's retry-after as `longRetryAfter` says. */
  maxDelayMs: number;
  /**
   * Share of each backoff wait taken off at random (0, the default: none; 0.25: between 75% and
   * 100% of it), so callers that failed together do not all retry at the same moment. A server's
   * retry-after is never shortened.
   */
  jitter?: number;
  /** A retry-after beyond maxDelayMs: `cap` (default) waits maxDelayMs; `give-up` fails now. */
  longRetryAfter?: 'cap' | 'give-up';
}

export interface RetryLimits extends Backoff {
  /** Retries after the first attempt. */
  maxRetries: number;
}

/**
 * The wait in ms before retry number `retry` (1 = the first), or undefined: do not retry (a retry-after too long to honour).
 */
export function backoffDelay(backoff: Backoff, retry: number, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) {
    if (retryAfterMs <= backoff.maxDelayMs) return retryAfterMs;
    return backoff.longRetryAfter === 'give-up' ? undefined : backoff.maxDelayMs;
  }
  const exponential = Math.min(backoff.baseDelayMs * 2 ** (retry - 1), backoff.maxDelayMs);
  const jitter = Math.min(Math.max(backoff.jitter ?? 0, 0), 1);
  return jitter === 0 ? exponential : Math.round(exponential * (1 - jitter * random()));
}

/** Whether to retry after the failure of attempt number `attempt` (1 = the first), and after how long. */
export function retryDelay(limits: RetryLimits, attempt: number, failure: { retryable: boolean; retryAfterMs?: number | undefined }): number | undefined {
  if (!failure.retryable || attempt > limits.maxRetries) return undefined;
  return backoffDelay(limits, attempt, failure.retryAfterMs);
}

export interface RetryLoopOptions {
  /** Whether this error may be retried, and the wait its server asked for. */
  classify: (error: unknown) => { retryable: boolean; retryAfterMs?: number | undefined };
  signal?: AbortSignal;
  /** Replaces the wait (tests record the waits instead of sleeping). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Runs `work` until it succeeds or the policy says stop; the last error is thrown as it was. */
export async function withRetries<T>(limits: RetryLimits, work: (attempt: number) => Promise<T>, options: RetryLoopOptions): Promise<T> {
  const wait = options.sleep ?? sleepFor;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const delay = retryDelay(limits, attempt, options.classify(error));
      if (delay === undefined) throw error;
      await wait(delay, options.signal);
    }
  }
}
