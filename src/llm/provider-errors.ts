// Vendor-neutral error classification: HTTP statuses, transport failures and `retry-after`
// mean the same for every vendor, and the OpenAI and Anthropic SDKs share one generated error
// hierarchy, so one duck-typed classifier serves both. Nothing here imports an SDK: each vendor
// folder's errors.ts passes its SDK's error classes in.
import { type HeaderReader, retryAfterFromHeaders } from '../core/retry-after.js';
import { ProviderError, type ProviderErrorClass } from '../errors/index.js';
import { clip } from '../core/number-format.js';

export interface ClassifiedError {
  errorClass: ProviderErrorClass;
  retryAfterMs?: number;
  message: string;
  /** The provider's own error text, when the failure was an HTTP answer. */
  detail?: string;
  /** The endpoint does not have the model (404, or a 400 naming a missing model): a configuration fault. */
  configFault?: boolean;
  /** The endpoint refused what the harness built into the request (see requestFaultPattern): not the model's fault. */
  requestFault?: boolean;
}

/** Who failed, for messages: the model spec and what the user can check. */
export interface FailureContext {
  spec: string;
  /** e.g. "check DEEPSEEK_API_KEY; base URL https://api.deepseek.com (override with DEEPSEEK_BASE_URL)" */
  hint: string;
}

const contextPattern =
  /context[_ ]length|maximum context|context window|prompt is too long|too many tokens|input token count|exceeds the max(imum)? (number of )?tokens|reduce the length/i;

/** A 400 that names a missing model (DeepSeek "Model Not Exist", "unknown model", "model ... does not exist"). */
const modelMissingPattern = /\bmodel\b[^.;]{0,80}\b(not found|does not exist|not exist)\b|\b(unknown|invalid) model\b/i;

/**
 * A 400 about the request the harness built rather than anything the model wrote: too many or too
 * large images ("Too much media"), a request too large in bytes, a function name or parameter the
 * vendor does not take, history the vendor wants in another form (reasoning that must be sent
 * back, thought signatures, tool-call pairing). Texts as the vendors send them (the mock's rules,
 * test/support/mock-llm/, carry the same texts).
 */
const requestFaultPattern = new RegExp(
  [
    'too much media',
    'too many images',
    '\\bimages?\\b[^.;]{0,60}\\b(exceed|too large|too big|limit)',
    '(request|payload)[^.;]{0,30}\\b(too large|size exceeds|exceeds the (maximum|limit))',
    'exceeds the maximum allowed number of bytes',
    '\\b(function|tool)[ _.]?names?\\b',
    'unsupported (parameter|value)',
    'unknown (parameter|field|name)',
    'unrecognized (request )?(argument|parameter|field)',
    'extra inputs are not permitted',
    'reasoning[_ ]details',
    'reasoning_content',
    'thought[_ ]signature',
    'tool_use_id|tool_result|tool_call_id',
    'multimodal function responses',
    'unsupported mime type',
  ].join('|'),
  'i',
);

/** Vendor error codes that name a request fault whatever the text says. */
const requestFaultCodes = new Set(['unsupported_parameter', 'unsupported_value', 'request_too_large']);

/** An API's message or a network error on one line, cut with an ellipsis. */
const oneLine = { flatten: true, marker: '…' } as const;

/** Maps an HTTP failure to a class and a message naming the model and what to check. */
export function classifyHttpStatus(
  status: number,
  apiMessage: string,
  context: FailureContext,
  extras: { code?: string | null; retryAfterMs?: number } = {},
): ClassifiedError {
  const detail = clip(apiMessage || 'no error message', 500, oneLine);
  const at = `${context.spec}: HTTP ${status}`;
  const retry = extras.retryAfterMs !== undefined ? { retryAfterMs: extras.retryAfterMs } : {};
  if (status === 429) {
    if (extras.code === 'insufficient_quota' || /insufficient.?quota|billing/i.test(detail)) {
      return { errorClass: 'fatal', message: `${at}: quota exhausted (${detail}); check the billing of the account behind the key (${context.hint})` };
    }
    return { errorClass: 'rate_limit', message: `${at}: rate limited (${detail})`, ...retry };
  }
  if (status === 401 || status === 403) {
    return { errorClass: 'auth', message: `${at}: authentication failed (${detail}); ${context.hint}` };
  }
  if (status === 404 || extras.code === 'model_not_found' || (status === 400 && modelMissingPattern.test(detail))) {
    return {
      errorClass: 'invalid_request',
      configFault: true,
      detail,
      message: `${at}: request rejected (${detail}); check the model name and the base URL; ${context.hint}`,
    };
  }
  // 413 is a request too large in bytes (Anthropic: 32 MB), not a context-window overflow.
  if (status === 413 || ((status === 400 || status === 422) && (requestFaultPattern.test(detail) || requestFaultCodes.has(extras.code ?? '')))) {
    return {
      errorClass: 'invalid_request',
      requestFault: true,
      detail,
      message: `${at}: the endpoint refused the request the harness built (${detail}); this is not the model's fault`,
    };
  }
  if (contextPattern.test(detail) || extras.code === 'context_length_exceeded') {
    return { errorClass: 'context_length', message: `${at}: the request exceeds the model's context window (${detail})` };
  }
  if (status === 408 || status === 409 || status >= 500) {
    return { errorClass: 'transient', message: `${at}: server error (${detail})`, ...retry };
  }
  return { errorClass: 'invalid_request', message: `${at}: request rejected (${detail}); ${context.hint}` };
}

const transientCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_ABORTED',
]);
const transientMessage = /terminated|fetch failed|other side closed|socket hang up|network|connection (reset|refused|closed)/i;

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current: unknown = error; current && chain.length < 6; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  return chain;
}

/**
 * Network failures, timeouts, aborts and unparsable bodies: all worth another attempt.
 * Returns undefined when the error is none of these.
 */
export function classifyTransportError(error: unknown, context: FailureContext): ClassifiedError | undefined {
  let connection: string | undefined;
  for (const link of causeChain(error)) {
    if (!(link instanceof Error)) continue;
    const code = (link as { code?: unknown }).code;
    if (link.name === 'TimeoutError') return { errorClass: 'transient', message: `${context.spec}: request timed out (${link.message})` };
    if (link.name === 'AbortError') return { errorClass: 'transient', message: `${context.spec}: request aborted (${link.message})` };
    if (link instanceof SyntaxError) {
      return { errorClass: 'transient', message: `${context.spec}: the server sent a response that is not valid JSON (${clip(link.message, 200, oneLine)})` };
    }
    // The deepest cause names the real problem ("fetch failed" ← "UND_ERR_SOCKET: other side closed").
    if ((typeof code === 'string' && transientCodes.has(code)) || transientMessage.test(link.message)) {
      connection = typeof code === 'string' ? `${code}: ${link.message}` : link.message;
    }
  }
  if (connection === undefined) return undefined;
  return {
    errorClass: 'transient',
    message: `${context.spec}: connection failed (${clip(connection, 200, oneLine)}); is the server reachable? ${context.hint}`,
  };
}

/** The error classes every Stainless-generated SDK (openai, @anthropic-ai/sdk) exports. */
export interface StainlessErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

function apiMessageOf(error: { message: string; error?: unknown }): string {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const text = body?.error?.message ?? body?.message;
  return typeof text === 'string' ? text : error.message;
}

export function classifyStainlessError(error: unknown, classes: StainlessErrorClasses, context: FailureContext): ClassifiedError {
  if (error instanceof ProviderError) {
    return { errorClass: error.errorClass, message: error.message, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) };
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    return { errorClass: 'transient', message: `${context.spec}: request timed out (${error.message})` };
  }
  if (error instanceof classes.APIUserAbortError) {
    return { errorClass: 'transient', message: `${context.spec}: request aborted` };
  }
  if (error instanceof classes.APIConnectionError) {
    return (
      classifyTransportError(error.cause, context) ?? {
        errorClass: 'transient',
        message: `${context.spec}: connection failed (${error.message}); ${context.hint}`,
      }
    );
  }
  if (error instanceof classes.APIError) {
    const failure = error as Error & { status?: unknown; headers?: HeaderReader; code?: string | null; error?: unknown };
    if (typeof failure.status === 'number') {
      const retryAfterMs = retryAfterFromHeaders(failure.headers);
      return classifyHttpStatus(failure.status, apiMessageOf(failure), context, {
        code: failure.code ?? null,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
    }
  }
  return (
    classifyTransportError(error, context) ?? {
      errorClass: 'fatal',
      message: `${context.spec}: ${error instanceof Error ? error.message : String(error)}`,
    }
  );
}
