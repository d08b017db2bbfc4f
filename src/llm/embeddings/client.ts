// The embeddings seam: `embed(texts)` over any OpenAI-compatible `/v1/embeddings` endpoint,
// addressed like a model: `openai:text-embedding-3-small`, `ollama:nomic-embed-text`,
// `vllm:BAAI/bge-m3`. Endpoints and keys come from config (same variables as chat); batches
// keep requests small; results come back in input order. Retries are left to the caller.
import OpenAI from 'openai';
import { z } from 'zod';
import type { EnvMap } from '../../config/env-file.js';
import { endpointHint, isEndpointName, resolveEndpoint, type EndpointName } from '../../config/providers.js';
import { ConfigError, ProviderError } from '../../errors/index.js';
import { createOpenAiClient } from '../openai/driver.js';
import { classifyStainlessError } from '../openai/errors.js';
import { chatPresets } from '../presets.js';

export interface EmbeddingClientOptions {
  /** `provider:model` with an OpenAI-compatible provider. */
  spec: string;
  env: EnvMap;
  /** Per-request timeout; 0 disables. Default 120 s. */
  timeoutMs?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Ask for shorter vectors (models that support it, e.g. text-embedding-3-*). */
  dimensions?: number;
}

export interface EmbeddingClient {
  readonly id: string;
  readonly model: string;
  /** One vector per text, in input order. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

function parseSpec(spec: string): { provider: EndpointName; model: string } {
  const colon = spec.indexOf(':');
  const provider = colon > 0 ? spec.slice(0, colon).toLowerCase() : '';
  const model = colon > 0 ? spec.slice(colon + 1) : '';
  if (!model || !chatPresets[provider] || !isEndpointName(provider)) {
    throw new ConfigError(
      `embedding model "${spec}" must be provider:model with an OpenAI-compatible provider (${Object.keys(chatPresets).join(', ')}), e.g. openai:text-embedding-3-small`,
    );
  }
  return { provider, model };
}

export function createEmbeddingClient(options: EmbeddingClientOptions): EmbeddingClient {
  const { provider, model } = parseSpec(options.spec);
  const id = `${provider}:${model}`;
  const endpoint = resolveEndpoint(provider, options.env, id);
  const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, timeoutMs: options.timeoutMs ?? 120_000 });
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const failure = { spec: id, hint: endpointHint(endpoint) };

  const embedBatch = async (batch: string[], signal?: AbortSignal): Promise<number[][]> => {
    let response: unknown;
    try {
      response = await client.embeddings.create(
        {
          model,
          // Servers reject empty strings; a space embeds as "nothing" without failing the batch.
          input: batch.map((text) => (text === '' ? ' ' : text)),
          // Float arrays work everywhere; the SDK's base64 default is not universally supported.
          encoding_format: 'float',
          ...(options.dimensions ? { dimensions: options.dimensions } : {}),
        },
        signal ? { signal } : {},
      );
    } catch (error) {
      const classified = classifyStainlessError(error, OpenAI, failure);
      throw new ProviderError(classified.errorClass, classified.message, {
        cause: error,
        ...(classified.retryAfterMs !== undefined ? { retryAfterMs: classified.retryAfterMs } : {}),
      });
    }
    const parsed = responseSchema.safeParse(response);
    if (!parsed.success || parsed.data.data.length !== batch.length) {
      const reason = parsed.success ? `${parsed.data.data.length} vectors for ${batch.length} texts` : (parsed.error.issues[0]?.message ?? 'invalid');
      throw new ProviderError('fatal', `${id}: unexpected embeddings response (${reason})`);
    }
    const vectors = new Array<number[]>(batch.length);
    for (const item of parsed.data.data) vectors[item.index] = item.embedding;
    if (vectors.some((vector) => vector === undefined)) throw new ProviderError('fatal', `${id}: embeddings response has duplicate or out-of-range indexes`);
    return vectors;
  };

  return {
    id,
    model,
    async embed(texts, embedOptions) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await embedBatch(texts.slice(start, start + batchSize), embedOptions?.signal)));
      }
      const width = vectors[0]?.length;
      if (vectors.some((vector) => vector.length !== width)) throw new ProviderError('fatal', `${id}: embeddings have different lengths`);
      return vectors;
    },
  };
}
