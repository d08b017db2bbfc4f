// Pairs two cells (models or conditions, in one batch or two) task by task for the paired
// comparison and the gate, on a named metric: `pass` (per-task success) or a step metric. Only
// tasks with a valid trial on both sides are paired; cells scored by different graders or run on
// different task sets (prompt hashes) or against different ground truths (the sha256 their step
// outputs recorded) are not comparable, and are refused unless allowed; each cell's step outputs
// must have evaluated that cell's own prediction files (src/stats/batch-results.ts).
import { ConfigError } from '../errors/index.js';
import { meanOfTaskMeans } from './bootstrap.js';
import { loadBatchResults, pickCell, resolveBatchFile, trialMetrics, type CellResults, type TrialMetric, type TrialOutcome } from './batch-results.js';
import type { PairedMetric, PairedUnit } from './paired.js';

export type CompareMetric = 'pass' | TrialMetric;
export const compareMetrics: readonly CompareMetric[] = ['pass', ...trialMetrics];

export function parseCompareMetric(value: string): CompareMetric {
  if ((compareMetrics as readonly string[]).includes(value)) return value as CompareMetric;
  throw new ConfigError(`--metric: expected one of ${compareMetrics.join(', ')}, got "${value}"`);
}

function trialValue(outcome: TrialOutcome, metric: CompareMetric): number | undefined {
  return metric === 'pass' ? (outcome.passed ? 1 : 0) : outcome.metrics[metric];
}

export function pairedMetric(metric: CompareMetric): PairedMetric<TrialOutcome> {
  // A trial without a finite value of the metric is left out of its task's mean.
  const finiteValue = (outcome: TrialOutcome) => {
    const value = trialValue(outcome, metric);
    return value !== undefined && Number.isFinite(value) ? value : undefined;
  };
  return {
    // Once per bootstrap replicate.
    statistic: (sample) => meanOfTaskMeans(sample, finiteValue),
    perTask: (trials) => meanOfTaskMeans([trials], finiteValue),
  };
}

export interface CellRef {
  /** As given: `<batch.json or results folder>[#<cell label>]`. */
  text: string;
  file: string;
  cell: CellResults;
}

/** `results/20260101-120000.batch.json#gpt-4o`, `results#replay-gt`, or a file/folder alone (its only cell). */
export function loadCellRef(text: string): CellRef {
  const hash = text.lastIndexOf('#');
  const target = hash >= 0 ? text.slice(0, hash) : text;
  const label = hash >= 0 ? text.slice(hash + 1) : undefined;
  const file = resolveBatchFile(target || '.');
  return { text, file, cell: pickCell(loadBatchResults(file), label || undefined) };
}

/** Why two cells should not be compared (empty: comparable). */
function comparabilityProblems(a: CellResults, b: CellResults): string[] {
  const problems: string[] = [];
  const graders = (cell: CellResults) => cell.graderVersions.join(',') || 'none';
  if (graders(a) !== graders(b)) problems.push(`grader versions differ (${a.label}: ${graders(a)}; ${b.label}: ${graders(b)})`);
  if (a.taskSetHash && b.taskSetHash && a.taskSetHash !== b.taskSetHash) {
    problems.push(`task sets differ (prompt hashes ${a.taskSetHash.slice(0, 12)} vs ${b.taskSetHash.slice(0, 12)}: wording, images or tool surface changed)`);
  }
  const [gtA, gtB] = [a.gtSha256 ?? [], b.gtSha256 ?? []];
  if (gtA.length > 0 && gtB.length > 0 && gtA.join(',') !== gtB.join(','))
    problems.push(
      `ground truths differ (${a.label}: gt sha256 ${gtA.map((hash) => hash.slice(0, 12)).join(',')}; ${b.label}: gt sha256 ${gtB.map((hash) => hash.slice(0, 12)).join(',')})`,
    );
  return problems;
}

export function pairUnits(a: CellResults, b: CellResults): Array<PairedUnit<TrialOutcome>> {
  const units: Array<PairedUnit<TrialOutcome>> = [];
  for (const [taskId, trialsA] of a.tasks) {
    const trialsB = b.tasks.get(taskId);
    if (trialsA.length > 0 && trialsB && trialsB.length > 0) units.push({ taskId, a: trialsA, b: trialsB });
  }
  return units.sort((x, y) => x.taskId.localeCompare(y.taskId));
}

/** Throws naming the problems unless `allow`. */
export function requireComparable(a: CellRef, b: CellRef, allow: boolean, flag = '--allow-mismatch'): string[] {
  const problems = comparabilityProblems(a.cell, b.cell);
  if (problems.length > 0 && !allow)
    throw new ConfigError(`${a.text} and ${b.text} are not comparable: ${problems.join('; ')} (pass ${flag} to compare anyway)`);
  return problems;
}
