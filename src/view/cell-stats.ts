// The statistics of a run for the viewer, computed by src/stats exactly as `m3 summary` and
// `m3 compare` compute them: the run's cell is found in the batch manifests of the results folder
// (`<batch>.batch.json`, by run id), read with its trials' step evaluations, and summarised with
// bootstrap intervals; two runs are compared with the paired bootstrap and the sign test. A run
// without a batch manifest, or not evaluated yet, gets the reason instead of numbers.
import { statSync } from 'node:fs';
import path from 'node:path';
import { resultFiles } from '../report/load-results.js';
import { findBatchManifests } from '../runner/batch-manifest.js';
import { defaultBootstrap } from '../stats/bootstrap.js';
import { loadBatchResults, type CellResults } from '../stats/batch-results.js';
import { summarizeCell } from '../stats/cell-summary.js';
import { comparePaired, describeComparison } from '../stats/paired.js';
import { pairedMetric, pairUnits, requireComparable } from '../stats/paired-cells.js';
import { SUCCESS_RULE } from '../stats/task-success.js';

type Lookup<T> = { found: T } | { missing: string };

interface RunCell {
  file: string;
  cell: CellResults;
}

// Reading a batch means reading every trial's predictions and evaluation: a page that polls a
// live run must not redo that (nor the bootstrap) while none of those files changed.
const cache = new Map<string, { signature: string; value: unknown }>();

function signatureOf(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const stat = statSync(file);
        return `${file}:${stat.mtimeMs}:${stat.size}`;
      } catch {
        return `${file}:absent`;
      }
    })
    .join('|');
}

function cached<T>(key: string, files: readonly string[], compute: () => T): T {
  const signature = signatureOf(files);
  const hit = cache.get(key);
  if (hit && hit.signature === signature) return hit.value as T;
  const value = compute();
  cache.set(key, { signature, value });
  return value;
}

interface CellInputs {
  /** The batch manifest naming the run, and the run's cell label in it. */
  file: string;
  label: string;
  /** The manifest and every trial's predictions and step evaluation: the cell is read from these. */
  inputs: string[];
}

function findCellInputs(resultsDir: string, runId: string): Lookup<CellInputs> {
  let manifests: ReturnType<typeof findBatchManifests>;
  try {
    manifests = findBatchManifests(resultsDir);
  } catch (error) {
    return { missing: (error as Error).message.slice(0, 300) };
  }
  for (const { file, manifest } of manifests) {
    const entry = manifest.cells.find((cell) => cell.runId === runId);
    if (!entry) continue;
    const folder = path.dirname(file);
    const inputs = [file, ...entry.trials.flatMap((trial) => [path.resolve(folder, trial.predictions), path.join(folder, trial.label, resultFiles.step)])];
    return { found: { file, label: entry.label, inputs } };
  }
  return { missing: `no batch manifest in ${path.basename(resultsDir)}/ names run ${runId} (intervals need the files \`m3 run\` writes)` };
}

/**
 * Which files the run's intervals are computed from, and a fingerprint of their current versions
 * (path, mtime, size): the same fingerprint means the same intervals. Cheap (the manifests and a
 * stat per file), so a request can ask it without reading the cell.
 */
export function intervalInputs(resultsDir: string, runId: string): Lookup<{ key: string; signature: string }> {
  const found = findCellInputs(resultsDir, runId);
  if ('missing' in found) return found;
  return { found: { key: `${found.found.file}#${found.found.label}`, signature: signatureOf(found.found.inputs) } };
}

function findRunCell(resultsDir: string, runId: string): Lookup<RunCell> {
  const found = findCellInputs(resultsDir, runId);
  if ('missing' in found) return found;
  const { file, label, inputs } = found.found;
  return cached(`${file}#${label}`, inputs, (): Lookup<RunCell> => {
    try {
      const cell = loadBatchResults(file).cells.find((candidate) => candidate.label === label);
      if (!cell) return { missing: `${path.basename(file)} has no cell ${label}` };
      if (cell.overwrittenBy) return { missing: `the files of ${label} were rewritten by batch ${cell.overwrittenBy}` };
      return { found: { file, cell } };
    } catch (error) {
      return { missing: (error as Error).message.slice(0, 300) };
    }
  });
}

/**
 * Per `<task>#<trial>`, whether the trial passed by the success rule (src/stats/task-success.ts,
 * the rule `m3 eval task` applies): the same outcomes the run's pass@1 counts, so the task table
 * and the headline never disagree. Undefined when the run has no evaluated batch cell.
 */
export function taskOutcomes(resultsDir: string, runId: string): Map<string, boolean> | undefined {
  const found = findRunCell(resultsDir, runId);
  if ('missing' in found) return undefined;
  const outcomes = new Map<string, boolean>();
  for (const [taskId, trials] of found.found.cell.tasks) for (const trial of trials) outcomes.set(`${taskId}#${trial.trial}`, trial.passed);
  return outcomes;
}

// The bootstrap is the slow part of a page (seconds on a 10,000-task cell): kept per cell object,
// which findRunCell returns unchanged while none of the cell's files changed.
const summaries = new WeakMap<CellResults, ReturnType<typeof summarizeCell>>();

/** pass@1, recall and precision of the run with their bootstrap intervals. */
export function runIntervals(resultsDir: string, runId: string) {
  const found = findRunCell(resultsDir, runId);
  if ('missing' in found) return { missing: found.missing };
  const { cell } = found.found;
  if (cell.unevaluated.length === cell.trials) return { missing: `no trial of ${cell.label} has a step evaluation yet: run \`m3 eval step\`` };
  const summary = summaries.get(cell) ?? summarizeCell(cell);
  summaries.set(cell, summary);
  return {
    label: cell.label,
    tasks: summary.tasks,
    trials: summary.trials,
    passAt1: summary.passAt1,
    recall: summary.metrics.recall.interval,
    precision: summary.metrics.precision.interval,
    unevaluated: summary.unevaluated,
    rule: SUCCESS_RULE,
    bootstrap: defaultBootstrap,
  };
}

/** B - A on the shared tasks: pass (the success rule) and recall, paired bootstrap and sign test. */
export function pairedDifference(aRunDir: string, aRunId: string, bRunDir: string, bRunId: string) {
  const a = findRunCell(aRunDir, aRunId);
  const b = findRunCell(bRunDir, bRunId);
  if ('missing' in a) return { missing: `run A: ${a.missing}` };
  if ('missing' in b) return { missing: `run B: ${b.missing}` };
  const [left, right] = [a.found, b.found];
  const ref = (entry: RunCell) => ({ text: entry.cell.label, file: entry.file, cell: entry.cell });
  const problems = requireComparable(ref(left), ref(right), true);
  // Units with B first, so the difference reads B - A like the per-task deltas of the table.
  const units = pairUnits(right.cell, left.cell);
  const pass = comparePaired(units, pairedMetric('pass'));
  const recall = comparePaired(units, pairedMetric('recall'));
  return {
    a: left.cell.label,
    b: right.cell.label,
    pass,
    recall,
    sentence: describeComparison(right.cell.label, left.cell.label, 'pass', pass),
    problems,
    rule: SUCCESS_RULE,
    bootstrap: defaultBootstrap,
  };
}
