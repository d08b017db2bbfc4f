// The reference encoder in-process: a sentence-transformers folder (st-folder.ts) run with
// onnxruntime-node and the Hugging Face tokenizer library, computing what
// `SentenceTransformer(folder).encode(texts, normalize_embeddings=False)` computes:
//   tokenise   tokenizer.json with its special tokens; texts lower-cased first when
//              do_lower_case; longer sequences truncated to max_seq_length keeping the special
//              tokens, as `truncation='longest_first'` does for one sequence;
//   batch      texts sorted by length and padded per batch (attention_mask 0 on padding);
//   pool       the folder's modes over the unmasked tokens (mean = sum / max(count, 1e-9),
//              max with padding excluded, cls = first token, lasttoken = last unmasked token),
//              concatenated in sentence-transformers' order;
//   normalise  x / max(|x|, 1e-12) when modules.json has a Normalize module.
// Pooling runs in float64 and the result is rounded once to float32.
// onnxruntime-node is loaded on first use, so code that never embeds never loads the addon.
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { EvaluationError } from '../../errors/index.js';
import { loadSentenceTransformerFolder, type PoolingMode, type SentenceTransformerFolder } from './st-folder.js';
import type { Embedder } from './types.js';

interface TokenizedText {
  ids: number[];
  typeIds: number[];
}

/**
 * Tokenises like sentence-transformers (see the header).
 * @internal Exported for its tests.
 */
export function tokenizeForModel(tokenizer: Tokenizer, config: Pick<SentenceTransformerFolder, 'maxSeqLength' | 'doLowerCase'>, text: string): TokenizedText {
  const input = config.doLowerCase ? text.toLowerCase() : text;
  // The library's Encoding type resolves loosely; pin the two fields used here.
  const full: { ids: number[]; token_type_ids?: number[] } = tokenizer.encode(input, { return_token_type_ids: true });
  const typeIds = full.token_type_ids ?? full.ids.map(() => 0);
  if (full.ids.length <= config.maxSeqLength) return { ids: full.ids, typeIds };
  const content: number[] = tokenizer.encode(input, { add_special_tokens: false }).ids;
  const added = full.ids.length - content.length;
  const prefix = full.ids.findIndex((_, start) => content.every((id, offset) => full.ids[start + offset] === id));
  const keep = Math.max(0, config.maxSeqLength - added);
  if (prefix < 0) return { ids: full.ids.slice(0, config.maxSeqLength), typeIds: typeIds.slice(0, config.maxSeqLength) };
  const pick = <T>(values: T[]) => [...values.slice(0, prefix + keep), ...values.slice(prefix + content.length)];
  return { ids: pick(full.ids), typeIds: pick(typeIds) };
}

/** Pools one sequence's token embeddings (`hidden[t * width + k]`, `length` real tokens). */
function poolTokens(hidden: ArrayLike<number>, width: number, length: number, modes: readonly PoolingMode[], normalize: boolean): Float32Array {
  const parts: number[] = [];
  const token = (t: number, k: number) => hidden[t * width + k] as number;
  for (const mode of modes) {
    for (let k = 0; k < width; k += 1) {
      if (mode === 'cls') parts.push(token(0, k));
      else if (mode === 'lasttoken') parts.push(token(Math.max(0, length - 1), k));
      else if (mode === 'max') {
        let best = -1e9;
        for (let t = 0; t < length; t += 1) best = Math.max(best, token(t, k));
        parts.push(best);
      } else {
        let sum = 0;
        for (let t = 0; t < length; t += 1) sum += token(t, k);
        parts.push(mode === 'mean' ? sum / Math.max(length, 1e-9) : sum / Math.sqrt(Math.max(length, 1e-9)));
      }
    }
  }
  if (normalize) {
    const norm = Math.max(Math.sqrt(parts.reduce((total, value) => total + value * value, 0)), 1e-12);
    for (let index = 0; index < parts.length; index += 1) parts[index] = (parts[index] as number) / norm;
  }
  return Float32Array.from(parts);
}

export interface SentenceTransformerOptions {
  /** The embedder id (cache key); default `onnx:<folder name>`. */
  id?: string;
  /** Texts per ONNX run. Default 32. */
  batchSize?: number;
}

export function createSentenceTransformerEmbedder(folder: string, options: SentenceTransformerOptions = {}): Embedder {
  const config = loadSentenceTransformerFolder(folder);
  const tokenizer = new Tokenizer(config.tokenizer, config.tokenizerConfig);
  const padId = tokenizer.token_to_id('[PAD]') ?? tokenizer.token_to_id('<pad>') ?? 0;
  const batchSize = Math.max(1, options.batchSize ?? 32);
  let dimension = config.wordDimension === undefined ? 0 : config.wordDimension * config.pooling.length;
  let session: Promise<{ session: InferenceSession; Tensor: typeof Tensor }> | undefined;
  const open = () => {
    session ??= import('onnxruntime-node').then(async (ort) => ({ session: await ort.InferenceSession.create(config.modelFile), Tensor: ort.Tensor }));
    return session;
  };

  async function runBatch(batch: TokenizedText[]): Promise<Float32Array[]> {
    const { session: model, Tensor: TensorClass } = await open();
    const rows = batch.length;
    const columns = Math.max(...batch.map((item) => item.ids.length));
    const grid = (value: (item: TokenizedText, t: number) => number) =>
      new TensorClass(
        'int64',
        BigInt64Array.from({ length: rows * columns }, (_, index) => {
          const item = batch[Math.floor(index / columns)] as TokenizedText;
          const t = index % columns;
          return BigInt(t < item.ids.length ? value(item, t) : 0);
        }),
        [rows, columns],
      );
    const feeds: Record<string, Tensor> = {};
    const available = {
      input_ids: () =>
        new TensorClass(
          'int64',
          BigInt64Array.from({ length: rows * columns }, (_, index) =>
            BigInt((batch[Math.floor(index / columns)] as TokenizedText).ids[index % columns] ?? padId),
          ),
          [rows, columns],
        ),
      attention_mask: () => grid(() => 1),
      token_type_ids: () => grid((item, t) => item.typeIds[t] ?? 0),
    };
    for (const name of model.inputNames) {
      const make = available[name as keyof typeof available];
      if (!make)
        throw new EvaluationError(`${config.modelFile}: model input "${name}" is not one the encoder can feed (input_ids, attention_mask, token_type_ids)`);
      feeds[name] = make();
    }
    const outputName = ['last_hidden_state', 'token_embeddings'].find((name) => model.outputNames.includes(name)) ?? model.outputNames[0] ?? '';
    const output = (await model.run(feeds))[outputName];
    const dims = output?.dims ?? [];
    if (!output || dims.length !== 3 || dims[0] !== rows || dims[1] !== columns) {
      throw new EvaluationError(
        `${config.modelFile}: output "${outputName}" has shape [${dims.join(', ')}], expected token embeddings [${rows}, ${columns}, width]`,
      );
    }
    const width = Number(dims[2]);
    const data = output.data as Float32Array;
    return batch.map((item, row) =>
      poolTokens(data.subarray(row * columns * width, (row + 1) * columns * width), width, item.ids.length, config.pooling, config.normalize),
    );
  }

  return {
    id:
      options.id ??
      `onnx:${
        folder
          .replace(/[\\/]+$/, '')
          .split(/[\\/]/)
          .pop() ?? folder
      }`,
    get dimension() {
      return dimension;
    },
    async embed(texts) {
      const tokenized = texts.map((text) => tokenizeForModel(tokenizer, config, text));
      const order = tokenized.map((_, index) => index).sort((a, b) => (tokenized[b]?.ids.length ?? 0) - (tokenized[a]?.ids.length ?? 0));
      const vectors = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        const indices = order.slice(start, start + batchSize);
        const pooled = await runBatch(indices.map((index) => tokenized[index] as TokenizedText));
        indices.forEach((index, position) => {
          vectors[index] = pooled[position] as Float32Array;
        });
      }
      if (dimension === 0 && vectors[0]) dimension = vectors[0].length;
      return vectors;
    },
  };
}
