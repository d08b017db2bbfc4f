// One CV evaluation from files to files, as `m3 eval cv` and scripts/evaluate_cv.sh run it
// (the reference's evaluate_cv_issues.py): load GT and predictions, embed (with the cache file),
// score, and write results_cv_eval.json and results_cv_eval.csv into the output folder;
// optionally append the headline entry to a metrics list (the reference's --save-metrics-to).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EvaluationError } from '../../errors/index.js';
import { writeFileAtomic, writeJsonAtomic } from '../../tasks/write-json.js';
import { EmbeddingCache, type CacheFormat, type CacheStats } from '../embed/cache.js';
import { CV_REFERENCE_ENCODER } from '../embed/reference.js';
import { describeEmbedder } from '../embed/registry.js';
import type { Embedder, EmbedderRecord } from '../embed/types.js';
import { loadInfraFailures, manifestFileFor } from '../infra-failures.js';
import type { StepMode } from '../step/aggregate.js';
import { embedPairs, planPairs } from '../step/evaluate.js';
import { formatPythonFloat } from '../step/serialize.js';
import { describeTrimmedIds, loadTrajectories } from '../step/trajectory.js';
import { evaluateCv, type CvEvaluation } from './evaluate.js';
import type { CvTaskScore } from './metrics.js';
import { csvText } from '../../core/csv.js';

const CV_FILES = { results: 'results_cv_eval.json', csv: 'results_cv_eval.csv', cache: '.emb_cache.json' } as const;
const CV_CSV_HEADER = [
  'id',
  'perception_recall',
  'grounding_arg_sim',
  'visual_reasoning_ability',
  'has_vision_steps',
  'has_perception_steps',
  'has_grounding_steps',
] as const;

export interface CvRunOptions {
  gtFile: string;
  predFile: string;
  outputDir: string;
  embedder: Embedder;
  mode: StepMode;
  tauStrong: number;
  tauWeak: number;
  cacheFile?: string;
  cacheFormat?: CacheFormat;
  updateForeignCache?: boolean;
  runManifest?: string;
  /** With saveMetricsTo: the model name of the appended entry. */
  experimentName?: string;
  saveMetricsTo?: string;
  warn?: (message: string) => void;
}

export interface CvRunResult {
  evaluation: CvEvaluation;
  embedder: EmbedderRecord;
  cache: CacheStats;
  files: { results: string; csv: string; metrics?: string };
}

/** Python csv text of a value: repr floats (1.0), True/False, '' for None. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return formatPythonFloat(value);
  return String(value);
}

function toCvCsv(perId: readonly CvTaskScore[]): string {
  return csvText([CV_CSV_HEADER, ...perId.map((score) => CV_CSV_HEADER.map((key) => csvCell(score[key])))], '\r\n');
}

/** The reference's metrics entry, appended to a JSON list file. */
function appendMetrics(file: string, entry: Record<string, unknown>): void {
  let existing: unknown[] = [];
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (Array.isArray(parsed)) existing = parsed;
    } catch {
      existing = [];
    }
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeJsonAtomic(file, [...existing, entry]);
}

export async function runCvFiles(options: CvRunOptions): Promise<CvRunResult> {
  const warn = options.warn ?? (() => undefined);
  if (options.runManifest && !existsSync(options.runManifest)) throw new EvaluationError(`--run-manifest ${options.runManifest}: file not found`);
  const ids = options.mode === 'reference-compat' ? 'exact' : 'trimmed';
  const gt = loadTrajectories(options.gtFile, 'gt', ids);
  const pred = loadTrajectories(options.predFile, 'pred', ids);
  for (const line of describeTrimmedIds(gt, pred)) warn(line);
  if (gt.byId.size === 0) throw new EvaluationError(`${options.gtFile}: no ground-truth task with a non-empty id`);
  const infraFailures = loadInfraFailures(options.runManifest ?? manifestFileFor(options.predFile));
  if (infraFailures.warning) warn(infraFailures.warning);
  const float32 = options.mode === 'reference-compat';
  const cache = EmbeddingCache.load(options.cacheFile ?? path.join(options.outputDir, CV_FILES.cache), options.cacheFormat ?? 'keyed', options.embedder.id, {
    protectForeign: !options.updateForeignCache,
  });
  const similarity = await embedPairs(planPairs(gt.byId, pred.byId, options.mode, infraFailures), options.embedder, cache, float32);
  const evaluation = evaluateCv(gt.byId, pred.byId, similarity, { mode: options.mode, tauWeak: options.tauWeak, float32, infraFailures });
  cache.save();
  for (const line of cache.stats.warnings) warn(line);
  const embedder = describeEmbedder(options.embedder, CV_REFERENCE_ENCODER);
  if (embedder.note) warn(embedder.note);
  const excluded = evaluation.aggregate.infra_failures;
  if (excluded.count > 0)
    warn(`${excluded.count} GT id(s) ended as infrastructure failures in the run; left out of the CV metrics: ${excluded.ids.join(', ')}`);

  mkdirSync(options.outputDir, { recursive: true });
  const files: CvRunResult['files'] = { results: path.join(options.outputDir, CV_FILES.results), csv: path.join(options.outputDir, CV_FILES.csv) };
  const document = {
    aggregate: evaluation.aggregate,
    per_id: evaluation.perId,
    thresholds: { tau_strong: options.tauStrong, tau_weak: options.tauWeak },
    embedder,
    embedding_cache: cache.stats,
  };
  writeFileAtomic(files.results, `${JSON.stringify(document, null, 2)}\n`);
  writeFileAtomic(files.csv, toCvCsv(evaluation.perId));
  if (options.saveMetricsTo && options.experimentName) {
    const { aggregate } = evaluation;
    appendMetrics(options.saveMetricsTo, {
      Model: options.experimentName,
      tau_weak: options.tauWeak,
      'Perception Recall': aggregate.perception_recall_avg,
      'Grounding Similarity': aggregate.grounding_arg_sim_avg,
      'Visual Reasoning Ability': aggregate.visual_reasoning_ability,
      mode: aggregate.mode,
      encoder: embedder.id,
      paper_encoder: embedder.paper_encoder,
    });
    files.metrics = options.saveMetricsTo;
  }
  return { evaluation, embedder, cache: cache.stats, files };
}
