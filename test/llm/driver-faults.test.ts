// Fault handling per vendor, through generateWithRetry and the real SDKs against the mock:
// rate limits with retry-after, server errors past the retry cap, timeouts, dropped
// connections, broken JSON, malformed tool arguments, and auth / request errors that name
// the variable to fix.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors/index.js';
import { generateWithRetry, type AttemptRecord } from '../../src/llm/retry.js';
import type { GenerateRequest } from '../../src/llm/types.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { driverFor, episodeTools, policy, vendors, type VendorName } from './helpers.js';

const request: GenerateRequest = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Read the sign in media/sign.jpg' }] }],
  tools: episodeTools,
  maxTokens: 128,
};

const keyVariable: Record<VendorName, string> = {
  openai: 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
};
// Wire formats with argument text fail to parse; those with JSON values get a non-object.
const textArguments = new Set<VendorName>(['openai', 'openai-responses']);

async function expectProviderError(promise: Promise<unknown>): Promise<ProviderError & { attempts: AttemptRecord[] }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError & { attempts: AttemptRecord[] };
}

describe.each(vendors)('%s driver faults', (vendor) => {
  let mock: MockLlm;
  beforeEach(async () => {
    mock = await startMockLlm();
  });
  afterEach(async () => {
    await mock.close();
  });

  it('retries a 429 after the retry-after delay and records both attempts', async () => {
    const driver = await driverFor(vendor, mock);
    // OpenAI gets the seconds header, the others the milliseconds one: both must be honoured.
    const fault = vendor === 'openai' ? { retryAfterSeconds: 1 } : { retryAfterMs: 400 };
    const expectedWait = vendor === 'openai' ? 1000 : 400;
    mock.enqueue({ fault: { kind: 'status', status: 429, ...fault } }, { text: 'ok after rate limit' });
    const result = await generateWithRetry(driver, request, policy({ baseDelayMs: 5 }));
    expect(result.text).toBe('ok after rate limit');
    expect(result.attempts.map((attempt) => attempt.errorClass ?? 'ok')).toEqual(['rate_limit', 'ok']);
    expect(result.attempts[0]?.waitMs).toBe(expectedWait);
    const [first, second] = mock.generations();
    expect(mock.generations()).toHaveLength(2);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(expectedWait - 30);
  });

  it('gives up on repeated 500s after maxRetries + 1 attempts with a transient error', async () => {
    const driver = await driverFor(vendor, mock);
    const serverError = { fault: { kind: 'status' as const, status: 500, message: 'upstream exploded' } };
    mock.enqueue(serverError, serverError, serverError, { text: 'never reached' });
    const error = await expectProviderError(generateWithRetry(driver, request, policy({ maxRetries: 2 })));
    expect(error.errorClass).toBe('transient');
    expect(error.message).toContain('upstream exploded');
    expect(error.attempts).toHaveLength(3);
    expect(mock.generations()).toHaveLength(3);
    expect(mock.pending()).toBe(1);
  });

  it('turns a reply slower than the harness timeout into a transient error', async () => {
    const driver = await driverFor(vendor, mock);
    mock.enqueue({ text: 'too late', delayMs: 30_000 });
    const error = await expectProviderError(generateWithRetry(driver, request, policy({ maxRetries: 0, timeoutMs: 300 })));
    expect(error.errorClass).toBe('transient');
    // A reply that was waited for would be "too late" text, not an error: the timeout cut it, with no clock.
    expect(error.message).toMatch(/timed out/);
    expect(mock.generations()).toHaveLength(1);
  });

  it('classifies the SDK client timeout (DriverContext.timeoutMs) as transient', async () => {
    const driver = await driverFor(vendor, mock, 300);
    // The reply is held a hundred times the client timeout, so even a late timer fires first.
    mock.enqueue({ text: 'too late', delayMs: 30_000 });
    const error = await expectProviderError(generateWithRetry(driver, request, policy({ maxRetries: 0, timeoutMs: 0 })));
    expect(error.errorClass).toBe('transient');
    expect(error.message).toMatch(/timed out|aborted/);
  });

  it.each(['mid-body', 'before-headers'] as const)('retries after the connection drops (%s)', async (when) => {
    const driver = await driverFor(vendor, mock);
    mock.enqueue({ text: 'lost', fault: { kind: 'drop', when } }, { text: 'second try' });
    const result = await generateWithRetry(driver, request, policy());
    expect(result.text).toBe('second try');
    expect(result.attempts[0]?.errorClass).toBe('transient');
    expect(mock.generations()).toHaveLength(2);
  });

  it('retries a 200 whose body is not valid JSON', async () => {
    const driver = await driverFor(vendor, mock);
    mock.enqueue({ text: 'garbled', fault: { kind: 'invalid_json' } }, { text: 'clean' });
    const result = await generateWithRetry(driver, request, policy());
    expect(result.text).toBe('clean');
    expect(result.attempts[0]?.errorClass).toBe('transient');
  });

  it('reports malformed tool arguments as argumentsError plus a warning, never as {}', async () => {
    const driver = await driverFor(vendor, mock);
    mock.enqueue({
      toolCalls: [
        { name: 'ocr_read_text', rawArguments: '{"image": "media/sign.jpg"' },
        { name: 'vision_detect_objects', arguments: { image: 'media/sign.jpg' } },
      ],
    });
    const response = await driver.generate(request);
    const [broken, fine] = response.toolCalls;
    expect(broken?.argumentsError).toMatch(textArguments.has(vendor) ? /not valid JSON/ : /must be a JSON object/);
    expect(broken?.arguments).toBeUndefined();
    expect(broken?.argumentsText).toContain('"image": "media/sign.jpg"');
    expect(fine?.argumentsError).toBeUndefined();
    expect(fine?.arguments).toEqual({ image: 'media/sign.jpg' });
    expect(response.warnings.some((warning) => warning.includes('ocr_read_text'))).toBe(true);
  });

  it('fails a 401 at once as auth, naming the model and the key variable', async () => {
    const driver = await driverFor(vendor, mock);
    mock.enqueue({ fault: { kind: 'status', status: 401, message: 'invalid x-api-key' } }, { text: 'never' });
    const error = await expectProviderError(generateWithRetry(driver, request, policy()));
    expect(error.errorClass).toBe('auth');
    expect(error.message).toContain(driver.id);
    expect(error.message).toContain(keyVariable[vendor]);
    expect(error.attempts).toHaveLength(1);
  });

  it('classifies a rejected request and an over-long prompt apart', async () => {
    const driver = await driverFor(vendor, mock);
    mock.enqueue(
      { fault: { kind: 'status', status: 404, message: 'model not found' } },
      { fault: { kind: 'status', status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' } },
    );
    const rejected = await expectProviderError(generateWithRetry(driver, request, policy()));
    expect(rejected.errorClass).toBe('invalid_request');
    expect(rejected.message).toMatch(/check the model name/);
    expect(rejected.message).toContain(keyVariable[vendor]);
    const tooLong = await expectProviderError(generateWithRetry(driver, request, policy()));
    expect(tooLong.errorClass).toBe('context_length');
  });
});
