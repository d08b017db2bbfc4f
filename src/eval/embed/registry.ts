// Embedder specs as users write them on the command line:
//   hashgram-v1 (default) | hashgram-v1/<dimension>
//   openai-compatible:<model>@<baseUrl>     e.g. openai-compatible:text-embedding-3-small@https://api.openai.com/v1
// The API key of a remote embedder comes from an environment variable whose *name* the caller
// passes (default OPENAI_API_KEY), looked up in the env map config loaded.
import { ConfigError } from '../../errors/index.js';
import { createHashgramEmbedder, HASHGRAM_ID } from './hashgram.js';
import { createOpenAiCompatibleEmbedder } from './openai-compatible.js';
import type { Embedder, EmbedderRecord } from './types.js';

export const DEFAULT_EMBEDDER = HASHGRAM_ID;

export interface EmbedderFactoryOptions {
  env?: Record<string, string | undefined>;
  apiKeyEnv?: string;
  timeoutMs?: number;
  batchSize?: number;
}

const usage = `expected "${HASHGRAM_ID}", "${HASHGRAM_ID}/<dimension>" or "openai-compatible:<model>@<baseUrl>" (e.g. openai-compatible:text-embedding-3-small@http://127.0.0.1:8080/v1)`;

export function createEmbedder(spec: string = DEFAULT_EMBEDDER, options: EmbedderFactoryOptions = {}): Embedder {
  const trimmed = spec.trim();
  if (trimmed === HASHGRAM_ID) return createHashgramEmbedder();
  const sized = new RegExp(`^${HASHGRAM_ID}/(\\d+)$`).exec(trimmed);
  if (sized) {
    const dimension = Number(sized[1]);
    if (dimension < 16 || dimension > 65536) throw new ConfigError(`--embedder ${spec}: dimension must be between 16 and 65536`);
    return createHashgramEmbedder(dimension);
  }
  const remote = /^openai-compatible:([^@]+)@(.+)$/.exec(trimmed);
  if (remote) {
    const [, model = '', baseUrl = ''] = remote;
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ConfigError(`--embedder ${spec}: "${baseUrl}" is not a URL; ${usage}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`--embedder ${spec}: base URL must be http(s); ${usage}`);
    const apiKeyEnv = options.apiKeyEnv ?? 'OPENAI_API_KEY';
    return createOpenAiCompatibleEmbedder({
      model: model.trim(),
      baseUrl,
      apiKey: options.env?.[apiKeyEnv],
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    });
  }
  throw new ConfigError(`--embedder "${spec}" is not a known embedder; ${usage}`);
}

export function describeEmbedder(embedder: Embedder): EmbedderRecord {
  const description = embedder.id.startsWith(HASHGRAM_ID)
    ? 'built-in deterministic hashed character 2-4-gram + word embedder (offline; scores are not comparable with MiniLM-based reference scores)'
    : 'OpenAI-compatible /embeddings endpoint';
  return { id: embedder.id, dimension: embedder.dimension, description };
}
