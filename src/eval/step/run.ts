// One complete step evaluation from files to files, as `m3 eval step` and the scripts run it:
// load + validate GT and predictions, check the GT, embed (with the cache file), score, write
// every output. Logging goes through the injected `warn` so the CLI decides where it ends up.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EvaluationError } from '../../errors/index.js';
import { EmbeddingCache, type CacheFormat } from '../embed/cache.js';
import { describeEmbedder } from '../embed/registry.js';
import type { Embedder, EmbedderRecord } from '../embed/types.js';
import { loadInfraFailures, manifestFileFor } from '../infra-failures.js';
import type { StepMode } from './aggregate.js';
import { runStepEvaluation, type StepEvaluation } from './evaluate.js';
import { checkGroundTruth, describeGtChecks, type GtChecks } from './gt-checks.js';
import { OUTPUT_FILES, writeStepOutputs } from './outputs.js';
import type { StepThresholds } from './metrics.js';
import { describeTrimmedIds, loadTrajectories } from './trajectory.js';

export interface StepRunOptions {
  gtFile: string;
  predFile: string;
  outputDir: string;
  embedder: Embedder;
  mode: StepMode;
  thresholds: StepThresholds;
  /** Defaults to `<outputDir>/.emb_cache.json`. */
  cacheFile?: string;
  cacheFormat?: CacheFormat;
  /** Allow writing to a cache file m3bench did not write (a reference-format cache). */
  updateForeignCache?: boolean;
  /** Largest number of parallel calls one round may run (reported GT steps above it); 0 = off. */
  roundCap?: number;
  /** The run manifest listing infrastructure failures (default: beside the predictions). */
  runManifest?: string;
  warn?: (message: string) => void;
}

export interface StepRunResult {
  evaluation: StepEvaluation;
  files: Record<keyof typeof OUTPUT_FILES, string>;
  cache: EmbeddingCache;
  gtChecks: GtChecks;
  embedder: EmbedderRecord;
}

export function validateThresholds(thresholds: StepThresholds): void {
  const { tauStrong, tauWeak } = thresholds;
  for (const [name, value] of [
    ['--tau-strong', tauStrong],
    ['--tau-weak', tauWeak],
  ] as const) {
    if (!Number.isFinite(value) || value < -1 || value > 1)
      throw new EvaluationError(`${name} must be a number between -1 and 1 (cosine similarity), got ${value}`);
  }
  if (tauWeak > tauStrong) throw new EvaluationError(`--tau-weak (${tauWeak}) must not exceed --tau-strong (${tauStrong})`);
}

export async function runStepFiles(options: StepRunOptions): Promise<StepRunResult> {
  const warn = options.warn ?? (() => undefined);
  validateThresholds(options.thresholds);
  const ids = options.mode === 'reference-compat' ? 'exact' : 'trimmed';
  const gt = loadTrajectories(options.gtFile, 'gt', ids);
  const pred = loadTrajectories(options.predFile, 'pred', ids);
  for (const line of describeTrimmedIds(gt, pred)) warn(line);
  const gtChecks = checkGroundTruth(gt.raw, gt.duplicates, options.roundCap ?? 10);
  for (const line of describeGtChecks(gtChecks)) warn(line);
  if (pred.duplicates.length > 0)
    warn(
      `${options.predFile}: ${pred.duplicates.length} duplicated prediction id(s), the last record wins: ${pred.duplicates.map((entry) => entry.id).join(', ')}`,
    );
  if (gt.byId.size === 0) throw new EvaluationError(`${options.gtFile}: no ground-truth task with a non-empty id`);

  const cacheFile = options.cacheFile ?? path.join(options.outputDir, OUTPUT_FILES.cache);
  const cache = EmbeddingCache.load(cacheFile, options.cacheFormat ?? 'keyed', options.embedder.id, { protectForeign: !options.updateForeignCache });
  if (options.runManifest && !existsSync(options.runManifest)) throw new EvaluationError(`--run-manifest ${options.runManifest}: file not found`);
  const infraFailures = loadInfraFailures(options.runManifest ?? manifestFileFor(options.predFile));
  if (infraFailures.warning) warn(infraFailures.warning);
  const evaluation = await runStepEvaluation({
    gt: gt.byId,
    pred: pred.byId,
    embedder: options.embedder,
    cache,
    mode: options.mode,
    thresholds: options.thresholds,
    infraFailures,
  });
  const excluded = evaluation.aggregate.infra_failures;
  if (excluded.count > 0)
    warn(
      `${excluded.count} GT id(s) ended as infrastructure failures in the run (${excluded.source}); left out of every score and listed in aggregate.infra_failures: ${excluded.ids.join(', ')}`,
    );
  cache.save();
  for (const line of cache.stats.warnings) warn(line);

  const { coverage } = evaluation.aggregate;
  if (coverage.missing_ids.length > 0) {
    const effect = options.mode === 'reference-compat' ? 'excluded from evaluation (reference behaviour)' : 'scored as empty trajectories';
    warn(`${coverage.missing_ids.length} GT ids are missing in predictions; ${effect}.`);
  }
  if (coverage.extra_ids.length > 0) warn(`${coverage.extra_ids.length} prediction ids are missing in ground truth; excluded from evaluation.`);

  const embedder = describeEmbedder(options.embedder);
  if (embedder.note) warn(embedder.note);
  const files = writeStepOutputs(options.outputDir, evaluation, { embedder, cache: cache.stats, gtChecks });
  return { evaluation, files, cache, gtChecks, embedder };
}
