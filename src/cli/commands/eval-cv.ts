// `m3 eval cv`: the reference's 2026 CV metrics (evaluate_cv_issues.py) for one prediction file:
// perception recall, grounding argument similarity and visual reasoning ability, written to
// results_cv_eval.json and .csv in --output-dir (scripts/evaluate_cv.sh uses results_cv/<model>/).
// Human summary on stderr, one JSON line on stdout.
import { evaluationInputsFor, stampEvaluationInputs } from '../../results/evaluation-inputs.js';
import { GRADER_VERSIONS } from '../../results/grader-versions.js';
import { defaultEvaluationOutput } from '../../results/layout.js';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { parseSwitches } from '../../config/switches.js';
import { runCvFiles } from '../../eval/cv/run.js';
import { CV_REFERENCE_ENCODER } from '../../eval/embed/reference.js';
import { createEmbedder, DEFAULT_EMBEDDER } from '../../eval/embed/registry.js';
import { judgeRetryPolicy } from '../../eval/final/judge-kit.js';
import { validateThresholds } from '../../eval/step/run.js';
import { log } from '../../log/logger.js';
import { checkCacheOptions, parseNumberOption } from './eval-options.js';

interface EvalCvOptions {
  gt: string;
  pred: string;
  outputDir?: string;
  referenceCompat?: boolean;
  embedder?: string;
  embeddingCache?: string;
  cacheFormat: string;
  updateReferenceCache?: boolean;
  embeddingKeyEnv: string;
  tauStrong: string;
  tauWeak: string;
  experimentName?: string;
  saveMetricsTo?: string;
  runManifest?: string;
}

const formatted = (value: number | null) => (value === null ? 'None' : value.toFixed(4));

async function runEvalCv(options: EvalCvOptions): Promise<void> {
  checkCacheOptions(options.cacheFormat, options.embeddingCache);
  const thresholds = { tauStrong: parseNumberOption('--tau-strong', options.tauStrong), tauWeak: parseNumberOption('--tau-weak', options.tauWeak) };
  validateThresholds(thresholds);
  const env = loadEnvironment();
  const embedder = createEmbedder(options.embedder ?? (options.referenceCompat ? 'auto' : DEFAULT_EMBEDDER), {
    env,
    apiKeyEnv: options.embeddingKeyEnv,
    retry: judgeRetryPolicy(parseSwitches(env)),
    referenceEncoder: CV_REFERENCE_ENCODER,
  });
  const outputDir = options.outputDir ? path.resolve(options.outputDir) : defaultEvaluationOutput(options.pred, 'cv');
  const result = await runCvFiles({
    gtFile: path.resolve(options.gt),
    predFile: path.resolve(options.pred),
    outputDir,
    embedder,
    mode: options.referenceCompat ? 'reference-compat' : 'default',
    ...thresholds,
    ...(options.embeddingCache ? { cacheFile: path.resolve(options.embeddingCache) } : {}),
    cacheFormat: options.cacheFormat,
    updateForeignCache: options.updateReferenceCache ?? false,
    ...(options.runManifest ? { runManifest: path.resolve(options.runManifest) } : {}),
    ...(options.experimentName ? { experimentName: options.experimentName } : {}),
    ...(options.saveMetricsTo ? { saveMetricsTo: path.resolve(options.saveMetricsTo) } : {}),
    warn: (message) => log.warn(message),
  });
  stampEvaluationInputs(
    result.files.results,
    evaluationInputsFor({
      predFile: path.resolve(options.pred),
      gtFile: path.resolve(options.gt),
      layer: 'cv',
      graderVersion: GRADER_VERSIONS.step,
      encoder: result.embedder.id,
    }),
    path.resolve(options.pred),
  );
  const { aggregate } = result.evaluation;
  process.stderr.write(
    `Perception Recall: ${formatted(aggregate.perception_recall_avg)} (${aggregate.num_perception_tasks} tasks)\n` +
      `Grounding Similarity: ${formatted(aggregate.grounding_arg_sim_avg)} (${aggregate.num_grounding_tasks} tasks)\n` +
      `Visual Reasoning Ability: ${formatted(aggregate.visual_reasoning_ability)} (${aggregate.num_vision_tasks} tasks)\n` +
      `Mode: ${aggregate.mode}; encoder ${result.embedder.id}${result.embedder.paper_encoder ? " (the paper's)" : " - NOT the paper's encoder; numbers are not comparable with the paper"}\n`,
  );
  const { coverage, ...headline } = aggregate;
  process.stdout.write(
    `${JSON.stringify({ wrote: result.files.results, ...headline, coverage: coverage.coverage, embedder: result.embedder.id, paper_encoder: result.embedder.paper_encoder, ...(result.embedder.note ? { encoder_note: result.embedder.note } : {}) })}\n`,
  );
}

/** Attaches `cv` to the shared `eval` command (see eval-group.ts). */
export function addEvalCvCommand(evalCommand: Command): void {
  evalCommand
    .command('cv')
    .description("the reference's CV metrics: perception recall, grounding argument similarity, visual reasoning ability (results_cv_eval.json/.csv)")
    .requiredOption('--gt <file>', 'ground-truth file (e.g. json/test_mcp_GT.json)')
    .requiredOption('--pred <file>', 'prediction file (e.g. results/<model>_test_mcp_fuzzy.json)')
    .option(
      '--output-dir <dir>',
      'where results_cv_eval.json, results_cv_eval.csv and the cache go (default: <predictions folder>/results_cv/<label>/; the reference: results_cv/<model>)',
    )
    .option('--reference-compat', 'reproduce the reference: only ids present in both files, float32 similarities, SciPy assignment ties')
    .option(
      '--embedder <spec>',
      `as for m3 eval step; default ${DEFAULT_EMBEDDER}, with --reference-compat auto (${CV_REFERENCE_ENCODER}, the encoder evaluate_cv.sh uses, when pulled)`,
    )
    .option('--embedding-cache <file>', 'embedding cache file (the reference: --cache-path; default <output-dir>/.emb_cache.json)')
    .option('--cache-format <format>', 'keyed (m3bench, per-embedder) or reference (flat text → vector, trusted for the named --embedder)', 'keyed')
    .option('--update-reference-cache', 'also write new vectors into a --cache-format reference file (by default it is read, never overwritten)')
    .option('--embedding-key-env <name>', 'environment variable holding the API key of a server named by @<baseUrl>', 'OPENAI_API_KEY')
    .option('--tau-strong <number>', 'strong-match threshold (recorded; the CV metrics use only tau-weak)', '0.8')
    .option('--tau-weak <number>', 'acceptance threshold of the matching', '0.6')
    .option('--experiment-name <name>', 'model name for the entry appended by --save-metrics-to')
    .option('--save-metrics-to <file>', 'append {Model, tau_weak, Perception Recall, Grounding Similarity, Visual Reasoning Ability} to this JSON list')
    .option('--run-manifest <file>', 'run manifest whose infrastructure failures are left out (default: <predictions>.manifest.json, when present)')
    .action(runEvalCv);
}
