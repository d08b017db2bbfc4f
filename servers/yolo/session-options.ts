// Run-time tuning of the detector for a small model on few, shared cores: the onnxruntime
// session options and a pool of reusable input tensors (one 3x416x416 float buffer is 2 MB;
// allocating and zero-filling it per call showed up in the per-stage split of bench:vision).
import { availableParallelism } from 'node:os';
import type * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { inputSize } from './preprocess.js';

/**
 * YOLOX-Nano is ~1 GFLOP: two intra-op threads at most (more only adds synchronisation), no
 * inter-op parallelism (the graph is a chain), and no spin-waiting, because on a machine shared
 * with the host and other servers a spinning worker steals the core the next stage needs.
 * M3_YOLO_THREADS overrides the intra-op thread count; M3_YOLO_SPIN=1 turns spinning back on.
 */
export function yoloSessionOptions(env: NodeJS.ProcessEnv = process.env): ort.InferenceSession.SessionOptions {
  const configured = Number.parseInt(env.M3_YOLO_THREADS ?? '', 10);
  const threads = Number.isInteger(configured) && configured > 0 ? configured : Math.min(2, availableParallelism());
  return {
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    extra: { session: { intra_op: { allow_spinning: env.M3_YOLO_SPIN === '1' ? '1' : '0' } } },
  };
}

/**
 * libvips' operation cache keeps recent decodes in memory: for a detector that sees each image
 * once it only costs memory, and in a benchmark it would make repeated calls look faster than a
 * new image would be. Called once by the server entry.
 */
export function disableImageCache(): void {
  sharp.cache(false);
}

export interface TensorBuffer {
  data: Float32Array;
  release(): void;
}

const free: Float32Array[] = [];
/** Concurrent calls each take their own buffer; more than this many idle ones are dropped. */
const maxIdle = 4;

/** A 3 x inputSize x inputSize buffer for one call; `release()` returns it after the model run. */
export function takeTensorBuffer(): TensorBuffer {
  const data = free.pop() ?? new Float32Array(3 * inputSize * inputSize);
  let released = false;
  return {
    data,
    release() {
      if (released) return;
      released = true;
      if (free.length < maxIdle) free.push(data);
    },
  };
}
