// The run folder layout: every file name a run writes is built here and nowhere else.
//
//   <results-dir>/m3bench.sqlite                 the run store (every run's rows)
//   <results-dir>/latest                         symlink to the last finished run's folder
//   <results-dir>/runs/<run-id>/                 one folder per `m3 run` / `m3 bench` invocation:
//     <label>_test_mcp_fuzzy.json (+ .manifest.json)   predictions (reference layout)
//     <run-id>.batch.json                        the batch manifest
//     tools_catalog.json, mcp_tools_with_desc.json    the live tool surface
//     <label>/results_eval.json, callanalysis.json, task_eval.json, ...   evaluation layers
//     results_cv/<label>/                        CV metrics (the reference's results_cv/, inside the run)
//     placeholder-images/, logs/, save/          stand-ins, server logs, figures and report
import { existsSync } from 'node:fs';
import path from 'node:path';

const RUNS_FOLDER = 'runs';
export const LATEST_POINTER = 'latest';
const STORE_FILE = 'm3bench.sqlite';
export const CV_FOLDER = 'results_cv';
const PREDICTIONS_SUFFIX = '_test_mcp_fuzzy';
const BATCH_MANIFEST_SUFFIX = '.batch.json';

/** A run id as a single safe path segment. */
function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]+/g, '-');
}

/** `<results-dir>/runs/<run-id>/`: the folder a run owns. */
export function runFolder(resultsDir: string, runId: string): string {
  return path.join(path.resolve(resultsDir), RUNS_FOLDER, safeSegment(runId));
}

export function storeFileOf(resultsDir: string): string {
  return path.join(path.resolve(resultsDir), STORE_FILE);
}

/**
 * The run store of a prediction file: beside it (a flat folder, `--run-dir`), else the results
 * root's of a run folder (`<results>/runs/<id>/x.json` → `<results>/m3bench.sqlite`); the first
 * when neither exists.
 */
export function storeFileForPredictions(predictions: string): string {
  const dir = path.dirname(path.resolve(predictions));
  const beside = path.join(dir, STORE_FILE);
  const root = path.join(dir, '..', '..', STORE_FILE);
  return !existsSync(beside) && path.basename(path.dirname(dir)) === RUNS_FOLDER && existsSync(root) ? path.resolve(root) : beside;
}

/** `<dir>/<label>_test_mcp_fuzzy[.shard-k-of-n].json`, the reference's prediction file name. */
export function predictionFile(dir: string, label: string, shard?: { index: number; count: number }): string {
  const suffix = shard ? `.shard-${shard.index}-of-${shard.count}` : '';
  return path.join(path.resolve(dir), `${label}${PREDICTIONS_SUFFIX}${suffix}.json`);
}

/** The label of a prediction file name, or undefined when the name is not one. */
function labelOfPredictionFile(file: string): string | undefined {
  const name = path.basename(file);
  return name.endsWith(`${PREDICTIONS_SUFFIX}.json`) ? name.slice(0, -`${PREDICTIONS_SUFFIX}.json`.length) : undefined;
}

/** `x_test_mcp_fuzzy.json` → `x_test_mcp_fuzzy.manifest.json` (the run manifest beside its predictions). */
export function manifestFileFor(predictions: string): string {
  return /\.json$/i.test(predictions) ? predictions.replace(/\.json$/i, '.manifest.json') : `${predictions}.manifest.json`;
}

/** Which trial a file label holds: `<cell>.trial-<t>` (src/runner/conditions.ts trialLabel) is trial t; any other label is a run's only trial. */
export function trialOfLabel(label: string): number {
  const match = /\.trial-(\d+)$/.exec(label);
  return match ? Number(match[1]) : 1;
}

export function batchManifestFile(dir: string, batchId: string): string {
  return path.join(dir, `${safeSegment(batchId)}${BATCH_MANIFEST_SUFFIX}`);
}

export function isBatchManifestName(name: string): boolean {
  return name.endsWith(BATCH_MANIFEST_SUFFIX);
}

/** `<dir>/<label>/`: the step, call, final and task layers' outputs of one prediction file. */
function evaluationFolder(dir: string, label: string): string {
  return path.join(dir, label);
}

/** `<dir>/results_cv/<label>/`: the CV layer's outputs, inside the run folder. */
function cvFolder(dir: string, label: string): string {
  return path.join(dir, CV_FOLDER, label);
}

export function toolCatalogFiles(dir: string): { ours: string; reference: string } {
  return { ours: path.join(dir, 'tools_catalog.json'), reference: path.join(dir, 'mcp_tools_with_desc.json') };
}

/**
 * Where an evaluation layer writes when no `--output-dir` is given, beside the prediction file
 * it evaluates: `<dir>/<label>/` (step) and `<dir>/results_cv/<label>/` (CV), so a run's
 * evaluations stay in that run's folder.
 */
export function defaultEvaluationOutput(predictions: string, layer: 'step' | 'cv'): string {
  const dir = path.dirname(path.resolve(predictions));
  const label = labelOfPredictionFile(predictions) ?? path.basename(predictions).replace(/\.json$/i, '');
  return layer === 'cv' ? cvFolder(dir, label) : evaluationFolder(dir, label);
}
