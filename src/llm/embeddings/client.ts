// The one embeddings client: `embed(texts)` over any OpenAI-compatible `/embeddings` endpoint,
// used by the step evaluator (through src/eval/embed/openai-compatible.ts) and by any other code.
// One spec format, `<provider>:<model>[@<baseUrl>]`:
//   provider   an OpenAI-compatible preset (`openai:text-embedding-3-small`,
//              `ollama:nomic-embed-text`, `vllm:BAAI/bge-m3`, ...): endpoint and key come from
//              config, the same variables as chat (<NAME>_BASE_URL, <NAME>_API_KEY); or
//              `openai-compatible`, a server named only by `@<baseUrl>`.
//   @baseUrl   overrides the endpoint (the key then comes from `apiKeyEnv`, or the preset's).
// One retry policy, the harness's (src/core/retry-policy.ts): rate limits and transient errors
// (timeouts, 5xx, dropped connections) wait the doubling backoff or the server's retry-after and
// are tried again up to `maxRetries` times. The default retries nothing, so a caller that owns
// retries sees every failure. Batches keep requests small; results come back in input order.
import OpenAI from 'openai';
import { z } from 'zod';
import type { EnvMap } from '../../config/env-file.js';
import { endpointHint, isEndpointName, resolveEndpoint, type EndpointName } from '../../config/providers.js';
import { ConfigError, ProviderError } from '../../errors/index.js';
import { createOpenAiClient } from '../openai/driver.js';
import { classifyStainlessError, type FailureContext } from '../provider-errors.js';
import { chatPresets } from '../presets.js';
import type { RetryPolicy } from '../retry.js';
import { withRetries } from '../../core/retry-policy.js';

export interface EmbeddingClientOptions {
  /** `<provider>:<model>[@<baseUrl>]`. */
  spec: string;
  env: EnvMap;
  /** An explicit key; wins over every variable. */
  apiKey?: string | undefined;
  /** The variable holding the key (default: the preset's own; OPENAI_API_KEY for openai-compatible). */
  apiKeyEnv?: string;
  /** Per-request timeout; 0 disables. Default 120 s. */
  timeoutMs?: number;
  /** Texts per request. Default 64 (the reference's batch size). */
  batchSize?: number;
  /** Ask for shorter vectors (models that support it, e.g. text-embedding-3-*). */
  dimensions?: number;
  /** Harness retries (the per-request timeout is `timeoutMs`). Default: none. */
  retry?: Pick<RetryPolicy, 'maxRetries' | 'baseDelayMs' | 'maxDelayMs'>;
}

export interface EmbeddingClient {
  /** `provider:model`, plus `@baseUrl` when the endpoint was given in the spec. */
  readonly id: string;
  readonly model: string;
  /** The API root requests go to (`<baseUrl>/embeddings`). */
  readonly baseUrl: string;
  /** One vector per text, in input order. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

export const GENERIC_PROVIDER = 'openai-compatible';

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

interface EmbeddingSpec {
  provider: EndpointName | typeof GENERIC_PROVIDER;
  model: string;
  baseUrl?: string;
}

/**
 * Parses `<provider>:<model>[@<baseUrl>]`; throws a ConfigError naming the accepted forms.
 * @internal Exported for its tests.
 */
export function parseEmbeddingSpec(spec: string): EmbeddingSpec {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  const provider = colon > 0 ? trimmed.slice(0, colon).toLowerCase() : '';
  const rest = colon > 0 ? trimmed.slice(colon + 1) : '';
  const at = rest.indexOf('@');
  const model = (at >= 0 ? rest.slice(0, at) : rest).trim();
  const baseUrl = at >= 0 ? rest.slice(at + 1).trim() : undefined;
  const known = provider === GENERIC_PROVIDER || (Boolean(chatPresets[provider]) && isEndpointName(provider));
  if (!model || !known || (provider === GENERIC_PROVIDER && !baseUrl)) {
    throw new ConfigError(
      `embedding model "${spec}" must be provider:model with an OpenAI-compatible provider (${Object.keys(chatPresets).join(', ')}), ` +
        `e.g. openai:text-embedding-3-small, optionally @<baseUrl>; or ${GENERIC_PROVIDER}:<model>@<baseUrl> for any other server`,
    );
  }
  if (baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ConfigError(`embedding model "${spec}": "${baseUrl}" is not a URL (expected e.g. http://127.0.0.1:8080/v1)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`embedding model "${spec}": the base URL must be http(s)`);
  }
  return { provider: provider as EmbeddingSpec['provider'], model, ...(baseUrl !== undefined ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}) };
}

function resolveTarget(
  parsed: EmbeddingSpec,
  options: EmbeddingClientOptions,
): { id: string; baseUrl: string; apiKey: string | undefined; failure: FailureContext } {
  const { provider, model, baseUrl } = parsed;
  if (baseUrl === undefined && provider !== GENERIC_PROVIDER) {
    const id = `${provider}:${model}`;
    const endpoint = resolveEndpoint(provider, options.env, id);
    return { id, baseUrl: endpoint.baseUrl, apiKey: options.apiKey ?? endpoint.apiKey, failure: { spec: id, hint: endpointHint(endpoint) } };
  }
  const id = `${provider}:${model}@${baseUrl}`;
  const keyVariable = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = options.apiKey ?? options.env[keyVariable]?.trim();
  return {
    id,
    baseUrl: baseUrl ?? '',
    apiKey: apiKey || undefined,
    failure: { spec: id, hint: `set ${keyVariable} if the server requires a key; base URL ${baseUrl}` },
  };
}

export function createEmbeddingClient(options: EmbeddingClientOptions): EmbeddingClient {
  const parsed = parseEmbeddingSpec(options.spec);
  const { id, baseUrl, apiKey, failure } = resolveTarget(parsed, options);
  const timeoutMs = options.timeoutMs ?? 120_000;
  // The SDK's own timeout stays off: the per-request timer below names the wait in its message.
  const client = createOpenAiClient({ baseUrl, apiKey, timeoutMs: 0 });
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const policy: RetryPolicy = { maxRetries: 0, baseDelayMs: 1000, maxDelayMs: 60_000, ...options.retry, timeoutMs };

  const requestBatch = async (batch: string[], signal?: AbortSignal): Promise<number[][]> => {
    const timer = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [signal, timer].filter((item): item is AbortSignal => item !== undefined);
    let response: unknown;
    try {
      response = await client.embeddings.create(
        {
          model: parsed.model,
          // Servers reject empty strings; a space embeds as "nothing" without failing the batch.
          input: batch.map((text) => (text === '' ? ' ' : text)),
          // Float arrays work everywhere; the SDK's base64 default is not universally supported.
          encoding_format: 'float',
          ...(options.dimensions ? { dimensions: options.dimensions } : {}),
        },
        signals.length > 0 ? { signal: AbortSignal.any(signals) } : {},
      );
    } catch (error) {
      if (timer?.aborted && !signal?.aborted) throw new ProviderError('transient', `${id}: no answer within ${timeoutMs} ms`, { cause: error });
      const classified = classifyStainlessError(error, OpenAI, failure);
      throw new ProviderError(classified.errorClass, classified.message, {
        cause: error,
        ...(classified.retryAfterMs !== undefined ? { retryAfterMs: classified.retryAfterMs } : {}),
      });
    }
    const checked = responseSchema.safeParse(response);
    if (!checked.success || checked.data.data.length !== batch.length) {
      const reason = checked.success ? `${checked.data.data.length} vectors for ${batch.length} texts` : (checked.error.issues[0]?.message ?? 'invalid');
      throw new ProviderError('fatal', `${id}: unexpected embeddings response (${reason}; expected {"data":[{"index","embedding":[...]}]})`);
    }
    const vectors = new Array<number[]>(batch.length);
    for (const item of checked.data.data) vectors[item.index] = item.embedding;
    if (vectors.some((vector) => vector === undefined)) throw new ProviderError('fatal', `${id}: embeddings response has duplicate or out-of-range indexes`);
    return vectors;
  };

  const withRetry = (batch: string[], signal?: AbortSignal): Promise<number[][]> =>
    withRetries(policy, () => requestBatch(batch, signal), {
      classify: (error) =>
        error instanceof ProviderError
          ? { retryable: error.errorClass === 'rate_limit' || error.errorClass === 'transient', retryAfterMs: error.retryAfterMs }
          : { retryable: false },
      ...(signal ? { signal } : {}),
    });

  return {
    id,
    model: parsed.model,
    baseUrl,
    async embed(texts, embedOptions) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await withRetry(texts.slice(start, start + batchSize), embedOptions?.signal)));
      }
      const width = vectors[0]?.length;
      if (vectors.some((vector) => vector.length !== width)) throw new ProviderError('fatal', `${id}: embeddings have different lengths`);
      return vectors;
    },
  };
}
