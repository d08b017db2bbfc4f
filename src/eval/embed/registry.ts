// Embedder specs as users write them on the command line (`--embedder`):
//   hashgram-v1 (default) | hashgram-v1/<dimension>      the built-in offline embedder
//   <provider>:<model>[@<baseUrl>]                          a served model through the one
//                                                           embeddings client (src/llm/embeddings),
//                                                           e.g. openai:text-embedding-3-small,
//                                                           ollama:all-minilm,
//                                                           openai-compatible:<model>@<baseUrl>
//   sentence-transformers/all-MiniLM-L6-v2 | BAAI/bge-small-en-v1.5
//                                                           the reference's encoders, in-process
//                                                           (pulled via media/encoders.json)
//   onnx:<folder>                                           any sentence-transformers folder with
//                                                           an ONNX export, in-process
//   auto                                                    the evaluator's reference encoder when
//                                                           it is pulled, else hashgram-v1
// The API key of a remote embedder comes from the provider's own variable, or from the variable
// whose *name* the caller passes (`apiKeyEnv`), looked up in the env map config loaded.
import { ConfigError } from '../../errors/index.js';
import type { RetryPolicy } from '../../llm/retry.js';
import { createHashgramEmbedder, HASHGRAM_ID } from './hashgram.js';
import { createRemoteEmbedder } from './openai-compatible.js';
import { createReferenceEmbedder, describeEmbedderFor, isEncoderPulled, STEP_REFERENCE_ENCODER } from './reference.js';
import { createSentenceTransformerEmbedder } from './st-encoder.js';
import { findReferenceEncoder } from '../../assets/encoders.js';
import type { Embedder, EmbedderRecord } from './types.js';

export const DEFAULT_EMBEDDER = HASHGRAM_ID;

export interface EmbedderFactoryOptions {
  env?: Record<string, string | undefined>;
  apiKeyEnv?: string;
  timeoutMs?: number;
  batchSize?: number;
  /** The harness retry policy (judgeRetryPolicy(switches) in the CLI); default one retry. */
  retry?: Pick<RetryPolicy, 'maxRetries' | 'baseDelayMs' | 'maxDelayMs'>;
  /** The encoder `auto` prefers (the evaluator's reference encoder); default all-MiniLM-L6-v2. */
  referenceEncoder?: string;
  /** Where pulled assets live (default media/assets). */
  assetsDir?: string;
}

const embedderUsage = `expected "auto", "${HASHGRAM_ID}", "${HASHGRAM_ID}/<dimension>", "sentence-transformers/all-MiniLM-L6-v2", "BAAI/bge-small-en-v1.5", "onnx:<sentence-transformers folder>", "<provider>:<model>" (e.g. openai:text-embedding-3-small) or "openai-compatible:<model>@<baseUrl>" (e.g. openai-compatible:all-MiniLM-L6-v2@http://127.0.0.1:8080/v1)`;

export function createEmbedder(spec: string = DEFAULT_EMBEDDER, options: EmbedderFactoryOptions = {}): Embedder {
  const trimmed = spec.trim();
  const assetsDir = options.assetsDir;
  if (trimmed === 'auto') {
    const reference = findReferenceEncoder(options.referenceEncoder ?? STEP_REFERENCE_ENCODER);
    return reference && isEncoderPulled(reference, assetsDir) ? createReferenceEmbedder(reference.id, assetsDir) : createHashgramEmbedder();
  }
  if (findReferenceEncoder(trimmed)) return createReferenceEmbedder(trimmed, assetsDir);
  if (trimmed.startsWith('onnx:')) return createSentenceTransformerEmbedder(trimmed.slice('onnx:'.length));
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

/** The record for results files; `paperEncoder` is the encoder the paper used for this evaluator. */
export function describeEmbedder(embedder: Embedder, paperEncoder: string = STEP_REFERENCE_ENCODER): EmbedderRecord {
  const description = embedder.id.startsWith(HASHGRAM_ID)
    ? 'built-in deterministic hashed character 2-4-gram + word embedder (offline; scores are not comparable with MiniLM-based reference scores)'
    : findReferenceEncoder(embedder.id)
      ? 'the reference sentence-transformers encoder, run in-process (onnxruntime-node, ONNX export of the published weights)'
      : embedder.id.startsWith('onnx:')
        ? 'a sentence-transformers folder run in-process (onnxruntime-node)'
        : 'OpenAI-compatible /embeddings endpoint';
  return describeEmbedderFor(embedder, paperEncoder, description);
}
