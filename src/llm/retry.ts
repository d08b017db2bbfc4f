// The harness owns retries: SDKs run with maxRetries 0, and this policy decides, per error
// class, whether to wait and try again. Every attempt is reported so the store can keep it.
import type { Switches } from '../config/switches.js';
import { ProviderError, type ProviderErrorClass } from '../errors/index.js';
import { redactText } from '../log/redact.js';
import type { GenerateOptions, GenerateRequest, GenerateResponse, ModelDriver } from './types.js';
import { retryDelay, type RetryLimits } from '../core/retry-policy.js';
import { sleep } from '../core/sleep.js';

/** The retry limits and backoff of src/core/retry-policy.ts, plus a timeout per attempt. */
export interface RetryPolicy extends RetryLimits {
  /** Per-attempt timeout (M3_LLM_TIMEOUT); 0 disables. */
  timeoutMs: number;
}

/** @internal The shared backoff, under the name the retry tests have always imported. */
export { backoffDelay } from '../core/retry-policy.js';

export interface AttemptRecord {
  attempt: number;
  startedAt: number;
  latencyMs: number;
  ok: boolean;
  errorClass?: ProviderErrorClass;
  message?: string;
  waitMs?: number;
}

/**
 * The retry policy of every model call (agent, judges): M3_LLM_MAX_RETRIES retries,
 * M3_LLM_TIMEOUT per attempt, backoff from 1 s doubling up to 60 s with up to a quarter taken off
 * at random (many tasks of a batch hit the same rate limit at once), or the server's retry-after,
 * capped at 60 s.
 */
export function retryPolicyFrom(switches: Pick<Switches, 'M3_LLM_MAX_RETRIES' | 'M3_LLM_TIMEOUT'>): RetryPolicy {
  return { maxRetries: switches.M3_LLM_MAX_RETRIES, baseDelayMs: 1000, maxDelayMs: 60_000, jitter: 0.25, timeoutMs: switches.M3_LLM_TIMEOUT * 1000 };
}

/** The final failure of a model call, with every attempt made (the store keeps them). */
export class ProviderAttemptsError extends ProviderError {
  readonly attempts: readonly AttemptRecord[];
  constructor(
    classified: { errorClass: ProviderErrorClass; message: string; retryAfterMs?: number; configFault?: boolean; requestFault?: boolean },
    attempts: readonly AttemptRecord[],
    cause: unknown,
  ) {
    super(classified.errorClass, classified.message, {
      cause,
      configFault: classified.configFault === true || (cause instanceof ProviderError && cause.configFault),
      requestFault: classified.requestFault === true || (cause instanceof ProviderError && cause.requestFault),
      ...(classified.retryAfterMs !== undefined ? { retryAfterMs: classified.retryAfterMs } : {}),
      ...(cause instanceof ProviderError && cause.status !== undefined ? { status: cause.status } : {}),
    });
    this.attempts = attempts;
  }
}

const retryable: ReadonlySet<ProviderErrorClass> = new Set(['rate_limit', 'transient']);

function attemptSignal(outer: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal | undefined; timedOut: () => boolean; dispose: () => void } {
  if (timeoutMs <= 0) return { signal: outer, timedOut: () => false, dispose: () => undefined };
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`LLM request timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Calls the driver with per-attempt timeout and retries for rate limits and transient errors.
 * Throws a ProviderError (with the final class) when attempts are exhausted or the error is final.
 */
export async function generateWithRetry(
  driver: ModelDriver,
  request: GenerateRequest,
  policy: RetryPolicy,
  options: GenerateOptions & { onAttempt?: (record: AttemptRecord) => void } = {},
): Promise<GenerateResponse & { attempts: AttemptRecord[] }> {
  const attempts: AttemptRecord[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const startedAt = Date.now();
    const scoped = attemptSignal(options.signal, policy.timeoutMs);
    try {
      const response = await driver.generate(request, {
        ...(scoped.signal ? { signal: scoped.signal } : {}),
        ...(options.onImageDelivery ? { onImageDelivery: options.onImageDelivery } : {}),
      });
      const record: AttemptRecord = { attempt, startedAt, latencyMs: Date.now() - startedAt, ok: true };
      attempts.push(record);
      options.onAttempt?.(record);
      return { ...response, attempts };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      const raw = scoped.timedOut()
        ? { errorClass: 'transient' as const, message: `${driver.id}: request timed out after ${policy.timeoutMs} ms` }
        : driver.classifyError(error);
      // Provider text enters the harness here (attempt records, events, the store): redact it once.
      const classified = { ...raw, message: redactText(raw.message) };
      const waitMs = retryDelay(policy, attempt, { retryable: retryable.has(classified.errorClass), retryAfterMs: classified.retryAfterMs });
      const record: AttemptRecord = {
        attempt,
        startedAt,
        latencyMs: Date.now() - startedAt,
        ok: false,
        errorClass: classified.errorClass,
        message: classified.message,
        ...(waitMs !== undefined ? { waitMs } : {}),
      };
      attempts.push(record);
      options.onAttempt?.(record);
      if (waitMs === undefined) throw new ProviderAttemptsError(classified, attempts, error);
      await sleep(waitMs, options.signal);
    } finally {
      scoped.dispose();
    }
  }
}
