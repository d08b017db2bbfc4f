// Finds models under `results/` and reads their evaluation outputs: `results_eval.json` (step),
// `taskcompletion.json` (judges), `callanalysis.json` (calls) and `final_proxy.json` (proxies).
// A model is any folder holding at least one of them; each file is optional per model.
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
} as const;

const metricValue = z.union([z.number(), z.null()]).transform((value) => (value === null ? Number.NaN : value));

const stepEvalSchema = z
  .object({
    aggregate: z.record(z.string(), z.unknown()).default({}),
    per_id: z
      .array(z.object({ id: z.union([z.string(), z.number()]).transform(String) }).catchall(z.unknown()))
      .default([]),
  })
  .loose();

export interface StepEval {
  path: string;
  aggregate: Record<string, number>;
  perId: Map<string, Record<string, number>>;
}

export interface TaskCompletionResult {
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

export function loadStepEval(file: string): StepEval {
  const parsed = stepEvalSchema.safeParse(loadJsonFile(file));
  if (!parsed.success) throw new EvaluationError(formatIssues(file, parsed.error.issues));
  const perId = new Map<string, Record<string, number>>();
  for (const entry of parsed.data.per_id) perId.set(entry.id, numericFields(entry));
  return { path: file, aggregate: numericFields(parsed.data.aggregate), perId };
}

function loadTaskCompletionResult(file: string): TaskCompletionResult {
  const data = loadTaskCompletion(file);
  const aggregate: Record<string, number> = {};
  for (const [key, value] of Object.entries(data.aggregate ?? {})) aggregate[key] = value === null ? Number.NaN : value;
  return { path: file, aggregate, perId: taskEntries(data) };
}

export function loadModelResults(resultsDir: string, model: string): ModelResults {
  const dir = path.join(resultsDir, model);
  const file = (name: string) => path.join(dir, name);
  const results: ModelResults = { model, dir };
  if (existsSync(file(resultFiles.step))) results.step = loadStepEval(file(resultFiles.step));
  if (existsSync(file(resultFiles.taskCompletion))) results.taskCompletion = loadTaskCompletionResult(file(resultFiles.taskCompletion));
  if (existsSync(file(resultFiles.calls))) results.calls = { ...loadCallAnalysis(file(resultFiles.calls)), path: file(resultFiles.calls) };
  if (existsSync(file(resultFiles.proxy))) results.proxy = { ...loadFinalProxy(file(resultFiles.proxy)), path: file(resultFiles.proxy) };
  return results;
}

/** Model folders under `resultsDir` holding at least one evaluation output, sorted by name. */
export function discoverModels(resultsDir: string): string[] {
  if (!existsSync(resultsDir)) return [];
  return readdirSync(resultsDir)
    .filter((name) => {
      const dir = path.join(resultsDir, name);
      return statSync(dir).isDirectory() && Object.values(resultFiles).some((file) => existsSync(path.join(dir, file)));
    })
    .sort();
}

/**
 * Loads the requested models (or every discovered one). Requested models without any output
 * are returned in `missing` rather than failing, so one unfinished run does not stop a report.
 */
export function loadAllResults(resultsDir: string, models?: readonly string[]): { models: ModelResults[]; missing: string[] } {
  const names = models && models.length > 0 ? [...models] : discoverModels(resultsDir);
  const found: ModelResults[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const results = loadModelResults(resultsDir, name);
    if (results.step || results.taskCompletion || results.calls || results.proxy) found.push(results);
    else missing.push(name);
  }
  return { models: found, missing };
}
