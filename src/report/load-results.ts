// Finds models under `results/` and reads their evaluation outputs: `results_eval.json` (step),
// `taskcompletion.json` (judges), `callanalysis.json` (calls), `final_proxy.json` (proxies) and
// the CV metrics `results_cv_eval.json` (in results_cv/<model>/, the sibling folder
// scripts/evaluate_cv.sh writes, or in results/<model>/). A model is any folder holding at least
// one of them; each file is optional per model.
import { assertSameEvaluationInputs, readEvaluationInputs, type RecordedInputs } from '../results/evaluation-inputs.js';
import { CV_FOLDER } from '../results/layout.js';
import { isRunFolder } from '../results/run-folder-of.js';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../config/zod-issues.js';
import { loadCallAnalysis, type CallAnalysisFile } from '../eval/call/output.js';
import { loadFinalProxy, loadTaskCompletion, taskEntries, type FinalProxyFile, type TaskScoreEntry } from '../eval/final/output.js';
import { EvaluationError } from '../errors/index.js';
import { loadJsonFile } from '../tasks/load-json.js';

export const resultFiles = {
  step: 'results_eval.json',
  taskCompletion: 'taskcompletion.json',
  calls: 'callanalysis.json',
  proxy: 'final_proxy.json',
  cv: 'results_cv_eval.json',
} as const;

const metricValue = z.union([z.number(), z.null()]).transform((value) => (value === null ? Number.NaN : value));

const stepEvalSchema = z
  .object({
    aggregate: z.record(z.string(), z.unknown()).default({}),
    per_id: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String) }).catchall(z.unknown())).default([]),
  })
  .loose();

export interface StepEval {
  path: string;
  /** Numeric reference keys, plus the corrected metrics as corrected.<name> and coverage.coverage. */
  aggregate: Record<string, number>;
  perId: Map<string, Record<string, number>>;
  mode?: string;
  /** Ids of tasks left out as infrastructure failures. */
  infraFailureIds: string[];
  encoder?: { id: string; paperEncoder: boolean; note?: string };
  /** The step grader version the file was computed with (src/results/grader-versions.ts). */
  graderVersion?: string;
}

interface CvEval {
  path: string;
  aggregate: Record<string, number>;
  mode?: string;
  encoder?: { id: string; paperEncoder: boolean; note?: string };
}

interface TaskCompletionResult {
  path: string;
  aggregate: Record<string, number>;
  perId: Record<string, TaskScoreEntry>;
}

export interface ModelResults {
  model: string;
  dir: string;
  step?: StepEval;
  taskCompletion?: TaskCompletionResult;
  calls?: CallAnalysisFile & { path: string };
  proxy?: FinalProxyFile & { path: string };
  cv?: CvEval;
}

/** Keeps numeric fields only; `null` becomes NaN so means can skip it. */
function numericFields(record: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(record)) {
    const parsed = metricValue.safeParse(value);
    if (parsed.success) out[key] = parsed.data;
  }
  return out;
}

const recordSchema = z.record(z.string(), z.unknown());
const encoderSchema = z.object({ id: z.string(), paper_encoder: z.boolean().optional(), note: z.string().optional() }).loose();

function encoderOf(raw: unknown): StepEval['encoder'] {
  const parsed = encoderSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  return { id: parsed.data.id, paperEncoder: parsed.data.paper_encoder ?? false, ...(parsed.data.note ? { note: parsed.data.note } : {}) };
}

/** The aggregate's numbers, with the nested corrected metrics and coverage flattened in. */
function stepAggregate(aggregate: Record<string, unknown>): Record<string, number> {
  const flat = numericFields(aggregate);
  const corrected = recordSchema.safeParse(aggregate.corrected);
  if (corrected.success) for (const [key, value] of Object.entries(numericFields(corrected.data))) flat[`corrected.${key}`] = value;
  const coverage = recordSchema.safeParse(aggregate.coverage);
  if (coverage.success && typeof coverage.data.coverage === 'number') flat['coverage.coverage'] = coverage.data.coverage;
  return flat;
}

export function loadStepEval(file: string): StepEval {
  const raw = loadJsonFile(file);
  const parsed = stepEvalSchema.safeParse(raw);
  if (!parsed.success) throw new EvaluationError(formatIssues(file, parsed.error.issues));
  const perId = new Map<string, Record<string, number>>();
  for (const entry of parsed.data.per_id) perId.set(entry.id, numericFields(entry));
  const infra = z
    .object({ ids: z.array(z.string()) })
    .loose()
    .safeParse(parsed.data.aggregate.infra_failures);
  const mode = parsed.data.aggregate.mode;
  const encoder = encoderOf((raw as { embedder?: unknown }).embedder);
  const graderVersion = (raw as { grader_version?: unknown }).grader_version;
  return {
    path: file,
    ...(typeof graderVersion === 'string' ? { graderVersion } : {}),
    aggregate: stepAggregate(parsed.data.aggregate),
    perId,
    ...(typeof mode === 'string' ? { mode } : {}),
    infraFailureIds: infra.success ? infra.data.ids : [],
    ...(encoder ? { encoder } : {}),
  };
}

function loadCvEval(file: string): CvEval {
  const raw = loadJsonFile(file);
  const parsed = z.object({ aggregate: recordSchema }).loose().safeParse(raw);
  if (!parsed.success) throw new EvaluationError(formatIssues(file, parsed.error.issues));
  const mode = parsed.data.aggregate.mode;
  const encoder = encoderOf((raw as { embedder?: unknown }).embedder);
  return { path: file, aggregate: numericFields(parsed.data.aggregate), ...(typeof mode === 'string' ? { mode } : {}), ...(encoder ? { encoder } : {}) };
}

/**
 * Where the CV outputs of a results folder are: inside it (`<run folder>/results_cv/`, where
 * scripts/evaluate_cv.sh and `m3 eval cv` write for a run); for a flat folder without one (the
 * reference's layout, `m3 export --reference`), results_cv/ beside it. A run folder never reads
 * the sibling: that would put another run's CV numbers beside this run's.
 */
export function defaultCvDir(resultsDir: string): string {
  const inside = path.join(path.resolve(resultsDir), CV_FOLDER);
  if (isRunFolder(resultsDir) || existsSync(inside)) return inside;
  return path.join(path.dirname(path.resolve(resultsDir)), CV_FOLDER);
}

function cvFileFor(resultsDir: string, cvDir: string, model: string): string | undefined {
  return [path.join(cvDir, model, resultFiles.cv), path.join(resultsDir, model, resultFiles.cv)].find((file) => existsSync(file));
}

function loadTaskCompletionResult(file: string): TaskCompletionResult {
  const data = loadTaskCompletion(file);
  const aggregate: Record<string, number> = {};
  for (const [key, value] of Object.entries(data.aggregate ?? {})) aggregate[key] = value === null ? Number.NaN : value;
  return { path: file, aggregate, perId: taskEntries(data) };
}

function loadModelResults(resultsDir: string, model: string, cvDir: string = defaultCvDir(resultsDir)): ModelResults {
  const dir = path.join(resultsDir, model);
  const file = (name: string) => path.join(dir, name);
  const results: ModelResults = { model, dir };
  if (existsSync(file(resultFiles.step))) results.step = loadStepEval(file(resultFiles.step));
  if (existsSync(file(resultFiles.taskCompletion))) results.taskCompletion = loadTaskCompletionResult(file(resultFiles.taskCompletion));
  if (existsSync(file(resultFiles.calls))) results.calls = { ...loadCallAnalysis(file(resultFiles.calls)), path: file(resultFiles.calls) };
  if (existsSync(file(resultFiles.proxy))) results.proxy = { ...loadFinalProxy(file(resultFiles.proxy)), path: file(resultFiles.proxy) };
  const cvFile = cvFileFor(resultsDir, cvDir, model);
  if (cvFile) results.cv = loadCvEval(cvFile);
  return results;
}

/**
 * Model folders under `resultsDir` holding at least one evaluation output, sorted by name.
 * @internal Exported for its tests.
 */
export function discoverModels(resultsDir: string, cvDir: string = defaultCvDir(resultsDir)): string[] {
  const found = new Set<string>();
  for (const dir of [resultsDir, cvDir]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const folder = path.join(dir, name);
      if (statSync(folder).isDirectory() && Object.values(resultFiles).some((file) => existsSync(path.join(folder, file)))) found.add(name);
    }
  }
  return [...found].sort();
}

/**
 * Loads the requested models (or every discovered one). Requested models without any output
 * are returned in `missing` rather than failing, so one unfinished run does not stop a report.
 */
export function loadAllResults(
  resultsDir: string,
  models?: readonly string[],
  cvDir: string = defaultCvDir(resultsDir),
): { models: ModelResults[]; missing: string[] } {
  const names = models && models.length > 0 ? [...models] : discoverModels(resultsDir, cvDir);
  const found: ModelResults[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const results = loadModelResults(resultsDir, name, cvDir);
    if (results.step || results.taskCompletion || results.calls || results.proxy || results.cv) found.push(results);
    else missing.push(name);
  }
  assertOneRunPerModel(resultsDir, found);
  return { models: found, missing };
}

/** The inputs each evaluation output of a model recorded (outputs older than the record have none). */
function recordedInputs(resultsDir: string, results: ModelResults): RecordedInputs[] {
  const files = [results.step?.path, results.calls?.path, results.cv?.path, path.join(resultsDir, results.model, 'task_eval.json')];
  return files.flatMap((file) => {
    if (!file || !existsSync(file)) return [];
    const inputs = readEvaluationInputs(loadJsonFile(file));
    return inputs ? [{ file: path.relative(process.cwd(), file) || file, inputs }] : [];
  });
}

/**
 * One model's row is one run: its step, call, CV and task outputs must have evaluated the same
 * prediction file (by sha256); and one table is one task set: every output read here must have
 * used the same ground truth, and each layer one grader version. Otherwise the reader refuses,
 * naming both files (src/results/evaluation-inputs.ts).
 */
function assertOneRunPerModel(resultsDir: string, models: readonly ModelResults[]): void {
  const all = models.map((results) => ({ model: results.model, entries: recordedInputs(resultsDir, results) }));
  for (const { model, entries } of all) assertSameEvaluationInputs(entries, `model ${model}`, ['run_id', 'predictions_sha256']);
  const everything = all.flatMap(({ entries }) => entries);
  assertSameEvaluationInputs(everything, 'one table', ['gt_sha256']);
  for (const layer of new Set(everything.map((entry) => entry.inputs.layer)))
    assertSameEvaluationInputs(
      everything.filter((entry) => entry.inputs.layer === layer),
      `one table (${layer} layer)`,
      ['grader_version'],
    );
}
