// Requests real APIs reject, proven through the real SDKs against the mock, which enforces each
// vendor's per-request limits (test/support/mock-llm/rules-limits.ts): the harness elides the
// oldest tool images to stay within a vendor's image count and bytes (with a note to the model
// and an audit entry), builds function names Gemini takes, and when a vendor still refuses what
// the harness built, that is a request fault (`request_rejected`), not the model's failure.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImagePart } from '../../src/core/content.js';
import type { Message } from '../../src/core/messages.js';
import { ProviderError } from '../../src/errors/index.js';
import { fitRequestImages, requestImageLimitsFor } from '../../src/llm/request-image-limits.js';
import { generateWithRetry } from '../../src/llm/retry.js';
import type { GenerateRequest } from '../../src/llm/types.js';
import { FunctionNameTable } from '../../src/mcp/function-names.js';
import { imageDeliveryOf } from '../../src/media/request-images.js';
import { classifyFailure } from '../../src/runner/failure.js';
import { startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { driverFor, episodeTools, policy, taskImage, toolImage } from './helpers.js';

let mock: MockLlm;
beforeEach(async () => {
  mock = await startMockLlm({ fallback: { text: 'ok' } });
});
afterEach(async () => {
  await mock?.close();
});

/** `rounds` rounds of one call each returning `perRound` copies of `image`, then a user turn. */
function imageHistory(task: ImagePart, image: ImagePart, rounds: number, perRound: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Look at the crops.' }, task] }];
  for (let round = 1; round <= rounds; round += 1) {
    const id = `call_${round}`;
    messages.push({ role: 'assistant', content: [], toolCalls: [{ id, name: 'image_crop', arguments: { image: 'a.png' } }] });
    messages.push({
      role: 'tool',
      results: [
        {
          callId: id,
          name: 'image_crop',
          content: [{ type: 'text', text: `crops of round ${round}` }, ...Array.from({ length: perRound }, () => ({ ...image }))],
          isError: false,
        },
      ],
    });
  }
  return messages;
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('per-request image limits', () => {
  it('anthropic: 12 rounds x 9 images (109 with the task image) are refused as sent, and pass once the oldest tool images are elided', async () => {
    const driver = await driverFor('anthropic', mock);
    const task = await taskImage();
    const request: GenerateRequest = { messages: imageHistory(task, await toolImage(), 12, 9), tools: episodeTools, maxTokens: 64 };
    const refused = await failureOf(generateWithRetry(driver, request, policy()));
    expect(refused.requestFault).toBe(true);
    expect(refused.message).toMatch(/Too much media: 0 document pages \+ 109 images > 100/);
    expect(classifyFailure(refused)).toMatchObject({ status: 'infra_failure', code: 'request_rejected' });

    const fitted = fitRequestImages(request, requestImageLimitsFor('anthropic'));
    expect(fitted.elided).toBe(9);
    expect(fitted.warnings[0]).toMatch(/^9 image\(s\) elided from this request, oldest tool images first: over Anthropic's per-request limit of 100 images/);
    const response = await driver.generate(fitted.request);
    expect(response.text).toBe('ok');
    const sent = mock.generations().at(-1)!;
    expect(sent.valid).toBe(true);
    // The oldest round's images became notes; the task image and the newer rounds' images stayed.
    const messages = sent.body as { messages: Array<{ role: string; content: Array<{ type: string; content?: Array<{ type: string; text?: string }> }> }> };
    const firstResult = messages.messages[2]!.content[0]!.content!;
    expect(firstResult.filter((block) => block.type === 'image')).toHaveLength(0);
    expect(firstResult.filter((block) => /^\[image elided: over Anthropic's per-request limit/.test(block.text ?? ''))).toHaveLength(9);
    expect(messages.messages[0]!.content.some((block) => block.type === 'image')).toBe(true);
    // The caller's history is untouched, and the audit lists each elided image as dropped with the reason.
    expect(request.messages).toEqual(imageHistory(task, await toolImage(), 12, 9));
    const audit = await imageDeliveryOf(fitted.request.messages, true);
    const dropped = audit.filter((entry) => entry.status === 'dropped');
    expect(dropped).toHaveLength(9);
    expect(dropped.every((entry) => entry.origin === 'tool' && entry.callId === 'call_1' && entry.reason?.startsWith('over_request_limit:'))).toBe(true);
  });

  it('gemini: a request of 20 MB or more is refused as sent, and passes once the oldest tool images are elided', async () => {
    const driver = await driverFor('gemini', mock);
    // 5 MiB of PNG-headed bytes per image (base64 ~6.7 MiB): three of them pass 20 MB.
    const big = Buffer.alloc(5 * 1024 * 1024, 7);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
    const image: ImagePart = { type: 'image', mediaType: 'image/png', data: big.toString('base64') };
    const request: GenerateRequest = { messages: imageHistory(await taskImage(), image, 3, 1), tools: episodeTools, maxTokens: 64 };
    const refused = await failureOf(generateWithRetry(driver, request, policy()));
    expect(refused.requestFault).toBe(true);
    expect(refused.message).toMatch(/Request payload size exceeds the limit/);
    const fitted = fitRequestImages(request, requestImageLimitsFor('gemini'));
    expect(fitted.elided).toBe(1);
    await driver.generate(fitted.request);
    expect(mock.generations().at(-1)?.valid).toBe(true);
  });

  it("has no limits for OpenAI-compatible servers, and OpenAI's for openai and openai-responses", () => {
    expect(requestImageLimitsFor('vllm')).toBeUndefined();
    expect(requestImageLimitsFor('openai')).toMatchObject({ maxImages: 500, maxBytes: 50 * 1024 * 1024, measure: 'image-bytes' });
    expect(requestImageLimitsFor('openai-responses')).toMatchObject({ maxImages: 500 });
  });
});

describe('Gemini function names', () => {
  it('a tool whose name starts with a digit gets a function name Gemini takes; the old name is refused as a request fault', async () => {
    const driver = await driverFor('gemini', mock);
    const table = new FunctionNameTable(['3d-scanner/scan']);
    const functionName = table.functionNameOf('3d-scanner/scan')!;
    expect(functionName).toBe('_3d-scanner__scan');
    const tool = { ...episodeTools[0]!, name: functionName, canonicalName: '3d-scanner/scan' };
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'scan' }] }];
    await driver.generate({ messages, tools: [tool], maxTokens: 16 });
    expect(mock.generations().at(-1)?.valid).toBe(true);
    const refused = await failureOf(generateWithRetry(driver, { messages, tools: [{ ...tool, name: '3d-scanner__scan' }], maxTokens: 16 }, policy()));
    expect(refused.message).toMatch(/Invalid function name. Must start with a letter or an underscore/);
    expect(classifyFailure(refused)).toMatchObject({ kind: 'infra', code: 'request_rejected' });
  });
});
