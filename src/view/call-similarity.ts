// For each GT call of a task, its best predicted call and why the matching decided as it did:
// strong / weak (the recorded match and the threshold it cleared), or unmatched (the best
// same-tool candidate's similarity below tau_weak, the candidate taken by another GT call, or no
// predicted call of that tool: the step matching pairs calls of one tool only). Similarities of
// unmatched pairs are not in results_eval.json; they are recomputed from the vectors of the
// embedding cache the evaluator recorded (the same cosine, float32 in reference-compat mode), so
// no model runs here. Marks: `threshold` when a similarity is within float32 noise of a threshold,
// `tie` when another candidate is within that noise of the chosen one (src/eval/step/tie-bounds.ts).
import { statSync } from 'node:fs';
import path from 'node:path';
import { EmbeddingCache } from '../eval/embed/cache.js';
import { createFloat32Similarity } from '../eval/step/float32.js';
import { createEmbeddingSimilarity } from '../eval/step/similarity.js';
import { FLOAT32_NOISE } from '../eval/step/tie-bounds.js';
import type { Trajectory } from '../eval/step/trajectory.js';

export interface BestMatch {
  gt: number;
  /** The matched or best same-tool predicted call; null: none of that tool. */
  pred: number | null;
  similarity: number | null;
  decision: 'strong' | 'weak' | 'unmatched';
  /** Which threshold or fact decided, in words. */
  reason: string;
  marks: Array<'tie' | 'threshold'>;
}

interface Thresholds {
  tauStrong: number;
  tauWeak: number;
}

interface CacheRef {
  file: string;
  format: 'keyed' | 'reference';
  embedder: string;
}

let loaded: { key: string; cache: EmbeddingCache } | undefined;

function cacheOf(ref: CacheRef): EmbeddingCache | string {
  const file = path.resolve(ref.file);
  let key: string;
  try {
    const stat = statSync(file);
    key = `${file}:${stat.mtimeMs}:${stat.size}:${ref.embedder}`;
  } catch {
    return `the embedding cache ${ref.file} the evaluation used is gone`;
  }
  if (loaded?.key !== key) {
    try {
      loaded = { key, cache: EmbeddingCache.load(file, ref.format, ref.embedder, { protectForeign: true }) };
    } catch (error) {
      return `the embedding cache ${ref.file} is unreadable: ${(error as Error).message.slice(0, 200)}`;
    }
  }
  return loaded.cache;
}

/** sims[g][p] from the cached vectors, or why they are unknown. */
export function similaritiesOf(gt: Trajectory, pred: Trajectory, ref: CacheRef | null, float32: boolean): number[][] | string {
  if (!ref) return 'the step evaluation recorded no embedding cache, so the similarity of unmatched pairs is unknown';
  const cache = cacheOf(ref);
  if (typeof cache === 'string') return cache;
  const vectors = new Map<string, Float32Array>();
  for (const call of [...gt.calls, ...pred.calls]) {
    const vector = cache.lookup(call.text, 0);
    if (!vector) return `the embedding cache has no vector for ${JSON.stringify(call.text.slice(0, 60))} (re-run \`m3 eval step\` to fill it)`;
    vectors.set(call.text, vector);
  }
  return (float32 ? createFloat32Similarity(vectors) : createEmbeddingSimilarity(vectors))(gt, pred);
}

const fixed = (value: number) => value.toFixed(3);

function thresholdMark(similarity: number, thresholds: Thresholds): Array<'threshold'> {
  return [thresholds.tauStrong, thresholds.tauWeak].some((tau) => Math.abs(similarity - tau) <= FLOAT32_NOISE) ? ['threshold'] : [];
}

function matchedLine(gt: number, pred: number, similarity: number, thresholds: Thresholds, rivals: number[]): BestMatch {
  const strong = similarity >= thresholds.tauStrong;
  const tie = rivals.some((other) => Math.abs(other - similarity) <= FLOAT32_NOISE) ? (['tie'] as const) : [];
  return {
    gt,
    pred,
    similarity,
    decision: strong ? 'strong' : 'weak',
    reason: strong
      ? `similarity ${fixed(similarity)} ≥ τ_strong ${thresholds.tauStrong}`
      : `τ_weak ${thresholds.tauWeak} ≤ similarity ${fixed(similarity)} < τ_strong ${thresholds.tauStrong}`,
    marks: [...tie, ...thresholdMark(similarity, thresholds)],
  };
}

interface Pairing {
  gt: Trajectory;
  pred: Trajectory;
  /** Recorded matches: GT index → [pred index, similarity]. */
  matched: Map<number, [number, number]>;
  thresholds: Thresholds;
  sims: number[][] | string;
}

function unmatchedLine(pairing: Pairing, g: number, takenBy: Map<number, number>): BestMatch {
  const { gt, pred, thresholds, sims } = pairing;
  const tool = gt.calls[g]?.tool ?? '';
  const candidates = pred.calls.flatMap((call, p) => (call.tool === tool ? [p] : []));
  if (candidates.length === 0) return { gt: g, pred: null, similarity: null, decision: 'unmatched', reason: `no predicted call of ${tool}`, marks: [] };
  if (typeof sims === 'string') return { gt: g, pred: candidates[0] ?? null, similarity: null, decision: 'unmatched', reason: sims, marks: [] };
  const row = sims[g] ?? [];
  const best = candidates.reduce((a, b) => ((row[b] ?? -2) > (row[a] ?? -2) ? b : a));
  const similarity = row[best] ?? Number.NaN;
  const owner = takenBy.get(best);
  const reason =
    similarity < thresholds.tauWeak
      ? `best ${tool} call #${best}: similarity ${fixed(similarity)} < τ_weak ${thresholds.tauWeak}`
      : `best ${tool} call #${best} (similarity ${fixed(similarity)}) went to GT call #${owner ?? '?'} in the optimal assignment`;
  const tie = candidates.some((p) => p !== best && Math.abs((row[p] ?? -2) - similarity) <= FLOAT32_NOISE) ? (['tie'] as const) : [];
  return { gt: g, pred: best, similarity, decision: 'unmatched', reason, marks: [...tie, ...thresholdMark(similarity, thresholds)] };
}

/** One line per GT call, in GT order. */
export function bestMatches(pairing: Pairing): BestMatch[] {
  const takenBy = new Map([...pairing.matched].map(([g, [p]]) => [p, g]));
  return pairing.gt.calls.map((call, g) => {
    const match = pairing.matched.get(g);
    if (!match) return unmatchedLine(pairing, g, takenBy);
    const [p, similarity] = match;
    const row = typeof pairing.sims === 'string' ? [] : (pairing.sims[g] ?? []);
    const rivals = pairing.pred.calls.flatMap((other, q) => (q !== p && other.tool === call.tool && row[q] !== undefined ? [row[q]] : []));
    return matchedLine(g, p, similarity, pairing.thresholds, rivals);
  });
}
