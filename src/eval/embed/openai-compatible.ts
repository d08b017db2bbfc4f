// An embedder for any server that speaks the OpenAI `POST <baseUrl>/embeddings` wire format
// (OpenAI, vLLM, text-embeddings-inference, llama.cpp, Ollama's /v1 ...). Plain fetch, batches of
// 64 (the reference's batch size), a per-request timeout, and a few retries for 429 / 5xx /
// network errors. The API key is passed in by the caller (config reads the environment); with
// no key no Authorization header is sent, which is what local servers expect.
import { z } from 'zod';
import { EvaluationError } from '../../errors/index.js';
import { redactText } from '../../log/redact.js';
import type { Embedder } from './types.js';

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) }).loose()),
}).loose();

export interface OpenAiCompatibleOptions {
  model: string;
  /** API root including the version segment, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  apiKey?: string | undefined;
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
  retryDelayMs?: number;
  fetchImpl?: typeof fetch;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function createOpenAiCompatibleEmbedder(options: OpenAiCompatibleOptions): Embedder {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const endpoint = `${baseUrl}/embeddings`;
  const batchSize = options.batchSize ?? 64;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const fetchImpl = options.fetchImpl ?? fetch;
  let dimension = 0;

  async function requestOnce(batch: string[]): Promise<{ vectors?: Float32Array[]; retryable: boolean; error?: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let response: Response;
    try {
      response = await fetchImpl(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: options.model, input: batch, encoding_format: 'float' }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      return { retryable: true, error: timedOut ? `no answer within ${timeoutMs} ms` : (error as Error).message };
    }
    const body = await response.text();
    if (!response.ok) {
      return { retryable: isRetryableStatus(response.status), error: `HTTP ${response.status}: ${redactText(body.slice(0, 300))}` };
    }
    let parsed: z.output<typeof responseSchema>;
    try {
      parsed = responseSchema.parse(JSON.parse(body));
    } catch (error) {
      return { retryable: false, error: `unexpected response body (expected {"data":[{"index","embedding":[...]}]}): ${(error as Error).message.slice(0, 300)}` };
    }
    return { retryable: false, vectors: toVectors(parsed, batch.length) };
  }

  function toVectors(parsed: z.output<typeof responseSchema>, expected: number): Float32Array[] {
    const vectors = new Array<Float32Array | undefined>(expected).fill(undefined);
    for (const item of parsed.data) if (item.index < expected) vectors[item.index] = Float32Array.from(item.embedding);
    const missing = vectors.findIndex((vector) => vector === undefined);
    if (missing >= 0) throw new EvaluationError(`${endpoint}: the response has no embedding for input ${missing} of ${expected}`);
    const result = vectors as Float32Array[];
    for (const vector of result) {
      if (dimension === 0) dimension = vector.length;
      if (vector.length !== dimension) throw new EvaluationError(`${endpoint}: embeddings of model ${options.model} changed dimension (${dimension} then ${vector.length})`);
    }
    return result;
  }

  async function embedBatch(batch: string[]): Promise<Float32Array[]> {
    let lastError = '';
    for (let attempt = 0; attempt <= maxRetries; attempt += 1) {
      if (attempt > 0) await sleep(retryDelayMs * 2 ** (attempt - 1));
      const outcome = await requestOnce(batch);
      if (outcome.vectors) return outcome.vectors;
      lastError = outcome.error ?? 'unknown error';
      if (!outcome.retryable) break;
    }
    throw new EvaluationError(`embedding request to ${endpoint} (model ${options.model}) failed: ${lastError}. Check --embedder and that the server is running.`);
  }

  return {
    id: `openai-compatible:${options.model}@${baseUrl}`,
    get dimension() {
      return dimension;
    },
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) vectors.push(...(await embedBatch(texts.slice(start, start + batchSize))));
      return vectors;
    },
  };
}
