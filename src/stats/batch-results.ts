// Reads one batch (the `<batch>.batch.json` an `m3 run` wrote) into per-cell, per-task trial
// outcomes: for every trial its prediction file (the valid trials: infrastructure failures are
// not in it) and its step evaluation `<results>/<trial label>/results_eval.json`. A task's trial
// counts only when the prediction file holds it, so an infrastructure failure is in no
// denominator; a task the step layer did not score in a valid trial fails (it had a prediction).
// A trial whose task checks could not be evaluated (no recorded state results, no final-answer
// score for a success.final threshold: the trial folder's taskcompletion.json / final_proxy.json)
// is left out of that task's trials and listed in `notEvaluated` with the reason.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors/index.js';
import { loadStepEval, resultFiles } from '../report/load-results.js';
import { batchPath, findBatchManifests, loadBatchManifest, type BatchCell, type BatchManifest } from '../runner/batch-manifest.js';
import { loadJsonFile } from '../tasks/load-json.js';
import { loadPredictions } from '../tasks/load.js';
import { assertEvaluatedPredictions } from '../results/evaluation-inputs.js';
import { loadFinalScores } from '../eval/task/final-scores.js';
import { checkPrediction, loadTaskRules, needsFinalScores, type TaskRules } from './task-rules.js';
import { successRuleOf, taskPassed, type SuccessRule } from './task-success.js';

/** Step metrics carried per trial (beside pass/fail) for the mean/min/max/std across trials. */
export const trialMetrics = ['recall', 'precision', 'avg_sim_all_cov', 'step_coherence_cov', 'order_consistency_cov'] as const;
export type TrialMetric = (typeof trialMetrics)[number];

export interface TrialOutcome {
  trial: number;
  passed: boolean;
  /** Which rule decided `passed` (src/stats/task-success.ts). */
  rule: SuccessRule;
  metrics: Partial<Record<TrialMetric, number>>;
  toolCalls: number;
}

export interface CellResults {
  label: string;
  model: string;
  condition: string;
  runId: string;
  trials: number;
  /** Per task id, its valid trials in trial order. */
  tasks: Map<string, TrialOutcome[]>;
  /** Trials whose step evaluation is missing (their tasks are then unscored, not failed). */
  unevaluated: string[];
  /** `<task> trial <n>: <why>` for each trial whose task checks could not be evaluated (left out of the task's trials). */
  notEvaluated: string[];
  /** The step layer's grader version each trial was scored with (`unknown` before it was recorded). */
  graderVersions: string[];
  /** Hash over the trial manifests' prompt hashes (task wording + images + tool surface). */
  taskSetHash: string | null;
  /** The ground truths (sha256) the trials' step outputs were scored against (empty: not recorded). */
  gtSha256?: string[];
  /** Why the tasks' checks could not be read (those tasks then fall back to the step rule). */
  rulesUnreadable: string[];
  /** Set when a later batch rewrote this cell's files (same results folder and label): its numbers are not this batch's. */
  overwrittenBy?: string;
}

export interface BatchResults {
  file: string;
  manifest: BatchManifest;
  cells: CellResults[];
}

function readTrialManifest(file: string): { taskSetHash: string | null; batchId: string | null } {
  if (!existsSync(file)) return { taskSetHash: null, batchId: null };
  const raw = loadJsonFile(file) as { taskSetHash?: unknown; batchId?: unknown };
  return { taskSetHash: typeof raw.taskSetHash === 'string' ? raw.taskSetHash : null, batchId: typeof raw.batchId === 'string' ? raw.batchId : null };
}

function readGraderVersion(document: unknown): string {
  const raw = document as { grader_version?: unknown };
  return typeof raw.grader_version === 'string' ? raw.grader_version : 'unknown';
}

/**
 * Refuses a trial whose files a later batch rewrote (its run manifest names another batch): its
 * predictions are that batch's, and scoring them under this batch would mix two runs.
 */
export function assertTrialOfBatch(file: string, batchId: string, cell: BatchCell, trial: BatchCell['trials'][number]): void {
  const manifestFile = batchPath(file, trial.manifest);
  const recorded = readTrialManifest(manifestFile).batchId;
  if (recorded && recorded !== batchId)
    throw new ConfigError(
      `${file}: cell ${cell.label} trial ${trial.trial} belongs to batch ${batchId}, but ${manifestFile} was written by batch ${recorded} (batchId differs): its predictions are that batch's; evaluate that batch's manifest instead`,
    );
}

function loadCell(file: string, batchId: string, cell: BatchCell, rules: TaskRules): CellResults {
  const resultsDir = path.dirname(file);
  const tasks = new Map<string, TrialOutcome[]>();
  const unevaluated: string[] = [];
  const notEvaluated: string[] = [];
  const graderVersions = new Set<string>();
  const hashes = new Set<string | null>();
  const gtHashes = new Set<string>();
  let overwrittenBy: string | undefined;
  for (const trial of cell.trials) {
    const predictionsFile = batchPath(file, trial.predictions);
    const evalFile = path.join(resultsDir, trial.label, resultFiles.step);
    const trialManifest = readTrialManifest(batchPath(file, trial.manifest));
    hashes.add(trialManifest.taskSetHash);
    const rewritten = trialManifest.batchId && trialManifest.batchId !== batchId ? trialManifest.batchId : undefined;
    if (rewritten) overwrittenBy = rewritten;
    if (!existsSync(predictionsFile)) throw new ConfigError(`${file}: cell ${cell.label} trial ${trial.trial}: prediction file ${predictionsFile} is missing`);
    if (!existsSync(evalFile)) {
      unevaluated.push(trial.label);
      continue;
    }
    const step = loadStepEval(evalFile);
    const document = loadJsonFile(evalFile);
    // The step output must be this trial's (a cell whose files another batch rewrote is refused
    // by pickCell and left out of trends, naming that batch).
    const inputs = rewritten ? undefined : assertEvaluatedPredictions({ file: evalFile, document }, { file: predictionsFile, runId: cell.runId });
    if (inputs?.gt_sha256) gtHashes.add(inputs.gt_sha256);
    graderVersions.add(readGraderVersion(document));
    const trialDir = path.join(resultsDir, trial.label);
    const finalScores = needsFinalScores(rules)
      ? loadFinalScores({ judges: path.join(trialDir, resultFiles.taskCompletion), proxy: path.join(trialDir, resultFiles.proxy) })
      : undefined;
    for (const prediction of loadPredictions(predictionsFile)) {
      const status = typeof prediction.status === 'string' ? prediction.status : undefined;
      const perTask = step.perId.get(prediction.id);
      const metrics: Partial<Record<TrialMetric, number>> = {};
      for (const metric of trialMetrics) if (perTask && Number.isFinite(perTask[metric])) metrics[metric] = perTask[metric];
      const checks = checkPrediction(rules, prediction, finalScores);
      if (checks && checks.passed === null && status !== 'model_failure') {
        notEvaluated.push(`${prediction.id} trial ${trial.trial}: ${checks.notEvaluated.join('; ')}`);
        continue;
      }
      const outcome: TrialOutcome = {
        trial: trial.trial,
        passed: taskPassed({ ...(status ? { status } : {}), ...(perTask ? { step: perTask } : {}), ...(checks ? { checks } : {}) }),
        rule: successRuleOf(checks),
        metrics,
        toolCalls: prediction.steps.reduce((sum, entry) => sum + entry.calls.length, 0),
      };
      const list = tasks.get(prediction.id) ?? [];
      list.push(outcome);
      tasks.set(prediction.id, list);
    }
  }
  const hashList = [...hashes];
  return {
    label: cell.label,
    model: cell.model,
    condition: cell.condition,
    runId: cell.runId,
    trials: cell.trials.length,
    tasks,
    unevaluated,
    notEvaluated,
    graderVersions: [...graderVersions].sort(),
    taskSetHash: hashList.length === 1 ? (hashList[0] ?? null) : null,
    gtSha256: [...gtHashes].sort(),
    rulesUnreadable: rules.unreadable,
    ...(overwrittenBy ? { overwrittenBy } : {}),
  };
}

export function loadBatchResults(file: string): BatchResults {
  const manifest = loadBatchManifest(file);
  const rules = loadTaskRules(manifest);
  return { file, manifest, cells: manifest.cells.map((cell) => loadCell(file, manifest.batchId, cell, rules)) };
}

/** A batch manifest file, or a results folder (its newest batch manifest). */
export function resolveBatchFile(target: string): string {
  const resolved = path.resolve(target);
  if (resolved.endsWith('.json')) {
    if (!existsSync(resolved)) throw new ConfigError(`batch manifest ${resolved} not found`);
    return resolved;
  }
  const newest = findBatchManifests(resolved)[0];
  if (!newest) throw new ConfigError(`${resolved}: no *.batch.json batch manifest (written by m3 run)`);
  return newest.file;
}

/** The cell named `label` (or the only one when no label is given). */
export function pickCell(batch: BatchResults, label: string | undefined): CellResults {
  const names = batch.cells.map((entry) => entry.label).join(', ');
  if (label === undefined && batch.cells.length !== 1) throw new ConfigError(`${batch.file} holds ${batch.cells.length} cells (${names}): name one`);
  const cell = label === undefined ? batch.cells[0] : batch.cells.find((entry) => entry.label === label);
  if (!cell) throw new ConfigError(`${batch.file}: no cell "${label}" (cells: ${names})`);
  if (cell.overwrittenBy)
    throw new ConfigError(
      `${batch.file}: the files of cell "${cell.label}" were rewritten by batch ${cell.overwrittenBy}; give each batch its own --results-dir to keep them`,
    );
  return cell;
}
