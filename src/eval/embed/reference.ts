// The reference's encoders for the evaluators: which one the paper used (all-MiniLM-L6-v2 for
// step metrics, bge-small-en-v1.5 for the CV metrics), where its pulled folder is, and the
// words every output carries when the encoder in use is not that one.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { encoderDir, findReferenceEncoder, type ReferenceEncoder } from '../../assets/encoders.js';
import { defaultAssetsDir } from '../../assets/manifest.js';
import { ConfigError } from '../../errors/index.js';
import { createSentenceTransformerEmbedder } from './st-encoder.js';
import type { Embedder, EmbedderRecord } from './types.js';

export const STEP_REFERENCE_ENCODER = 'sentence-transformers/all-MiniLM-L6-v2';
export const CV_REFERENCE_ENCODER = 'BAAI/bge-small-en-v1.5';

const pullHint =
  "`m3 assets pull --manifest media/encoders.json` (downloads from huggingface.co; offline, add --mirror <folder laid out like the manifest's mirrorPath>)";

/** True when the encoder's ONNX export and tokenizer are on disk. */
export function isEncoderPulled(encoder: ReferenceEncoder, assetsDir = defaultAssetsDir): boolean {
  const dir = encoderDir(encoder, assetsDir);
  return existsSync(path.join(dir, 'onnx', 'model.onnx')) && existsSync(path.join(dir, 'tokenizer.json'));
}

/** The in-process embedder of a reference encoder; a clear ConfigError when it is not pulled. */
export function createReferenceEmbedder(id: string, assetsDir = defaultAssetsDir): Embedder {
  const encoder = findReferenceEncoder(id);
  if (!encoder) throw new ConfigError(`"${id}" is not one of the reference encoders (${[STEP_REFERENCE_ENCODER, CV_REFERENCE_ENCODER].join(', ')})`);
  if (!isEncoderPulled(encoder, assetsDir)) {
    throw new ConfigError(
      `the reference encoder ${encoder.id} is not pulled: expected ${path.join(encoderDir(encoder, assetsDir), 'onnx', 'model.onnx')} and tokenizer.json; run ${pullHint}`,
    );
  }
  return createSentenceTransformerEmbedder(encoderDir(encoder, assetsDir), { id: encoder.id });
}

/** What results files record about the encoder, including whether it is the paper's. */
export function describeEmbedderFor(embedder: Embedder, paperEncoder: string, description: string): EmbedderRecord {
  const isPaper = embedder.id === paperEncoder;
  return {
    id: embedder.id,
    dimension: embedder.dimension,
    description,
    paper_encoder: isPaper,
    ...(isPaper
      ? {}
      : {
          note: `The similarity encoder (${embedder.id}) is not the paper's (${paperEncoder}): similarities, matches and every metric can differ from the published numbers. Pull the paper's with ${pullHint} and pass --embedder ${paperEncoder}.`,
        }),
  };
}
