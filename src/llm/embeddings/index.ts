// Public face of the one embeddings client (see client.ts).
export { createEmbeddingClient, parseEmbeddingSpec, GENERIC_PROVIDER, type EmbeddingClient, type EmbeddingClientOptions, type EmbeddingSpec } from './client.js';
