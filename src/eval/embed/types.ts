// The embedder seam of the step evaluator: text in, one vector per text out. Implementations:
// the built-in offline `hashgram-v1`, a served model through the one embeddings client, and a
// sentence-transformers folder run in-process (st-encoder.ts; the reference's encoders).
// Vectors need not be unit length (cosine is computed explicitly, spec 3.4), but must all have
// the same dimension for one embedder.

export interface Embedder {
  /** Stable identity of the vector space: cache entries are keyed by it. */
  readonly id: string;
  /** Vector length; 0 while unknown (a remote model reports it with its first answer). */
  readonly dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** What goes into results_eval.json so a score can be traced to the encoder that made it. */
export interface EmbedderRecord {
  id: string;
  dimension: number;
  description: string;
  /** True when this is the encoder the paper used for this evaluator. */
  paper_encoder: boolean;
  /** Present when it is not: says so in words, and how to use the paper's. */
  note?: string;
}
