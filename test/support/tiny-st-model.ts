// A tiny BERT-shaped sentence-transformers folder, generated deterministically for the
// in-process encoder tests: an ONNX graph written byte by byte (protobuf wire format, no
// library; test/support/onnx-wire.ts), a WordPiece tokenizer.json, modules.json, the pooling config and
// sentence_bert_config.json. The graph has BERT's interface (int64 input_ids, attention_mask,
// token_type_ids [batch, sequence]; float last_hidden_state [batch, sequence, 4]) and computes
//   last_hidden_state[b, t] = WORD[input_ids[b, t]] + TYPE[token_type_ids[b, t]] + mask[b, t] * BIAS
// so every pooled vector can be computed by hand from the tables below.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bytesField, FLOAT, INT64, int, node, tensor, text, valueInfo } from './onnx-wire.js';

export const WIDTH = 4;
export const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '{', '}', '"', ':', 'a', 'b', '##s', '1', '2', ',', 'query', 'paris'] as const;
export const tokenId = (token: (typeof VOCAB)[number]) => VOCAB.indexOf(token);
/** Row v is the embedding of token v. [PAD] is large so that unmasked padding would show. */
export const WORD: number[][] = VOCAB.map((token, v) => {
  if (token === '[PAD]') return [9, 9, 9, 9];
  if (token === '[CLS]') return [1, 0, 0, 0];
  if (token === 'paris') return [0, 2, 0, 0];
  if (token === '[SEP]') return [0, 0, 3, 0];
  return [v / 8, -v / 16, 0.5, 0.25];
});
export const TYPE: number[][] = [
  [0, 0, 0, 0.5],
  [0, 0, 0, -1],
];
export const BIAS = [0, 0, 0, 0.25];

/** The ONNX model bytes (IR 8, opset 13). */
export function tinyBertOnnx(): Uint8Array {
  const castToFloat = [...text(1, 'to'), ...int(3, FLOAT), ...int(20, 2)];
  const nodes = [
    node('Gather', ['word_embeddings', 'input_ids'], ['words']),
    node('Gather', ['type_embeddings', 'token_type_ids'], ['types']),
    node('Add', ['words', 'types'], ['summed']),
    node('Cast', ['attention_mask'], ['mask_float'], [castToFloat]),
    node('Unsqueeze', ['mask_float', 'last_axis'], ['mask_column']),
    node('Mul', ['mask_column', 'bias'], ['masked_bias']),
    node('Add', ['summed', 'masked_bias'], ['last_hidden_state']),
  ];
  const initializers = [
    tensor('word_embeddings', [VOCAB.length, WIDTH], FLOAT, WORD.flat()),
    tensor('type_embeddings', [TYPE.length, WIDTH], FLOAT, TYPE.flat()),
    tensor('bias', [WIDTH], FLOAT, BIAS),
    tensor('last_axis', [1], INT64, [2]),
  ];
  const graph = [
    ...nodes.flatMap((entry) => bytesField(1, entry)),
    ...text(2, 'tiny-bert'),
    ...initializers.flatMap((entry) => bytesField(5, entry)),
    ...['input_ids', 'attention_mask', 'token_type_ids'].flatMap((name) => bytesField(11, valueInfo(name, INT64, ['batch', 'sequence']))),
    ...bytesField(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', 'hidden'])),
  ];
  return Uint8Array.from([...int(1, 8), ...text(2, 'm3bench-test'), ...bytesField(7, graph), ...bytesField(8, [...text(1, ''), ...int(2, 13)])]);
}

export function tinyTokenizerJson(): object {
  const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]'), special(2, '[CLS]'), special(3, '[SEP]')],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(VOCAB.map((token, id) => [token, id])),
    },
  };
}

export interface TinyModelOptions {
  pooling?: 'mean' | 'cls' | 'max';
  normalize?: boolean;
  maxSeqLength?: number;
  doLowerCase?: boolean;
  /** Leave out the ONNX file (to test the missing-model message). */
  withoutModel?: boolean;
}

/** Writes the folder and returns its path. */
export function writeTinySentenceTransformer(dir: string, options: TinyModelOptions = {}): string {
  const pooling = options.pooling ?? 'mean';
  mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  mkdirSync(path.join(dir, '1_Pooling'), { recursive: true });
  if (!options.withoutModel) writeFileSync(path.join(dir, 'onnx', 'model.onnx'), tinyBertOnnx());
  writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson()));
  const modules = [
    { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
    { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
    ...(options.normalize === false ? [] : [{ idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' }]),
  ];
  writeFileSync(path.join(dir, 'modules.json'), JSON.stringify(modules));
  writeFileSync(
    path.join(dir, '1_Pooling', 'config.json'),
    JSON.stringify({
      word_embedding_dimension: WIDTH,
      pooling_mode_cls_token: pooling === 'cls',
      pooling_mode_mean_tokens: pooling === 'mean',
      pooling_mode_max_tokens: pooling === 'max',
      pooling_mode_mean_sqrt_len_tokens: false,
    }),
  );
  writeFileSync(
    path.join(dir, 'sentence_bert_config.json'),
    JSON.stringify({ max_seq_length: options.maxSeqLength ?? 256, do_lower_case: options.doLowerCase ?? false }),
  );
  return dir;
}
