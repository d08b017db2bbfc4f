// What an evaluation output evaluated, recorded in the output itself (`m3bench_inputs`, a key the
// reference's tools ignore): the run id, the prediction file and its sha256, the ground truth's
// sha256, the task-set hash of the run, the layer's grader version and the encoder. Readers put
// outputs side by side only when these agree (`assertSameEvaluationInputs`), so one table never
// mixes two runs, two task sets or two grader versions unlabelled.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { writeJsonAtomic } from '../tasks/write-json.js';
import { manifestFileFor } from './layout.js';
import { MOCKED_LABEL_KEY, mockedLabelFor } from './mocked-share.js';
import { runManifestSchema } from './run-manifest.js';

const EVALUATION_INPUTS_KEY = 'm3bench_inputs';

const evaluationInputsSchema = z.object({
  /** The store run id of the run that wrote the predictions (null: no run manifest beside them). */
  run_id: z.string().nullable(),
  predictions: z.string(),
  predictions_sha256: z.string(),
  gt_sha256: z.string().nullable(),
  /** One hash over the run's per-task prompt hashes (src/runner/prompt-hash.ts). */
  task_set_hash: z.string().nullable(),
  layer: z.string(),
  grader_version: z.string(),
  encoder: z.string().nullable(),
});

export type EvaluationInputs = z.output<typeof evaluationInputsSchema>;

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

const identityPart = runManifestSchema.pick({ runId: true, taskSetHash: true }).partial().loose();

export function evaluationInputsFor(input: { predFile: string; gtFile?: string; layer: string; graderVersion: string; encoder?: string }): EvaluationInputs {
  const manifestFile = manifestFileFor(input.predFile);
  const manifest = existsSync(manifestFile) ? identityPart.safeParse(JSON.parse(readFileSync(manifestFile, 'utf8'))) : undefined;
  const identity = manifest?.success ? manifest.data : {};
  return {
    run_id: identity.runId ?? null,
    predictions: path.basename(input.predFile),
    predictions_sha256: sha256(input.predFile),
    gt_sha256: input.gtFile && existsSync(input.gtFile) ? sha256(input.gtFile) : null,
    task_set_hash: identity.taskSetHash ?? null,
    layer: input.layer,
    grader_version: input.graderVersion,
    encoder: input.encoder ?? null,
  };
}

/**
 * The keys every evaluation output carries beside its scores: what it evaluated
 * (`m3bench_inputs`) and how much of the predictions rests on mocked tool returns or placeholder
 * images (`m3bench_mocked`, zero for a clean run).
 */
export function evaluationLabels(inputs: EvaluationInputs, predFile: string): Record<string, unknown> {
  return { [EVALUATION_INPUTS_KEY]: inputs, [MOCKED_LABEL_KEY]: mockedLabelFor(predFile) };
}

/** Adds the inputs and the mocked label to a JSON object an evaluator wrote (rewritten atomically). */
export function stampEvaluationInputs(file: string, inputs: EvaluationInputs, predFile: string): void {
  const document = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!document || typeof document !== 'object' || Array.isArray(document))
    throw new ConfigError(`${file}: not a JSON object; cannot record what it evaluated`);
  writeJsonAtomic(file, { ...document, ...evaluationLabels(inputs, predFile) });
}

/** The inputs an output recorded; undefined for outputs written before they were recorded. */
export function readEvaluationInputs(document: unknown): EvaluationInputs | undefined {
  if (!document || typeof document !== 'object') return undefined;
  const parsed = evaluationInputsSchema.safeParse((document as Record<string, unknown>)[EVALUATION_INPUTS_KEY]);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Refuses an evaluation output that did not evaluate the prediction file it is read beside: a
 * reader pairs `<dir>/<label>/results_eval.json` with `<dir>/<label>_test_mcp_fuzzy.json` of run
 * `runId` by name, and a later run (or a resumed one) may have rewritten either. The message names
 * both files, both runs and the field that differs. Outputs written before the record was kept
 * pass (nothing to compare).
 */
export function assertEvaluatedPredictions(
  output: { file: string; document: unknown },
  predictions: { file: string; runId: string },
): EvaluationInputs | undefined {
  const inputs = readEvaluationInputs(output.document);
  if (!inputs) return undefined;
  const differs = (field: string, recorded: string, actual: string) =>
    new ConfigError(
      `${output.file} evaluated ${inputs.predictions} of run ${inputs.run_id ?? '(no manifest)'}, not ${predictions.file} of run ${predictions.runId} (${field}: ${recorded} vs ${actual}); re-run the evaluation on this run's files (m3 eval batch, m3 eval step)`,
    );
  if (inputs.run_id !== null && inputs.run_id !== predictions.runId) throw differs('run_id', inputs.run_id, predictions.runId);
  const actual = sha256(predictions.file);
  if (inputs.predictions_sha256 !== actual) throw differs('predictions_sha256', inputs.predictions_sha256.slice(0, 12), actual.slice(0, 12));
  return inputs;
}

export interface RecordedInputs {
  /** The output file, as the message shows it. */
  file: string;
  inputs: EvaluationInputs;
}

/**
 * Refuses outputs that evaluated different runs, prediction files or ground truths: a message
 * names both files and what differs. `scope` says what they were to be shown as (one model's
 * row, one report).
 */
export function assertSameEvaluationInputs(entries: readonly RecordedInputs[], scope: string, fields: ReadonlyArray<keyof EvaluationInputs>): void {
  const [first, ...rest] = entries;
  if (!first) return;
  for (const entry of rest) {
    for (const field of fields) {
      const [a, b] = [first.inputs[field], entry.inputs[field]];
      if (a !== null && b !== null && a !== b)
        throw new ConfigError(
          `${scope}: ${first.file} and ${entry.file} evaluated different inputs (${field}: ${String(a)} vs ${String(b)}); re-run the evaluation on one run's files, or read each run folder apart`,
        );
    }
  }
}
