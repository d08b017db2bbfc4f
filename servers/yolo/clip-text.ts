// The CLIP text encoder behind open-vocabulary detection: a CLIPTextModelWithProjection ONNX
// export (input_ids [1, sequence] int64, optionally attention_mask; output text_embeds
// [1, width]) and its tokenizer.json, as YOLO-World's prompt embeddings are made: one term at a
// time, the projected end-of-text embedding, L2-normalised (what ODLabel's TextEmbedder does
// with clip.encode_text). Padding is not needed: one term per run.
import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { ModelUnavailableError } from './detector.js';
import { yoloSessionOptions } from './session-options.js';

export interface TextEncoder {
  /** One L2-normalised embedding per term. */
  encode(terms: readonly string[]): Promise<Float32Array[]>;
}

function normalised(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm > 0 ? vector.map((value) => value / norm) : vector;
}

function loadTokenizer(file: string): Tokenizer {
  try {
    return new Tokenizer(JSON.parse(readFileSync(file, 'utf8')) as object, {});
  } catch (error) {
    throw new ModelUnavailableError(`cannot read the CLIP tokenizer ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export async function loadTextEncoder(modelFile: string, tokenizerFile: string, env: NodeJS.ProcessEnv = process.env): Promise<TextEncoder> {
  const tokenizer = loadTokenizer(tokenizerFile);
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(modelFile, yoloSessionOptions(env));
  } catch (error) {
    throw new ModelUnavailableError(`cannot load the CLIP text encoder ${modelFile}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const outputName = session.outputNames.includes('text_embeds') ? 'text_embeds' : (session.outputNames[0] ?? 'text_embeds');
  const encodeOne = async (term: string): Promise<Float32Array> => {
    const ids: number[] = tokenizer.encode(term).ids;
    if (ids.length === 0) throw new Error(`the CLIP tokenizer produced no tokens for "${term}"`);
    const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]) };
    if (session.inputNames.includes('attention_mask')) feeds.attention_mask = new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]);
    const output = (await session.run(feeds))[outputName];
    if (!output || !(output.data instanceof Float32Array)) throw new Error(`the CLIP text encoder returned no float32 "${outputName}" tensor`);
    return normalised(output.data.slice(0, output.dims[output.dims.length - 1] ?? output.data.length));
  };
  return {
    async encode(terms) {
      const embeddings: Float32Array[] = [];
      for (const term of terms) embeddings.push(await encodeOne(term));
      return embeddings;
    },
  };
}
