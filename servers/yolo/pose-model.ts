// The optional pose model of detect-human-pose-keypoints: M3_YOLO_POSE_MODEL, else the asset
// "yolo11n-pose" of media/vision-models.json (`m3 assets pull --manifest
// media/vision-models.json`). The tool is offered only when this file is present at server start
// (index.ts), so an offline run lists exactly the tools that can answer.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { assetPath, loadAssetManifest, visionModelManifestFile } from '../../src/assets/index.js';
import { maxImagePixels } from '../shared/image-input.js';
import { ModelUnavailableError } from './detector.js';
import { anchorCount, centredLetterbox, decodePoseOutput, type PoseDetection, toImageFrame, toPoseTensor } from './pose-decode.js';
import { yoloSessionOptions } from './session-options.js';

const poseAssetName = 'yolo11n-pose';
/** The reference's cloud call used bbox_threshold 0.25; Ultralytics' NMS default IoU is 0.7. */
export const poseScoreThreshold = 0.25;
const poseIouThreshold = 0.7;
const defaultPoseSize = 640;

/** The pose model file, or undefined when none is configured or pulled. A configured path that does not exist is an error. */
export function findPoseModel(env: NodeJS.ProcessEnv = process.env, manifestFile = visionModelManifestFile): string | undefined {
  const configured = env.M3_YOLO_POSE_MODEL?.trim();
  if (configured) {
    const file = path.resolve(configured);
    if (!existsSync(file)) throw new ModelUnavailableError(`M3_YOLO_POSE_MODEL points at ${file}, which does not exist`);
    return file;
  }
  try {
    return assetPath(poseAssetName, { manifest: loadAssetManifest(manifestFile) });
  } catch {
    return undefined;
  }
}

export interface PoseSession {
  session: ort.InferenceSession;
  /** Side of the square input, read from the model (640 when its shape is symbolic). */
  size: number;
  file: string;
}

export async function loadPoseSession(file: string, env: NodeJS.ProcessEnv = process.env): Promise<PoseSession> {
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(file, yoloSessionOptions(env));
  } catch (error) {
    throw new ModelUnavailableError(`cannot load the pose model ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const input = session.inputMetadata[0];
  const side = input?.isTensor ? input.shape[3] : undefined;
  return { session, size: typeof side === 'number' && side > 0 ? side : defaultPoseSize, file };
}

export interface PoseRun {
  people: PoseDetection[];
  width: number;
  height: number;
}

/** Decode (EXIF orientation applied), letterbox, run, decode, map back to image pixels. */
export async function detectPoses(pose: PoseSession, bytes: Buffer, scoreThreshold = poseScoreThreshold): Promise<PoseRun> {
  const metadata = await sharp(bytes, { limitInputPixels: maxImagePixels }).metadata();
  // EXIF orientations 5-8 are transposed: the displayed image has width and height swapped.
  const transposed = (metadata.orientation ?? 1) >= 5;
  const original = { width: (transposed ? metadata.height : metadata.width) ?? 0, height: (transposed ? metadata.width : metadata.height) ?? 0 };
  const box = centredLetterbox(original.width, original.height, pose.size);
  const { data: pixels, info } = await sharp(bytes, { limitInputPixels: maxImagePixels })
    .rotate()
    .resize(box.resizedWidth, box.resizedHeight, { fit: 'fill' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tensor = toPoseTensor(pixels, info.channels, box, pose.size);
  const inputName = pose.session.inputNames[0] ?? 'images';
  const outputName = pose.session.outputNames[0] ?? 'output0';
  const outputs = await pose.session.run({ [inputName]: new ort.Tensor('float32', tensor, [1, 3, pose.size, pose.size]) });
  const output = outputs[outputName];
  if (!output || !(output.data instanceof Float32Array)) throw new Error(`pose model returned no float32 "${outputName}" tensor`);
  const people = decodePoseOutput(output.data, { anchors: anchorCount(pose.size), scoreThreshold, iouThreshold: poseIouThreshold });
  return { people: toImageFrame(people, box, original.width, original.height), width: original.width, height: original.height };
}
