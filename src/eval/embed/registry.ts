// Embedder specs as users write them on the command line (`--embedder`):
//   hashgram-v1 (default) | hashgram-v1/<dimension>      the built-in offline embedder
//   <provider>:<model>[@<baseUrl>]                          a served model through the one
//                                                           embeddings client (src/llm/embeddings),
//                                                           e.g. openai:text-embedding-3-small,
//                                                           ollama:all-minilm,
//                                                           openai-compatible:<model>@<baseUrl>
// The API key of a remote embedder comes from the provider's own variable, or from the variable
// whose *name* the caller passes (`apiKeyEnv`), looked up in the env map config loaded.
import { ConfigError } from '../../errors/index.js';
import type { RetryPolicy } from '../../llm/retry.js';
import { createHashgramEmbedder, HASHGRAM_ID } from './hashgram.js';
import { createRemoteEmbedder } from './openai-compatible.js';
import type { Embedder, EmbedderRecord } from './types.js';

export const DEFAULT_EMBEDDER = HASHGRAM_ID;

export interface EmbedderFactoryOptions {
  env?: Record<string, string | undefined>;
  apiKeyEnv?: string;
  timeoutMs?: number;
  batchSize?: number;
  /** The harness retry policy (judgeRetryPolicy(switches) in the CLI); default one retry. */
  retry?: Pick<RetryPolicy, 'maxRetries' | 'baseDelayMs' | 'maxDelayMs'>;
}

export const embedderUsage = `expected "${HASHGRAM_ID}", "${HASHGRAM_ID}/<dimension>", "<provider>:<model>" (e.g. openai:text-embedding-3-small) or "openai-compatible:<model>@<baseUrl>" (e.g. openai-compatible:all-MiniLM-L6-v2@http://127.0.0.1:8080/v1)`;

export function createEmbedder(spec: string = DEFAULT_EMBEDDER, options: EmbedderFactoryOptions = {}): Embedder {
  const trimmed = spec.trim();
  if (trimmed === HASHGRAM_ID) return createHashgramEmbedder();
  const sized = new RegExp(`^${HASHGRAM_ID}/(\\d+)$`).exec(trimmed);
  if (sized) {
    const dimension = Number(sized[1]);
    if (dimension < 16 || dimension > 65536) throw new ConfigError(`--embedder ${spec}: dimension must be between 16 and 65536`);
    return createHashgramEmbedder(dimension);
  }
  if (!trimmed.includes(':')) throw new ConfigError(`--embedder "${spec}" is not a known embedder; ${embedderUsage}`);
  try {
    return createRemoteEmbedder({
      spec: trimmed,
      env: options.env ?? {},
      ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
      timeoutMs: options.timeoutMs ?? 60_000,
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
      retry: options.retry ?? { maxRetries: 1, baseDelayMs: 1000, maxDelayMs: 60_000 },
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`--embedder ${spec}: ${error.message}; ${embedderUsage}`, { cause: error });
    throw error;
  }
}

export function describeEmbedder(embedder: Embedder): EmbedderRecord {
  const description = embedder.id.startsWith(HASHGRAM_ID)
    ? 'built-in deterministic hashed character 2-4-gram + word embedder (offline; scores are not comparable with MiniLM-based reference scores)'
    : 'OpenAI-compatible /embeddings endpoint';
  return { id: embedder.id, dimension: embedder.dimension, description };
}
