// `npm run bench:eval` (not a test: it asserts nothing and needs ../shared/data):
//  1. how long step evaluation takes in memory with the built-in embedder: the reference GT (208
//     tasks) against itself plus five perturbed prediction sets, each with a fresh embedding
//     cache so embedding time is included;
//  2. side by side with the reference's own evaluator (evaluate_trajectories.py, run by python3
//     with numpy/scipy; skipped with a message otherwise), files to files on the same inputs:
//     predictions built from the GT (what replay:gt writes) and two perturbed sets, both sides
//     reading one `.emb_cache.json` filled with the same vectors, so the ratio compares loading,
//     matching, metrics and output writing. Medians of M3_BENCH_ROUNDS (default 3) interleaved runs;
//  3. with the reference's encoder (all-MiniLM-L6-v2) in-process, when its weights are pulled
//     (src/assets/encoders.ts; skipped with a message otherwise): the GT against itself, embedding included.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'lossless-json';
import { findReferenceEncoder } from '../../src/assets/encoders.js';
import { EmbeddingCache } from '../../src/eval/embed/cache.js';
import { createHashgramEmbedder } from '../../src/eval/embed/hashgram.js';
import { createReferenceEmbedder, isEncoderPulled, STEP_REFERENCE_ENCODER } from '../../src/eval/embed/reference.js';
import type { Embedder } from '../../src/eval/embed/types.js';
import type { StepMode } from '../../src/eval/step/aggregate.js';
import { runStepEvaluation } from '../../src/eval/step/evaluate.js';
import { defaultThresholds } from '../../src/eval/step/metrics.js';
import { type PerturbationKind, perturb, toPredictionRecords } from '../support/perturb.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { loadTrajectories, type Trajectory } from '../../src/eval/step/trajectory.js';
import { sharedDataDir } from '../support/shared-assets.js';
import { loadLine } from './bench-support.js';
import { findReferenceEvaluator, runReferenceEvaluator } from './reference-python.js';

const dataDir = sharedDataDir();
if (!dataDir) throw new Error('bench:eval needs ../shared/data/m3bench/test_mcp_GT.json (the shared reference data)');
const gtFile = path.join(dataDir, 'test_mcp_GT.json');
const rounds = Number(process.env.M3_BENCH_ROUNDS ?? 3);
const out = (line: string) => process.stdout.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function inMemory(gt: Map<string, Trajectory>, embedder: Embedder): Promise<void> {
  const variants: Array<[string, PerturbationKind | undefined, number]> = [
    ['GT vs GT', undefined, 0],
    ['drop-calls 0.25', 'drop-calls', 0.25],
    ['duplicate-calls 0.25', 'duplicate-calls', 0.25],
    ['corrupt-arguments 0.25', 'corrupt-arguments', 0.25],
    ['split-steps 0.5', 'split-steps', 0.5],
    ['reverse-steps 0.5', 'reverse-steps', 0.5],
  ];
  let totalMs = 0;
  let totalTasks = 0;
  for (const [label, kind, strength] of variants) {
    const pred = kind ? perturb(gt, kind, strength, 11) : new Map(gt);
    const cache = EmbeddingCache.memory(embedder.id);
    const start = performance.now();
    const evaluation = await runStepEvaluation({ gt, pred, embedder, cache });
    const elapsed = performance.now() - start;
    totalMs += elapsed;
    totalTasks += evaluation.perId.length;
    const { recall, precision, step_coherence_cov: coherence } = evaluation.aggregate;
    out(
      `  ${label.padEnd(24)} ${elapsed.toFixed(0).padStart(6)} ms  ${cache.stats.misses} texts embedded  recall ${recall.toFixed(3)}  precision ${precision.toFixed(3)}  coherence ${coherence.toFixed(3)}`,
    );
  }
  out(`  total: ${totalTasks} tasks in ${(totalMs / 1000).toFixed(2)} s = ${((totalTasks * 1000) / totalMs).toFixed(0)} tasks/s (embedder ${embedder.id})`);
}

/** Ours from files to files: load, check, embed from the warm cache, score, write every output. */
async function oursSeconds(predFile: string, dir: string, cacheFile: string, embedder: Embedder, mode: StepMode) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(cacheFile, path.join(dir, '.emb_cache.json'));
  const started = performance.now();
  const result = await runStepFiles({ gtFile, predFile, outputDir: dir, embedder, mode, thresholds: defaultThresholds, cacheFormat: 'reference' });
  const seconds = (performance.now() - started) / 1000;
  if (result.cache.stats.misses > 0) throw new Error(`${result.cache.stats.misses} texts were embedded: the warm cache should hold them all`);
  return { seconds, recall: result.evaluation.aggregate.recall, precision: result.evaluation.aggregate.precision };
}

async function sideBySide(gt: Map<string, Trajectory>, embedder: Embedder): Promise<void> {
  const reference = findReferenceEvaluator();
  if ('skip' in reference) {
    out(`  skipped: ${reference.skip}`);
    return;
  }
  out(`  reference script: ${reference.file}; ${rounds} interleaved rounds, medians; embedder ${embedder.id} for both (one cache file)`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-eval-'));
  const sets: Array<[string, Map<string, Trajectory>]> = [
    ['replay:gt predictions', new Map(gt)],
    ['drop-calls 0.25', perturb(gt, 'drop-calls', 0.25, 11)],
    ['corrupt-arguments 0.25', perturb(gt, 'corrupt-arguments', 0.25, 11)],
  ];
  for (const [index, [label, pred]] of sets.entries()) {
    const predFile = path.join(work, `pred-${index}.json`);
    writeFileSync(predFile, stringify(toPredictionRecords(pred), undefined, 2) ?? '[]');
    // Fill the cache once (reference format: the flat {text: vector} file the reference reads).
    const warm = path.join(work, `warm-${index}`);
    await runStepFiles({ gtFile, predFile, outputDir: warm, embedder, mode: 'reference-compat', thresholds: defaultThresholds, cacheFormat: 'reference' });
    const cacheFile = path.join(warm, '.emb_cache.json');
    const times = { compat: [] as number[], fixed: [] as number[], ref: [] as number[], refProcess: [] as number[] };
    let agreement = '';
    for (let round = 0; round < rounds; round += 1) {
      const compat = await oursSeconds(predFile, path.join(work, `ours-${index}-${round}`), cacheFile, embedder, 'reference-compat');
      const fixed = await oursSeconds(predFile, path.join(work, `default-${index}-${round}`), cacheFile, embedder, 'default');
      const refDir = path.join(work, `ref-${index}-${round}`);
      mkdirSync(refDir, { recursive: true });
      copyFileSync(cacheFile, path.join(refDir, '.emb_cache.json'));
      const ref = runReferenceEvaluator(reference.file, gtFile, predFile, refDir);
      times.compat.push(compat.seconds);
      times.fixed.push(fixed.seconds);
      times.ref.push(ref.seconds);
      times.refProcess.push(ref.processSeconds);
      agreement = `recall ${compat.recall.toFixed(4)} / ${ref.recall.toFixed(4)}, precision ${compat.precision.toFixed(4)} / ${ref.precision.toFixed(4)} (ours compat / reference)`;
    }
    const [compat, fixed, ref, refProcess] = [median(times.compat), median(times.fixed), median(times.ref), median(times.refProcess)];
    out(`  ${label} (${pred.size} tasks):`);
    out(
      `    ours --reference-compat ${(compat * 1000).toFixed(0)} ms, ours default ${(fixed * 1000).toFixed(0)} ms, reference main() ${(ref * 1000).toFixed(0)} ms (python3 process ${(refProcess * 1000).toFixed(0)} ms)`,
    );
    out(`    reference / ours (compat): ${(ref / compat).toFixed(2)}x; reference process / ours: ${(refProcess / compat).toFixed(2)}x; ${agreement}`);
  }
  out(`  ${loadLine()}`);
}

async function referenceEncoder(gt: Map<string, Trajectory>): Promise<void> {
  const encoder = findReferenceEncoder(STEP_REFERENCE_ENCODER);
  if (!encoder || !isEncoderPulled(encoder)) {
    out(`  skipped: ${STEP_REFERENCE_ENCODER} is not pulled (m3 assets pull --manifest media/encoders.json)`);
    return;
  }
  const embedder = createReferenceEmbedder(STEP_REFERENCE_ENCODER);
  const cache = EmbeddingCache.memory(embedder.id);
  const started = performance.now();
  const evaluation = await runStepEvaluation({ gt, pred: new Map(gt), embedder, cache, mode: 'reference-compat' });
  const seconds = (performance.now() - started) / 1000;
  out(`  GT vs GT, ${evaluation.perId.length} tasks, ${cache.stats.misses} texts embedded: ${seconds.toFixed(2)} s (embedding included); ${loadLine()}`);
}

out(`${loadLine()} at the start`);
const loadStart = performance.now();
const gt = loadTrajectories(gtFile, 'gt').byId;
out(`GT load + lossless re-parse: ${(performance.now() - loadStart).toFixed(0)} ms (${gt.size} tasks)\n`);
const hashgram = createHashgramEmbedder();
out('1. in memory, fresh embedding cache per set (embedding included)');
await inMemory(gt, hashgram);
out('\n2. side by side with the reference evaluator (python3 evaluate_trajectories.py main()), files to files, warm cache');
await sideBySide(gt, hashgram);
out('\n3. the reference encoder in-process');
await referenceEncoder(gt);
