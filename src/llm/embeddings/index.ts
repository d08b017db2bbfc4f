// Public face of the one embeddings client (see client.ts).
export { createEmbeddingClient, parseEmbeddingSpec, type EmbeddingClient, type EmbeddingClientOptions, type EmbeddingSpec } from './client.js';
