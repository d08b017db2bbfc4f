// YOLOX-nano on onnxruntime-node: one InferenceSession per process, created on first use and
// reused; detection = prepare (sharp) → run → decode → per-class NMS → original pixels.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { assetPath, type AssetLocation } from '../../src/assets/index.js';
import { cocoLabels } from './labels.js';
import { decodeOutput, nonMaxSuppression, toOriginalFrame, type Box } from './postprocess.js';
import { type ImageHeader, inputSize, prepareImage, type PreparedImage } from './preprocess.js';
import { takeTensorBuffer, yoloSessionOptions } from './session-options.js';

/** From the shared assets' detection_settings: the reference detections use these. */
export const defaultScoreThreshold = 0.4;
export const nmsIouThreshold = 0.45;
const modelAssetName = 'yolox-nano';

export class ModelUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelUnavailableError';
  }
}

/**
 * M3_YOLO_MODEL when set, else the pulled asset media/assets/models/yolox_nano.onnx.
 * @internal Exported for its tests.
 */
export function resolveModelPath(env: NodeJS.ProcessEnv = process.env, location: AssetLocation = {}): string {
  const configured = env.M3_YOLO_MODEL?.trim();
  if (configured) {
    const file = path.resolve(configured);
    if (!existsSync(file)) {
      throw new ModelUnavailableError(
        `M3_YOLO_MODEL points at ${file}, which does not exist; fix the path, or unset it and run \`m3 assets pull ${modelAssetName}\``,
      );
    }
    return file;
  }
  try {
    return assetPath(modelAssetName, location);
  } catch (error) {
    throw new ModelUnavailableError(
      `YOLOX model not available: ${error instanceof Error ? error.message : String(error)}; or set M3_YOLO_MODEL to an existing yolox_nano.onnx`,
      { cause: error },
    );
  }
}

/** @internal Exported for its tests. */
export async function createYoloSession(modelPath: string, env: NodeJS.ProcessEnv = process.env): Promise<ort.InferenceSession> {
  try {
    return await ort.InferenceSession.create(modelPath, yoloSessionOptions(env));
  } catch (error) {
    throw new ModelUnavailableError(`cannot load the YOLOX model ${modelPath}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

let sharedSession: Promise<ort.InferenceSession> | undefined;

/** The process-wide session; a failed load is forgotten so a later call (after a pull) can retry. */
export function getSession(env: NodeJS.ProcessEnv = process.env): Promise<ort.InferenceSession> {
  if (!sharedSession) {
    sharedSession = Promise.resolve()
      .then(() => createYoloSession(resolveModelPath(env), env))
      .catch((error: unknown) => {
        sharedSession = undefined;
        throw error;
      });
  }
  return sharedSession;
}

/**
 * Runs the raw head on a prepared NCHW tensor; returns the [3549 x 85] output values.
 * @internal Exported for its tests.
 */
export async function runModel(session: ort.InferenceSession, data: Float32Array, size = inputSize): Promise<Float32Array> {
  const inputName = session.inputNames[0] ?? 'images';
  const outputName = session.outputNames[0] ?? 'output';
  const outputs = await session.run({ [inputName]: new ort.Tensor('float32', data, [1, 3, size, size]) });
  const output = outputs[outputName];
  if (!output || !(output.data instanceof Float32Array)) throw new Error(`model returned no float32 "${outputName}" tensor`);
  return output.data;
}

export interface Detection extends Box {
  category: string;
}

export interface DetectionRun {
  detections: Detection[];
  width: number;
  height: number;
  timings: { prepareMs: number; inferenceMs: number; postprocessMs: number };
}

/** `header`: the image's stored size and EXIF orientation when already read (saves a header parse). */
export async function detectObjects(
  session: ort.InferenceSession,
  bytes: Buffer,
  scoreThreshold = defaultScoreThreshold,
  header?: ImageHeader,
): Promise<DetectionRun> {
  const started = performance.now();
  const buffer = takeTensorBuffer();
  try {
    const prepared = await prepareImage(bytes, inputSize, buffer.data, header);
    const preparedAt = performance.now();
    const output = await runModel(session, prepared.data);
    const ranAt = performance.now();
    return finishDetection(output, prepared, scoreThreshold, { started, preparedAt, ranAt });
  } finally {
    buffer.release();
  }
}

function finishDetection(
  output: Float32Array,
  prepared: PreparedImage,
  scoreThreshold: number,
  { started, preparedAt, ranAt }: { started: number; preparedAt: number; ranAt: number },
): DetectionRun {
  const decoded = decodeOutput(output, { size: inputSize, numClasses: cocoLabels.length, scoreThreshold });
  const boxes = toOriginalFrame(nonMaxSuppression(decoded, nmsIouThreshold), prepared.letterbox.scale, prepared.width, prepared.height);
  const detections = boxes.map((box) => ({ ...box, category: cocoLabels[box.classId] ?? `class ${box.classId}` }));
  return {
    detections,
    width: prepared.width,
    height: prepared.height,
    timings: { prepareMs: preparedAt - started, inferenceMs: ranAt - preparedAt, postprocessMs: performance.now() - ranAt },
  };
}
