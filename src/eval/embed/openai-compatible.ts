// The step evaluator's view of a served embedding model: the one embeddings client
// (src/llm/embeddings, its spec format and its retry policy) adapted to the Embedder seam:
// Float32Array vectors, a dimension learnt from the first answer and checked afterwards, and
// failures as EvaluationErrors that name the endpoint and say what to check.
import { EvaluationError, ProviderError } from '../../errors/index.js';
import { createEmbeddingClient, GENERIC_PROVIDER, type EmbeddingClientOptions } from '../../llm/embeddings/client.js';
import type { Embedder } from './types.js';

/** Any spec the one client accepts (`openai:text-embedding-3-small`, `openai-compatible:m@url`, ...). */
export function createRemoteEmbedder(options: EmbeddingClientOptions): Embedder {
  const client = createEmbeddingClient(options);
  const endpoint = `${client.baseUrl}/embeddings`;
  let dimension = 0;
  const fail = (error: unknown): never => {
    const message = error instanceof Error ? error.message : String(error);
    const reason = message.startsWith(`${client.id}: `) ? message.slice(client.id.length + 2) : message;
    throw new EvaluationError(`embedding request to ${endpoint} (model ${client.model}) failed: ${reason}. Check --embedder and that the server is running.`, {
      cause: error,
    });
  };
  return {
    id: client.id,
    get dimension() {
      return dimension;
    },
    async embed(texts) {
      const raw = await client.embed(texts).catch((error: unknown) => (error instanceof ProviderError ? fail(error) : Promise.reject(error)));
      return raw.map((values) => {
        if (dimension === 0) dimension = values.length;
        if (values.length !== dimension)
          throw new EvaluationError(`${endpoint}: embeddings of model ${client.model} changed dimension (${dimension} then ${values.length})`);
        return Float32Array.from(values);
      });
    },
  };
}

interface OpenAiCompatibleOptions {
  model: string;
  /** API root including the version segment, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  apiKey?: string | undefined;
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** First backoff delay; later ones double (the harness policy, capped at 60 s). */
  retryDelayMs?: number;
}

/**
 * `openai-compatible:<model>@<baseUrl>` with an explicit key.
 * @internal Exported for its tests.
 */
export function createOpenAiCompatibleEmbedder(options: OpenAiCompatibleOptions): Embedder {
  return createRemoteEmbedder({
    spec: `${GENERIC_PROVIDER}:${options.model}@${options.baseUrl}`,
    env: {},
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 60_000,
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    retry: { maxRetries: options.maxRetries ?? 2, baseDelayMs: options.retryDelayMs ?? 500, maxDelayMs: 60_000 },
  });
}
