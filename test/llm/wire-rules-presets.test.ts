// Provider rules that depend on the model family or the destination, through the real SDKs
// against the wire-level mock (which answers 400 with the vendor's error body when a request
// breaks one): OpenAI reasoning models, DashScope Qwen3, Zhipu images, xAI usage, image types
// per destination, Gemini 3 tool images.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImagePart } from '../../src/core/content.js';
import type { Message } from '../../src/core/messages.js';
import { createDriver } from '../../src/llm/registry.js';
import type { GenerateRequest } from '../../src/llm/types.js';
import type { MockLlm, RecordedRequest } from '../support/mock-llm/index.js';
import { episodeTools, firstRequest, roundOneTurn, taskImage, testKeys, useMockLlm } from './helpers.js';

type Body = Record<string, unknown> & { messages?: Array<{ role: string; content: unknown }> };
const bodyOf = (request: RecordedRequest | undefined) => request?.body as Body;
const expectValid = (mock: MockLlm) => expect(mock.generations().map((request) => request.issues.join('; '))).toEqual(mock.generations().map(() => ''));

async function imageOf(format: 'webp' | 'gif' | 'png'): Promise<ImagePart> {
  const base = sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 200, g: 40, b: 40 } } });
  const bytes = await (format === 'webp' ? base.webp() : format === 'gif' ? base.gif() : base.png()).toBuffer();
  return { type: 'image', mediaType: `image/${format}`, data: bytes.toString('base64') };
}

/** A request whose task image has the given type, and whose second round returns it from a tool. */
function withToolImage(image: ImagePart, callId = 'call_1'): GenerateRequest {
  const messages: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'Look.' }, image] },
    { role: 'assistant', content: [], toolCalls: [{ id: callId, name: 'image_crop', arguments: { image: 'a.png' } }] },
    { role: 'tool', results: [{ callId, name: 'image_crop', content: [{ type: 'text', text: 'cropped' }, image], isError: false }] },
  ];
  return { messages, tools: episodeTools, maxTokens: 64 };
}

describe('OpenAI reasoning models', () => {
  const getMock = useMockLlm();

  it('o3-mini: no parallel_tool_calls, no temperature, max_completion_tokens; the run log says what was not sent', async () => {
    const mock = getMock();
    const driver = await createDriver('openai:o3-mini', { env: { OPENAI_API_KEY: testKeys.openai, OPENAI_BASE_URL: mock.openAiBaseUrl }, timeoutMs: 5_000 });
    mock.enqueue(roundOneTurn, { text: 'done' });
    const first = await driver.generate({ ...firstRequest(await taskImage()), temperature: 0.2 });
    expect(first.toolCalls).toHaveLength(3);
    expect(first.warnings.join(' ')).toMatch(/temperature=0\.2 not sent/);
    expectValid(mock);
    const body = bodyOf(mock.generations()[0]);
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body).not.toHaveProperty('temperature');
    expect(body.max_completion_tokens).toBe(512);
  });

  it('a model the table does not know: a refused parameter is dropped and the request retried, then left out', async () => {
    const mock = getMock();
    const driver = await createDriver('openai:ft-reasoner-x', {
      env: { OPENAI_API_KEY: testKeys.openai, OPENAI_BASE_URL: mock.openAiBaseUrl },
      timeoutMs: 5_000,
    });
    mock.enqueue(
      {
        fault: {
          kind: 'status',
          status: 400,
          message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
          code: 'unsupported_parameter',
          param: 'parallel_tool_calls',
        },
      },
      { text: 'first' },
      { text: 'second' },
    );
    const first = await driver.generate(firstRequest(await taskImage()));
    expect(first.text).toBe('first');
    expect(first.warnings.join(' ')).toMatch(/refused parallel_tool_calls/);
    const second = await driver.generate(firstRequest(await taskImage()));
    expect(second.text).toBe('second');
    const bodies = mock.generations().map(bodyOf);
    expect(bodies.map((body) => 'parallel_tool_calls' in body)).toEqual([true, false, false]);
  });
});

describe('destination quirks', () => {
  const getMock = useMockLlm();

  it('DashScope Qwen3 open models: enable_thinking false on non-streaming calls; body.<field> options add fields', async () => {
    const mock = getMock();
    const env = { DASHSCOPE_API_KEY: 'sk-test-dashscope-0123', QWEN_BASE_URL: mock.baseUrlFor('dashscope') };
    mock.enqueue({ text: 'ok' }, { text: 'ok too' });
    await (await createDriver('qwen:qwen3-8b', { env, timeoutMs: 5_000 })).generate(firstRequest(await taskImage()));
    await (await createDriver('qwen:qwen3-32b?body.top_k=20', { env, timeoutMs: 5_000 })).generate(firstRequest(await taskImage()));
    expectValid(mock);
    expect(bodyOf(mock.generations()[0])).toMatchObject({ enable_thinking: false });
    expect(bodyOf(mock.generations()[1])).toMatchObject({ enable_thinking: false, top_k: 20 });
  });

  it('Zhipu: images travel as bare base64 in image_url.url', async () => {
    const mock = getMock();
    const driver = await createDriver('zhipu:glm-4v-plus', {
      env: { ZHIPU_API_KEY: 'zhipu-test-key-0123', ZHIPU_BASE_URL: mock.baseUrlFor('zhipu') },
      timeoutMs: 5_000,
    });
    mock.enqueue({ text: 'a red field' });
    const image = await taskImage();
    await driver.generate(firstRequest(image));
    expectValid(mock);
    const content = bodyOf(mock.generations()[0]).messages?.[1]?.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(content.find((part) => part.type === 'image_url')?.image_url?.url).toBe(image.data);
  });

  it('xAI: reasoning tokens reported apart from completion_tokens count as output', async () => {
    const mock = getMock();
    const driver = await createDriver('xai:grok-3-mini', {
      env: { XAI_API_KEY: 'xai-test-key-0123456789abcdef', XAI_BASE_URL: mock.baseUrlFor('xai') },
      timeoutMs: 5_000,
    });
    mock.enqueue({ text: 'ok', usage: { inputTokens: 120, outputTokens: 60, reasoningTokens: 45 } });
    const response = await driver.generate(firstRequest(await taskImage()));
    expect(bodyOf(mock.generations()[0]) && mock.generations()[0]?.valid).toBe(true);
    expect(response.usage).toEqual({ inputTokens: 120, outputTokens: 60, cachedTokens: 0 });
  });

  it.each([
    ['xai:grok-4', 'webp', { XAI_API_KEY: 'xai-test-key-0123456789abcdef' }, 'xai', 'XAI_BASE_URL'],
    ['ollama:llava', 'gif', {}, 'ollama', 'OLLAMA_BASE_URL'],
  ] as const)('%s: a %s image (task and tool result) is converted to a type the destination decodes', async (spec, format, env, flavour, variable) => {
    const mock = getMock();
    const driver = await createDriver(spec, { env: { ...env, [variable]: mock.baseUrlFor(flavour) }, timeoutMs: 5_000 });
    mock.enqueue({ text: 'seen' });
    const response = await driver.generate(withToolImage(await imageOf(format)));
    expectValid(mock);
    expect(response.warnings.join(' ')).toMatch(new RegExp(`image/${format} → image/(png|jpeg)`));
    expect(JSON.stringify(bodyOf(mock.generations()[0]))).not.toContain(`image/${format}`);
  });

  it('gemini: a GIF is converted (the API has no GIF); anthropic keeps WebP (it decodes it)', async () => {
    const mock = getMock();
    const gemini = await createDriver('gemini:gemini-2.5-flash', { env: { GEMINI_API_KEY: testKeys.gemini, GEMINI_BASE_URL: mock.url }, timeoutMs: 5_000 });
    const anthropic = await createDriver('anthropic:claude-sonnet-4-6', {
      env: { ANTHROPIC_API_KEY: testKeys.anthropic, ANTHROPIC_BASE_URL: mock.url },
      timeoutMs: 5_000,
    });
    mock.enqueue({ text: 'a' }, { text: 'b' });
    await gemini.generate(withToolImage(await imageOf('gif')));
    await anthropic.generate(withToolImage(await imageOf('webp')));
    expectValid(mock);
    expect(JSON.stringify(bodyOf(mock.generations()[0]))).not.toContain('image/gif');
    expect(JSON.stringify(bodyOf(mock.generations()[1]))).toContain('"media_type":"image/webp"');
  });
});

describe('Gemini tool images by model family', () => {
  const getMock = useMockLlm();

  it('gemini-3: tool images ride inside functionResponse.parts; 2.x keeps them beside the responses', async () => {
    const mock = getMock();
    const env = { GEMINI_API_KEY: testKeys.gemini, GEMINI_BASE_URL: mock.url };
    const png = await imageOf('png');
    mock.enqueue({ text: 'three' }, { text: 'two' });
    await (await createDriver('gemini:gemini-3-pro-preview', { env, timeoutMs: 5_000 })).generate(withToolImage(png));
    await (await createDriver('gemini:gemini-2.5-flash', { env, timeoutMs: 5_000 })).generate(withToolImage(png));
    expectValid(mock);
    type Content = { role: string; parts: Array<Record<string, unknown>> };
    const [three, two] = mock.generations().map((request) => (request.body as { contents: Content[] }).contents[2]!);
    expect(three?.parts).toHaveLength(1);
    expect(three?.parts[0]).toMatchObject({ functionResponse: { name: 'image_crop', parts: [{ inlineData: { mimeType: 'image/png', data: png.data } }] } });
    expect(two?.parts.map((part) => Object.keys(part)[0])).toEqual(['functionResponse', 'text', 'inlineData']);
  });
});
