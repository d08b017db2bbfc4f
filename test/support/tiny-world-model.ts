// A tiny open-vocabulary pair for the detector's tests, written byte by byte (onnx-wire.ts):
// - a CLIP-shaped text encoder: input_ids [1, sequence] int64 → text_embeds [1, 4] = the mean of
//   the tokens' rows of TEXT_TABLE, with a WordPiece tokenizer.json over TEXT_VOCAB;
// - a YOLO-World-shaped detector: images [1, 3, 32, 32] and txt_feats [1, 2, 4] → output0
//   [1, 6, 21] = boxes (WORLD_BOXES) then txt_feats x SCORE_MATRIX, so each prompt slot's score at
//   an anchor is its embedding's dot product with that anchor's column.
// Anchor 0 answers "hardhat" (0.9), anchor 1 "ladder" (0.6), anchor 2 "wolf" (0.1, under the
// default threshold); the image does not change the output.
import { bytesField, FLOAT, INT64, int, node, tensor, text, valueInfo } from './onnx-wire.js';

export const TEXT_VOCAB = ['[UNK]', 'hardhat', 'ladder', 'wolf'] as const;
/** Rows are not unit length on purpose ("ladder"): the detector's code normalises them. */
const TEXT_TABLE = [
  [0, 0, 0, 1],
  [1, 0, 0, 0],
  [0, 2, 0, 0],
  [0, 0, 1, 0],
];
export const WORLD_SLOTS = 2;
const ANCHORS = 21;
/** [cx, cy, w, h] per anchor in 32 x 32 input pixels (anchors 3-20 are empty). */
const WORLD_BOXES: Array<[number, number, number, number]> = [
  [8, 8, 8, 8],
  [20, 20, 8, 16],
  [28, 4, 4, 4],
];

function boxes(): number[] {
  const values = new Array<number>(4 * ANCHORS).fill(0);
  WORLD_BOXES.forEach((box, anchor) => box.forEach((value, row) => (values[row * ANCHORS + anchor] = value)));
  return values;
}

function scoreMatrix(): number[] {
  const values = new Array<number>(4 * ANCHORS).fill(0);
  values[0 * ANCHORS + 0] = 0.9;
  values[1 * ANCHORS + 1] = 0.6;
  values[2 * ANCHORS + 2] = 0.1;
  return values;
}

const model = (graph: number[]) =>
  Uint8Array.from([...int(1, 8), ...text(2, 'm3bench-test'), ...bytesField(7, graph), ...bytesField(8, [...text(1, ''), ...int(2, 13)])]);

export function tinyClipTextOnnx(): Uint8Array {
  const axes = [...text(1, 'axes'), ...int(8, 1), ...int(20, 7)];
  const keepDims = [...text(1, 'keepdims'), ...int(3, 0), ...int(20, 2)];
  const graph = [
    ...bytesField(1, node('Gather', ['table', 'input_ids'], ['rows'])),
    ...bytesField(1, node('ReduceMean', ['rows'], ['text_embeds'], [axes, keepDims])),
    ...text(2, 'tiny-clip-text'),
    ...bytesField(5, tensor('table', [TEXT_VOCAB.length, 4], FLOAT, TEXT_TABLE.flat())),
    ...bytesField(11, valueInfo('input_ids', INT64, [1, 'sequence'])),
    ...bytesField(12, valueInfo('text_embeds', FLOAT, [1, 4])),
  ];
  return model(graph);
}

export function tinyClipTokenizerJson(): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: null,
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TEXT_VOCAB.map((token, id) => [token, id])),
    },
  };
}

export function tinyWorldOnnx(): Uint8Array {
  const axis = [...text(1, 'axis'), ...int(3, 1), ...int(20, 2)];
  const graph = [
    ...bytesField(1, node('MatMul', ['txt_feats', 'score_matrix'], ['scores'])),
    ...bytesField(1, node('Concat', ['boxes', 'scores'], ['output0'], [axis])),
    ...text(2, 'tiny-world'),
    ...bytesField(5, tensor('boxes', [1, 4, ANCHORS], FLOAT, boxes())),
    ...bytesField(5, tensor('score_matrix', [4, ANCHORS], FLOAT, scoreMatrix())),
    ...bytesField(11, valueInfo('images', FLOAT, [1, 3, 32, 32])),
    ...bytesField(11, valueInfo('txt_feats', FLOAT, [1, WORLD_SLOTS, 4])),
    ...bytesField(12, valueInfo('output0', FLOAT, [1, 4 + WORLD_SLOTS, ANCHORS])),
  ];
  return model(graph);
}
