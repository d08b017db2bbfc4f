// Public surface of the embedders used by the step evaluator.
export type { Embedder, EmbedderRecord } from './types.js';
export { createHashgramEmbedder, hashgramVector, HASHGRAM_ID } from './hashgram.js';
export { createOpenAiCompatibleEmbedder, createRemoteEmbedder, type OpenAiCompatibleOptions } from './openai-compatible.js';
export { EmbeddingCache, embedTexts, CACHE_FORMAT_TAG, type CacheFormat, type CacheStats } from './cache.js';
export { createEmbedder, describeEmbedder, DEFAULT_EMBEDDER, type EmbedderFactoryOptions } from './registry.js';
