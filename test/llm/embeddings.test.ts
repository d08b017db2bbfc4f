// The embeddings seam against the mock's /v1/embeddings: order, batching, determinism,
// similarity that means something, and errors classified like chat errors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, ProviderError } from '../../src/errors/index.js';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { createEmbeddingClient, parseEmbeddingSpec } from '../../src/llm/embeddings/client.js';
import { keyFingerprint, mockEmbedding, startMockLlm, type MockLlm } from '../support/mock-llm/index.js';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe('embedding client', () => {
  let mock: MockLlm;
  beforeEach(async () => {
    mock = await startMockLlm({ embeddingDimensions: 48 });
  });
  afterEach(async () => {
    await mock.close();
  });

  it('embeds in batches, keeps input order, and sends the configured key', async () => {
    const client = createEmbeddingClient({
      spec: 'openai:text-embedding-3-small',
      env: { OPENAI_API_KEY: 'sk-embed-test-000111', OPENAI_BASE_URL: mock.openAiBaseUrl },
      batchSize: 2,
    });
    const texts = ['crop the image to the red box', 'crop image to red box', 'weather in Paris tomorrow', '', 'detect objects'];
    const vectors = await client.embed(texts);
    expect(vectors).toHaveLength(5);
    expect(vectors.every((vector) => vector.length === 48)).toBe(true);
    expect(vectors[0]).toEqual(mockEmbedding(texts[0]!, 48));
    expect(vectors[2]).toEqual(mockEmbedding(texts[2]!, 48));

    const requests = mock.requests.filter((request) => request.endpoint === 'embeddings');
    expect(requests.map((request) => (request.body as { input: string[] }).input.length)).toEqual([2, 2, 1]);
    expect(requests.every((request) => request.valid && (request.body as { encoding_format?: string }).encoding_format === 'float')).toBe(true);
    expect(requests[0]?.authFingerprint).toBe(keyFingerprint('sk-embed-test-000111'));
    expect(cosine(vectors[0]!, vectors[1]!)).toBeGreaterThan(cosine(vectors[0]!, vectors[2]!));
    expect(await client.embed([])).toEqual([]);
  });

  it('works with a keyless local preset and passes dimensions through', async () => {
    const client = createEmbeddingClient({ spec: 'ollama:nomic-embed-text', env: { OLLAMA_BASE_URL: mock.openAiBaseUrl }, dimensions: 16 });
    const [vector] = await client.embed(['hello world']);
    expect(vector).toHaveLength(16);
    expect((mock.requests[0]?.body as { model: string }).model).toBe('nomic-embed-text');
  });

  it('rejects specs that are not OpenAI-compatible, and reports HTTP failures as ProviderError', async () => {
    expect(() => createEmbeddingClient({ spec: 'anthropic:claude', env: {} })).toThrow(ConfigError);
    expect(() => createEmbeddingClient({ spec: 'text-embedding-3-small', env: {} })).toThrow(/provider:model/);
    const client = createEmbeddingClient({ spec: 'vllm:bge-m3', env: { VLLM_BASE_URL: mock.openAiBaseUrl } });
    mock.failEmbeddings({ kind: 'status', status: 404, message: 'The model `bge-m3` does not exist.' }, { kind: 'status', status: 429, retryAfterMs: 750 });
    const missing = await client.embed(['x']).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(ProviderError);
    expect((missing as ProviderError).errorClass).toBe('invalid_request');
    expect((missing as Error).message).toMatch(/vllm:bge-m3: HTTP 404: request rejected \(The model `bge-m3` does not exist.\); check the model name/);
    const limited = (await client.embed(['x']).catch((caught: unknown) => caught)) as ProviderError;
    expect([limited.errorClass, limited.retryAfterMs]).toEqual(['rate_limit', 750]);
    expect(await client.embed(['x'])).toHaveLength(1);
  });

  it('retries rate limits and server errors with the harness policy, honouring retry-after', async () => {
    const client = createEmbeddingClient({
      spec: 'vllm:bge-m3',
      env: { VLLM_BASE_URL: mock.openAiBaseUrl },
      retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 2_000 },
    });
    mock.failEmbeddings({ kind: 'status', status: 429, retryAfterMs: 40 }, { kind: 'status', status: 503 });
    expect(await client.embed(['x'])).toHaveLength(1);
    expect(mock.requests.filter((request) => request.endpoint === 'embeddings')).toHaveLength(3);
    mock.failEmbeddings({ kind: 'status', status: 404, message: 'no such model' });
    await expect(client.embed(['x'])).rejects.toThrow(/HTTP 404/);
    expect(mock.requests.filter((request) => request.endpoint === 'embeddings')).toHaveLength(4);
  });

  it('is the client behind the step evaluator: one spec format, @baseUrl override, key from a named variable', async () => {
    expect(parseEmbeddingSpec('ollama:nomic-embed-text:latest')).toEqual({ provider: 'ollama', model: 'nomic-embed-text:latest' });
    expect(parseEmbeddingSpec('openai-compatible:mini@http://127.0.0.1:9/v1/')).toEqual({
      provider: 'openai-compatible',
      model: 'mini',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    expect(() => parseEmbeddingSpec('openai-compatible:mini')).toThrow(/@<baseUrl>/);
    const preset = createEmbedder('vllm:bge-m3', { env: { VLLM_BASE_URL: mock.openAiBaseUrl } });
    const [vector] = await preset.embed(['weather in Paris']);
    expect(Array.from(vector ?? [])).toEqual(mockEmbedding('weather in Paris', 48).map((value) => Math.fround(value)));
    expect(preset.id).toBe('vllm:bge-m3');
    const overridden = createEmbedder(`openai:text-embedding-3-small@${mock.openAiBaseUrl}`, { env: { MY_KEY: 'sk-named-000222' }, apiKeyEnv: 'MY_KEY' });
    await overridden.embed(['a']);
    expect(mock.requests.at(-1)?.authFingerprint).toBe(keyFingerprint('sk-named-000222'));
    expect(overridden.id).toBe(`openai:text-embedding-3-small@${mock.openAiBaseUrl.replace(/\/+$/, '')}`);
  });
});
