// OpenAI-compatible presets and provider configuration: base URLs and keys come from the env
// map handed to the driver (never process.env), text-only presets get placeholders, and a
// missing key fails at driver creation naming the variable to set.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointHint, resolveEndpoint } from '../../src/config/providers.js';
import { ConfigError } from '../../src/errors/index.js';
import { imagePlaceholder } from '../../src/llm/openai/request.js';
import { chatPresets, resolveChatPreset } from '../../src/llm/presets.js';
import { createDriver } from '../../src/llm/registry.js';
import { keyFingerprint, startMockLlm, type MockLlm } from '../support/mock-llm/index.js';
import { firstRequest, resultsFor, roundOneTurn, taskImage, toolImage } from './helpers.js';

type ChatBody = {
  model: string;
  max_tokens?: number;
  max_completion_tokens?: number;
  parallel_tool_calls?: boolean;
  messages: Array<{ role: string; content: unknown }>;
};

describe('OpenAI-compatible presets against the mock', () => {
  let mock: MockLlm;
  const savedKey = process.env.OPENAI_API_KEY;
  beforeEach(async () => {
    mock = await startMockLlm();
    // A key in the real environment must never reach another provider: drivers only read the env map.
    process.env.OPENAI_API_KEY = 'sk-process-env-must-not-leak-000';
  });
  afterEach(async () => {
    await mock.close();
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
  });

  it('ollama:qwen2.5-vl resolves its base URL from OLLAMA_BASE_URL and needs no key', async () => {
    const driver = await createDriver('ollama:qwen2.5-vl', { env: { OLLAMA_BASE_URL: mock.openAiBaseUrl }, timeoutMs: 5_000 });
    expect(driver.id).toBe('ollama:qwen2.5-vl');
    expect(driver.acceptsImages).toBe(true);
    mock.enqueue({ text: 'a red image' });
    const response = await driver.generate(firstRequest(await taskImage()));
    expect(response.text).toBe('a red image');
    const request = mock.generations()[0];
    expect(request?.valid).toBe(true);
    expect(request?.authFingerprint).not.toBe(keyFingerprint('sk-process-env-must-not-leak-000'));
    const body = request?.body as ChatBody;
    expect(body.model).toBe('qwen2.5-vl');
    expect(body.max_tokens).toBe(512);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.parallel_tool_calls).toBeUndefined();
    expect(JSON.stringify(body.messages[1]?.content)).toContain('data:image/png;base64,');
  });

  it('deepseek:deepseek-chat uses DEEPSEEK_API_KEY and DEEPSEEK_BASE_URL and replaces images with placeholders', async () => {
    const key = 'sk-deepseek-test-key-123456';
    const driver = await createDriver('deepseek:deepseek-chat', { env: { DEEPSEEK_API_KEY: key, DEEPSEEK_BASE_URL: mock.url }, timeoutMs: 5_000 });
    expect(driver.acceptsImages).toBe(false);
    mock.enqueue(roundOneTurn, { text: 'done' });
    const first = firstRequest(await taskImage());
    const round1 = await driver.generate(first);
    expect(round1.warnings.join(' ')).toMatch(/text-only/);
    const history = [
      ...first.messages,
      { role: 'assistant' as const, content: [], toolCalls: round1.toolCalls },
      resultsFor(round1.toolCalls, await toolImage()),
    ];
    const round2 = await driver.generate({ ...first, messages: history });
    expect(round2.text).toBe('done');

    const [wire1, wire2] = mock.generations();
    expect(wire1?.path).toBe('/chat/completions');
    expect(wire1?.authFingerprint).toBe(keyFingerprint(key));
    const placeholder = imagePlaceholder(chatPresets.deepseek!);
    expect((wire1?.body as ChatBody).messages[1]?.content).toBe(`What is in this image?\n${placeholder}`);
    const body2 = wire2?.body as ChatBody;
    expect(wire2?.valid).toBe(true);
    expect(JSON.stringify(body2)).not.toContain('data:image');
    // No follow-up image message for a text-only model: the tool message carries the placeholder.
    expect(body2.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'tool']);
    expect(body2.messages[5]?.content).toContain(placeholder);
  });

  it('reports a server that is not running as a transient connection failure naming the base URL variable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const driver = await createDriver('vllm:Qwen/Qwen2.5-VL-7B-Instruct', { env: { VLLM_BASE_URL: `http://127.0.0.1:${port}/v1` }, timeoutMs: 5_000 });
    const error = await driver.generate(firstRequest(await taskImage())).catch((caught: unknown) => caught);
    const classified = driver.classifyError(error);
    expect(classified.errorClass).toBe('transient');
    expect(classified.message).toMatch(/ECONNREFUSED/);
    expect(classified.message).toContain('VLLM_BASE_URL');
  });
});

describe('provider configuration', () => {
  it.each([
    ['deepseek:deepseek-chat', /DEEPSEEK_API_KEY/],
    ['anthropic:claude-sonnet-4-6', /ANTHROPIC_API_KEY/],
    ['gemini:gemini-2.5-flash', /GEMINI_API_KEY \(or GOOGLE_API_KEY\)/],
    ['openai:gpt-4o', /OPENAI_API_KEY/],
    ['qwen:qwen-vl-max', /DASHSCOPE_API_KEY/],
  ])('fails at creation of %s without a key, naming the variable', async (spec, variable) => {
    process.env.OPENAI_API_KEY = 'sk-in-process-env-but-not-in-the-map';
    try {
      const error = await createDriver(spec, { env: {}, timeoutMs: 1_000 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(variable);
      expect((error as Error).message).toContain(spec);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('takes GOOGLE_API_KEY when GEMINI_API_KEY is absent, and uses default base URLs', () => {
    const gemini = resolveEndpoint('gemini', { GOOGLE_API_KEY: 'AIza-google' });
    expect(gemini.apiKey).toBe('AIza-google');
    expect(gemini.keyVariable).toBe('GOOGLE_API_KEY');
    expect(gemini.baseUrl).toBe('https://generativelanguage.googleapis.com');
    const ollama = resolveEndpoint('ollama', {});
    expect(ollama.baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(ollama.apiKey).toBeUndefined();
    expect(endpointHint(ollama)).toContain('override with OLLAMA_BASE_URL');
    expect(resolveEndpoint('qwen', { DASHSCOPE_API_KEY: 'k', DASHSCOPE_BASE_URL: 'http://127.0.0.1:9/v1/' }).baseUrl).toBe('http://127.0.0.1:9/v1');
  });

  it('rejects a base URL that is not http(s), naming the variable', () => {
    expect(() => resolveEndpoint('xai', { XAI_API_KEY: 'k', XAI_BASE_URL: 'api.x.ai/v1' })).toThrow(/XAI_BASE_URL="api.x.ai\/v1" is not a URL/);
    expect(() => resolveEndpoint('together', { TOGETHER_API_KEY: 'k', TOGETHER_BASE_URL: 'ftp://host' })).toThrow(/must start with http/);
  });

  it('applies per-run model options and rejects unknown ones', () => {
    const { model, preset } = resolveChatPreset('ollama', 'llava:13b?images=0&tokens=max_completion_tokens&parallel=1');
    expect(model).toBe('llava:13b');
    expect(preset).toMatchObject({ acceptsImages: false, maxTokensField: 'max_completion_tokens', sendParallelToolCalls: true });
    expect(chatPresets.ollama?.acceptsImages).toBe(true);
    expect(() => resolveChatPreset('ollama', 'llava?vision=1')).toThrow(/unknown model option "vision"/);
    expect(() => resolveChatPreset('ollama', 'llava?images=maybe')).toThrow(/images=maybe/);
  });

  it('knows every preset the brief names, and the unknown ones fail with the list', async () => {
    for (const name of ['ollama', 'vllm', 'lmstudio', 'llamacpp', 'xai', 'deepseek', 'zhipu', 'qwen', 'dashscope', 'openrouter', 'together']) {
      expect(chatPresets[name]).toBeDefined();
    }
    await expect(createDriver('mistral:large', { env: {}, timeoutMs: 1 })).rejects.toThrow(/unknown model provider "mistral".*ollama/);
  });
});
