// The shared error classification: retry-after parsing, HTTP status classes, transport errors.
import { describe, expect, it } from 'vitest';
import { retryAfterFromHeaders } from '../../src/core/retry-after.js';
import { classifyHttpStatus, classifyTransportError } from '../../src/llm/provider-errors.js';

const context = { spec: 'xai:grok-4', hint: 'check XAI_API_KEY; base URL https://api.x.ai/v1 (override with XAI_BASE_URL)' };

describe('retryAfterFromHeaders', () => {
  it('reads retry-after-ms first, then retry-after seconds or an HTTP date', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250.4', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'Sun, 01 Jun 2025 12:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers())).toBeUndefined();
    expect(retryAfterFromHeaders(undefined)).toBeUndefined();
  });
});

describe('classifyHttpStatus', () => {
  it.each([
    [429, 'Rate limit reached for requests', undefined, 'rate_limit'],
    [429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'fatal'],
    [401, 'Incorrect API key provided', undefined, 'auth'],
    [403, 'Permission denied', undefined, 'auth'],
    [400, "This model's maximum context length is 128000 tokens.", 'context_length_exceeded', 'context_length'],
    [413, 'Request exceeds the maximum allowed number of bytes', undefined, 'invalid_request'],
    [400, 'Invalid value for tool_choice', undefined, 'invalid_request'],
    [422, 'Unprocessable entity', undefined, 'invalid_request'],
    [408, 'Request timeout', undefined, 'transient'],
    [500, 'Internal error', undefined, 'transient'],
    [529, 'Overloaded', undefined, 'transient'],
  ] as const)('HTTP %i "%s" → %s', (status, message, code, expected) => {
    const classified = classifyHttpStatus(status, message, context, code ? { code } : {});
    expect(classified.errorClass).toBe(expected);
    expect(classified.message).toContain(`xai:grok-4: HTTP ${status}`);
  });

  it('names the key variable for auth and rejected requests, and keeps retry-after for retryable ones', () => {
    expect(classifyHttpStatus(401, 'bad key', context).message).toContain('check XAI_API_KEY');
    expect(classifyHttpStatus(404, 'model not found', context).message).toMatch(/check the model name and the base URL; check XAI_API_KEY/);
    expect(classifyHttpStatus(503, 'busy', context, { retryAfterMs: 1200 }).retryAfterMs).toBe(1200);
    expect(classifyHttpStatus(400, 'bad', context, { retryAfterMs: 1200 })).not.toHaveProperty('retryAfterMs');
  });
});

describe("request faults: a 400 about what the harness built is not the model's", () => {
  it.each([
    [413, 'Request exceeds the maximum allowed number of bytes'],
    [400, 'messages.3.content.1.image.source.base64: Too much media: 0 document pages + 101 images > 100'],
    [400, 'Request payload size exceeds the limit: 20971520 bytes.'],
    [400, "Invalid 'tools[0].function.name': string does not match pattern."],
    [400, '* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function name. Must start with a letter or an underscore.'],
    [400, "Unsupported parameter: 'temperature' is not supported with this model."],
    [400, 'Gemini models require OpenRouter reasoning details to be preserved in each request.'],
  ] as const)('HTTP %i "%s" → request fault', (status, message) => {
    const classified = classifyHttpStatus(status, message, context);
    expect(classified).toMatchObject({ errorClass: 'invalid_request', requestFault: true });
    expect(classified.message).toContain('not the model');
  });

  it('leaves a 400 about the content, and a context overflow, to the model', () => {
    expect(classifyHttpStatus(400, 'Invalid prompt: your prompt was flagged as potentially violating our usage policy.', context).requestFault).toBeUndefined();
    expect(classifyHttpStatus(400, 'prompt is too long: 210000 tokens > 200000 maximum', context)).toMatchObject({ errorClass: 'context_length' });
  });

  it('classifies a request fault as an infrastructure failure with code request_rejected, excluded from scores', async () => {
    const { classifyFailure } = await import('../../src/runner/failure.js');
    const { ProviderError } = await import('../../src/errors/index.js');
    const verdict = classifyFailure(new ProviderError('invalid_request', 'too much media', { requestFault: true, status: 400 }));
    expect(verdict).toMatchObject({ status: 'infra_failure', kind: 'infra', code: 'request_rejected', requeue: false });
    expect(classifyFailure(new ProviderError('invalid_request', 'flagged', { status: 400 }))).toMatchObject({ status: 'model_failure', kind: 'model' });
  });
});

describe('classifyTransportError', () => {
  it('finds the socket error deep in the cause chain', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const fetchFailed = new TypeError('fetch failed', { cause: socket });
    const wrapped = new Error('Connection error.', { cause: fetchFailed });
    const classified = classifyTransportError(wrapped, context);
    expect(classified?.errorClass).toBe('transient');
    expect(classified?.message).toContain('UND_ERR_SOCKET: other side closed');
    expect(classified?.message).toContain('XAI_BASE_URL');
  });

  it('classifies timeouts, aborts and unparsable bodies, and leaves other errors alone', () => {
    expect(classifyTransportError(new DOMException('The operation timed out.', 'TimeoutError'), context)?.message).toMatch(/timed out/);
    expect(classifyTransportError(new DOMException('This operation was aborted', 'AbortError'), context)?.message).toMatch(/aborted/);
    expect(classifyTransportError(new SyntaxError('Unexpected end of JSON input'), context)?.message).toMatch(/not valid JSON/);
    expect(classifyTransportError(new RangeError('out of range'), context)).toBeUndefined();
  });
});
