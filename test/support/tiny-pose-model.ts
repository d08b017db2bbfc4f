// A tiny YOLO pose model, written byte by byte (protobuf wire format) for the pose tool's tests.
// It has an Ultralytics pose export's interface: input "images" [1, 3, 32, 32] float, output
// "output0" [1, 56, 21] (21 anchors of a 32 x 32 input), and computes
//   output0 = BASE + mean(images) * GAIN
// so its answer is known by hand: anchor 0 is a person (score 0.9) with keypoint k at
// (10 + k, 5 + k), visibility 0.9 for even k and 0.1 for odd k; anchor 1 repeats it one pixel to
// the right with score 0.8 (suppressed by NMS); anchor 2 is a small person whose score is the
// mean input value (a bright image shows it, a dark one does not); every other anchor scores 0.
import { bytesField, FLOAT, INT64, int, node, tensor, text, valueInfo } from './onnx-wire.js';

export const POSE_SIZE = 32;
export const POSE_ANCHORS = 21;
const ROWS = 56;

function baseOutput(): number[] {
  const values = new Array<number>(ROWS * POSE_ANCHORS).fill(0);
  const set = (row: number, anchor: number, value: number) => {
    values[row * POSE_ANCHORS + anchor] = value;
  };
  const person = (anchor: number, box: [number, number, number, number], score: number, shift: number) => {
    box.forEach((value, row) => set(row, anchor, value));
    set(4, anchor, score);
    for (let k = 0; k < 17; k += 1) {
      set(5 + 3 * k, anchor, 10 + k + shift);
      set(6 + 3 * k, anchor, 5 + k);
      set(7 + 3 * k, anchor, k % 2 === 0 ? 0.9 : 0.1);
    }
  };
  person(0, [16, 16, 16, 24], 0.9, 0);
  person(1, [17, 16, 16, 24], 0.8, 1);
  [8, 8, 4, 4].forEach((value, row) => set(row, 2, value));
  return values;
}

function gain(): number[] {
  const values = new Array<number>(ROWS * POSE_ANCHORS).fill(0);
  values[4 * POSE_ANCHORS + 2] = 1;
  return values;
}

/** The ONNX model bytes (IR 8, opset 13). */
export function tinyPoseOnnx(): Uint8Array {
  const keepDims = [...text(1, 'keepdims'), ...int(3, 1), ...int(20, 2)];
  const nodes = [
    node('ReduceMean', ['images'], ['mean4'], [keepDims]),
    node('Reshape', ['mean4', 'mean_shape'], ['mean']),
    node('Mul', ['mean', 'gain'], ['scaled']),
    node('Add', ['base', 'scaled'], ['output0']),
  ];
  const initializers = [
    tensor('base', [1, ROWS, POSE_ANCHORS], FLOAT, baseOutput()),
    tensor('gain', [1, ROWS, POSE_ANCHORS], FLOAT, gain()),
    tensor('mean_shape', [3], INT64, [1, 1, 1]),
  ];
  const graph = [
    ...nodes.flatMap((entry) => bytesField(1, entry)),
    ...text(2, 'tiny-pose'),
    ...initializers.flatMap((entry) => bytesField(5, entry)),
    ...bytesField(11, valueInfo('images', FLOAT, [1, 3, POSE_SIZE, POSE_SIZE])),
    ...bytesField(12, valueInfo('output0', FLOAT, [1, ROWS, POSE_ANCHORS])),
  ];
  return Uint8Array.from([...int(1, 8), ...text(2, 'm3bench-test'), ...bytesField(7, graph), ...bytesField(8, [...text(1, ''), ...int(2, 13)])]);
}
