// Public face of the one embeddings client (see client.ts).
export { createEmbeddingClient, parseEmbeddingSpec } from './client.js';
