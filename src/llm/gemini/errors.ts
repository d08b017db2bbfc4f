// Gemini failures → error classes. The SDK's ApiError carries only the status and the JSON body
// as its message, so the driver captures the response headers itself (for `retry-after`) and
// the body's google.rpc.RetryInfo `retryDelay` is honoured too.
import { ProviderError } from '../../errors/index.js';
import { retryAfterFromHeaders } from '../../core/retry-after.js';
import { classifyHttpStatus, classifyTransportError, type ClassifiedError, type FailureContext } from '../provider-errors.js';

interface GeminiErrorBody {
  error?: { message?: unknown; status?: unknown; details?: unknown };
}

function parseBody(message: string): GeminiErrorBody | undefined {
  try {
    const value: unknown = JSON.parse(message);
    return value && typeof value === 'object' ? (value as GeminiErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `retryDelay: "17s"` / `"0.250s"` from a RetryInfo detail, in ms.
 * @internal Exported for its tests.
 */
export function retryDelayFromBody(body: GeminiErrorBody | undefined): number | undefined {
  const details = Array.isArray(body?.error?.details) ? (body.error.details as unknown[]) : [];
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim()) : null;
    if (match?.[1]) return Math.round(Number.parseFloat(match[1]) * 1000);
  }
  return undefined;
}

export interface GeminiFailure {
  error: unknown;
  /** Headers of the failed HTTP response, when there was one. */
  headers?: Headers;
}

export function classifyGeminiError(failure: GeminiFailure, apiErrorClass: abstract new (...args: never[]) => Error, context: FailureContext): ClassifiedError {
  const { error } = failure;
  if (error instanceof ProviderError) {
    return { errorClass: error.errorClass, message: error.message, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) };
  }
  const status = (error as { status?: unknown } | null)?.status;
  if (error instanceof apiErrorClass && typeof status === 'number') {
    const body = parseBody(error.message);
    const apiMessage = typeof body?.error?.message === 'string' ? body.error.message : error.message;
    const retryAfterMs = retryAfterFromHeaders(failure.headers) ?? retryDelayFromBody(body);
    // Gemini answers a bad key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID): that is auth.
    if (status === 400 && /api key not valid|API_KEY_INVALID/i.test(`${apiMessage} ${JSON.stringify(body?.error?.details ?? '')}`)) {
      return { errorClass: 'auth', message: `${context.spec}: HTTP 400: authentication failed (${apiMessage}); ${context.hint}` };
    }
    return classifyHttpStatus(status, apiMessage, context, {
      code: typeof body?.error?.status === 'string' ? body.error.status : null,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  return (
    classifyTransportError(error, context) ?? { errorClass: 'fatal', message: `${context.spec}: ${error instanceof Error ? error.message : String(error)}` }
  );
}
