// `npm run bench:eval`: how long step evaluation takes with the built-in embedder — the full
// reference GT against itself plus five perturbed prediction sets (6 x 208 tasks), each with a
// fresh in-memory embedding cache so embedding time is included. Prints one line per set and a
// total with tasks per second. Not a test: it asserts nothing and needs ../shared/data.
import path from 'node:path';
import { EmbeddingCache } from '../../src/eval/embed/cache.js';
import { createHashgramEmbedder } from '../../src/eval/embed/hashgram.js';
import { runStepEvaluation } from '../../src/eval/step/evaluate.js';
import { perturb, type PerturbationKind } from '../../src/eval/step/perturb.js';
import { loadTrajectories, type Trajectory } from '../../src/eval/step/trajectory.js';
import { sharedDataDir } from '../support/shared-assets.js';

const dataDir = sharedDataDir();
if (!dataDir) throw new Error('bench:eval needs ../shared/data/m3bench/test_mcp_GT.json (the shared reference data)');

const loadStart = performance.now();
const gt = loadTrajectories(path.join(dataDir, 'test_mcp_GT.json'), 'gt').byId;
const loadMs = performance.now() - loadStart;

const variants: Array<[string, PerturbationKind | undefined, number]> = [
  ['GT vs GT', undefined, 0],
  ['drop-calls 0.25', 'drop-calls', 0.25],
  ['duplicate-calls 0.25', 'duplicate-calls', 0.25],
  ['corrupt-arguments 0.25', 'corrupt-arguments', 0.25],
  ['split-steps 0.5', 'split-steps', 0.5],
  ['reverse-steps 0.5', 'reverse-steps', 0.5],
];
const predictionSets: Array<[string, Map<string, Trajectory>]> = variants.map(([label, kind, strength]) => [
  label,
  kind ? perturb(gt, kind, strength, 11) : new Map(gt),
]);

const embedder = createHashgramEmbedder();
process.stdout.write(`GT load + lossless re-parse: ${loadMs.toFixed(0)} ms (${gt.size} tasks)\n`);
let totalMs = 0;
let totalTasks = 0;
for (const [label, pred] of predictionSets) {
  const cache = EmbeddingCache.memory(embedder.id);
  const start = performance.now();
  const evaluation = await runStepEvaluation({ gt, pred, embedder, cache });
  const elapsed = performance.now() - start;
  totalMs += elapsed;
  totalTasks += evaluation.perId.length;
  const { recall, precision, step_coherence_cov: coherence } = evaluation.aggregate;
  process.stdout.write(
    `${label.padEnd(24)} ${elapsed.toFixed(0).padStart(6)} ms  ${cache.stats.misses} texts embedded  recall ${recall.toFixed(3)}  precision ${precision.toFixed(3)}  coherence ${coherence.toFixed(3)}\n`,
  );
}
process.stdout.write(
  `total: ${totalTasks} tasks in ${(totalMs / 1000).toFixed(2)} s = ${((totalTasks * 1000) / totalMs).toFixed(0)} tasks/s (embedder ${embedder.id})\n`,
);
