// Public face of the embeddings seam (see client.ts).
export { createEmbeddingClient, type EmbeddingClient, type EmbeddingClientOptions } from './client.js';
