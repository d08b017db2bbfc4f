// `m3 eval step`: step-level evaluation of one prediction file against the ground truth
// (spec section 3). Human summary on stderr, one JSON line on stdout, files in --output-dir.
import { evaluationInputsFor, stampEvaluationInputs } from '../../results/evaluation-inputs.js';
import { GRADER_VERSIONS } from '../../results/grader-versions.js';
import { OUTPUT_FILES } from '../../eval/step/outputs.js';
import { defaultEvaluationOutput } from '../../results/layout.js';
import path from 'node:path';
import type { Command } from 'commander';
import { loadEnvironment } from '../../config/env-file.js';
import { parseSwitches } from '../../config/switches.js';
import { createEmbedder, DEFAULT_EMBEDDER } from '../../eval/embed/registry.js';
import { judgeRetryPolicy } from '../../eval/final/judge-kit.js';
import { runStepFiles } from '../../eval/step/run.js';
import { formatConsoleSummary, formatJsonSummary } from '../../eval/step/summary.js';
import { log } from '../../log/logger.js';
import { checkCacheOptions, parseNumberOption } from './eval-options.js';
import { getOrCreateEvalCommand } from './eval-group.js';
import { secondsToTimerMs } from '../../config/timer-ms.js';
import { seconds } from '../option-parsers.js';

interface EvalStepOptions {
  gt: string;
  pred: string;
  outputDir?: string;
  referenceCompat?: boolean;
  embeddingCache?: string;
  cacheFormat: string;
  updateReferenceCache?: boolean;
  runManifest?: string;
  embedder?: string;
  embeddingKeyEnv: string;
  embeddingTimeout: number;
  tauStrong: string;
  tauWeak: string;
  roundCap: string;
  json?: boolean;
}

/** Registers `m3 eval step` under the shared `eval` parent. */
export function registerEvalStepCommand(program: Command): void {
  addEvalStepCommand(getOrCreateEvalCommand(program));
}

/** Attaches the `step` sub-command to an existing `eval` command. */
function addEvalStepCommand(evalCommand: Command): void {
  evalCommand
    .command('step')
    .description('step-level evaluation: bucketed Hungarian matching of tool calls, recall/precision/similarity/structure metrics')
    .requiredOption('--gt <file>', 'ground-truth file (e.g. json/test_mcp_GT.json)')
    .requiredOption('--pred <file>', 'prediction file (e.g. results/<model>_test_mcp_fuzzy.json)')
    .option('--output-dir <dir>', 'where results_eval.json, results_eval.csv, *_matches.json and the cache go (default: <predictions folder>/<label>/)')
    .option('--reference-compat', 'reproduce the reference exactly: GT ids without a prediction are ignored instead of scored as empty')
    .option('--embedding-cache <file>', 'embedding cache file (default <output-dir>/.emb_cache.json)')
    .option('--cache-format <format>', 'keyed (m3bench, per-embedder) or reference (flat text → vector, trusted for the named --embedder)', 'keyed')
    .option(
      '--run-manifest <file>',
      'run manifest whose infrastructure failures are left out of the scores (default: <predictions>.manifest.json beside --pred, when present)',
    )
    .option(
      '--update-reference-cache',
      'also write new vectors into a --cache-format reference file (by default a cache m3bench did not write is read, never overwritten)',
    )
    .option(
      '--embedder <spec>',
      `auto | sentence-transformers/all-MiniLM-L6-v2 (the paper's, in-process; m3 assets pull --manifest media/encoders.json) | onnx:<folder> | ${DEFAULT_EMBEDDER}[/<dimension>] | <provider>:<model>[@<baseUrl>] | openai-compatible:<model>@<baseUrl>; default ${DEFAULT_EMBEDDER}, with --reference-compat auto (the paper's encoder when pulled, else ${DEFAULT_EMBEDDER}, said in every output)`,
    )
    .option(
      '--embedding-key-env <name>',
      'environment variable holding the API key of a server named by @<baseUrl> (presets use their own, e.g. OPENAI_API_KEY)',
      'OPENAI_API_KEY',
    )
    .option('--embedding-timeout <seconds>', 'timeout per embedding request', seconds, 60)
    .option('--tau-strong <number>', 'strong-match threshold', '0.8')
    .option('--tau-weak <number>', 'weak-match (acceptance) threshold', '0.6')
    .option('--round-cap <n>', 'report GT steps with more parallel calls than this per-round cap; 0 disables', '10')
    .option('--json', 'print the full results_eval.json aggregate on stdout instead of the one-line summary')
    .action(async (options: EvalStepOptions) => {
      checkCacheOptions(options.cacheFormat, options.embeddingCache);
      const roundCap = parseNumberOption('--round-cap', options.roundCap);
      const env = loadEnvironment();
      const embedder = createEmbedder(options.embedder ?? (options.referenceCompat ? 'auto' : DEFAULT_EMBEDDER), {
        env,
        retry: judgeRetryPolicy(parseSwitches(env)),
        apiKeyEnv: options.embeddingKeyEnv,
        timeoutMs: secondsToTimerMs(options.embeddingTimeout),
      });
      const outputDir = options.outputDir ? path.resolve(options.outputDir) : defaultEvaluationOutput(options.pred, 'step');
      const result = await runStepFiles({
        gtFile: path.resolve(options.gt),
        predFile: path.resolve(options.pred),
        outputDir,
        embedder,
        mode: options.referenceCompat ? 'reference-compat' : 'default',
        thresholds: { tauStrong: parseNumberOption('--tau-strong', options.tauStrong), tauWeak: parseNumberOption('--tau-weak', options.tauWeak) },
        ...(options.embeddingCache ? { cacheFile: path.resolve(options.embeddingCache) } : {}),
        cacheFormat: options.cacheFormat,
        updateForeignCache: options.updateReferenceCache ?? false,
        ...(options.runManifest ? { runManifest: path.resolve(options.runManifest) } : {}),
        roundCap,
        warn: (message) => log.warn(message),
      });
      stampEvaluationInputs(
        path.join(outputDir, OUTPUT_FILES.results),
        evaluationInputsFor({
          predFile: path.resolve(options.pred),
          gtFile: path.resolve(options.gt),
          layer: 'step',
          graderVersion: GRADER_VERSIONS.step,
          encoder: result.embedder.id,
        }),
        path.resolve(options.pred),
      );
      process.stderr.write(formatConsoleSummary(result.evaluation, outputDir, result.cache.stats, result.embedder));
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ ...result.evaluation.aggregate, embedder: result.embedder }, null, 2)}\n`);
        return;
      }
      process.stdout.write(formatJsonSummary(result.evaluation, { outputDir, embedder: embedder.id, cache: result.cache.stats, record: result.embedder }));
    });
}
