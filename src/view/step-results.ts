// The step evaluator's outputs for a run, read from <results-dir>/<model label>/results_eval.json:
// the one source of the viewer's metrics and call alignment (the matches, and the GT and
// predicted calls left unmatched, exactly as `m3 eval step` computed them).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defaultThresholds } from '../eval/step/metrics.js';
import { OUTPUT_FILES } from '../eval/step/outputs.js';

const matchSchema = z.object({
  gt_call_index: z.number().int(),
  pred_call_index: z.number().int(),
  gt_step: z.number().int(),
  pred_step: z.number().int(),
  similarity: z.number(),
  gt_tool: z.string(),
  pred_tool: z.string(),
});

const perIdSchema = z.object({
  id: z.string(),
  total_gt_calls: z.number(),
  total_pred_calls: z.number(),
  matched: z.number(),
  recall: z.number(),
  precision: z.number(),
  avg_sim_all_cov: z.number(),
  avg_sim_strong_cov: z.number(),
  step_coherence_cov: z.number(),
  order_consistency_cov: z.number(),
  merge_purity_cov: z.number(),
  /** Float32 noise could change a reference metric (src/eval/step/tie-bounds.ts); absent in older files. */
  tie_sensitive: z.boolean().optional(),
  tie_bounds: z.record(z.string(), z.tuple([z.number(), z.number()])).optional(),
  details: z.union([
    z.object({ unmatched_gt_indices: z.array(z.number().int()), unmatched_pred_indices: z.array(z.number().int()), matches: z.array(matchSchema) }),
    z.object({}),
  ]),
});

const resultsSchema = z.object({
  aggregate: z.record(z.string(), z.unknown()),
  per_id: z.array(perIdSchema),
  thresholds: z.object({ tau_strong: z.number(), tau_weak: z.number() }).optional(),
  /** The embedding cache the evaluator read and wrote: the viewer reads its vectors for the similarity of unmatched pairs. */
  embedding_cache: z
    .object({ file: z.string(), format: z.enum(['keyed', 'reference']), embedder: z.string() })
    .loose()
    .nullish(),
});

export type TaskStepScore = z.output<typeof perIdSchema>;

interface StepResults {
  file: string;
  aggregate: Record<string, unknown>;
  perId: Map<string, TaskStepScore>;
  thresholds: { tauStrong: number; tauWeak: number };
  embeddingCache: { file: string; format: 'keyed' | 'reference'; embedder: string } | null;
  /** `reference-compat` computed similarities in float32. */
  mode: string;
}

export type StepResultsLookup = { found: StepResults } | { missing: string };

/** The run's step results, or why there are none (not evaluated yet, unreadable file). */
export function readStepResults(resultsDir: string, modelLabel: string): StepResultsLookup {
  const file = path.join(resultsDir, modelLabel, OUTPUT_FILES.results);
  if (!existsSync(file)) return { missing: `no step evaluation at ${path.relative(process.cwd(), file) || file}: run \`m3 eval step\` for ${modelLabel}` };
  let parsed: z.output<typeof resultsSchema>;
  try {
    parsed = resultsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    return { missing: `${file} is not a step evaluation output: ${(error as Error).message.slice(0, 300)}` };
  }
  return {
    found: {
      file,
      aggregate: parsed.aggregate,
      perId: new Map(parsed.per_id.map((score) => [score.id, score])),
      thresholds: {
        tauStrong: parsed.thresholds?.tau_strong ?? defaultThresholds.tauStrong,
        tauWeak: parsed.thresholds?.tau_weak ?? defaultThresholds.tauWeak,
      },
      embeddingCache: parsed.embedding_cache?.file
        ? { file: parsed.embedding_cache.file, format: parsed.embedding_cache.format, embedder: parsed.embedding_cache.embedder }
        : null,
      mode: typeof parsed.aggregate.mode === 'string' ? parsed.aggregate.mode : 'default',
    },
  };
}
