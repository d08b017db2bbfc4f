// Metrics over time per cell (model + condition), from every batch manifest in a results
// folder, oldest first. A trend line is split into segments where the grader versions or the
// task set (its prompt-hash digest: wording, images, tool surface) or the ground truth change,
// because numbers on the two sides measure different things; `join` keeps one segment and says where it crossed.
import { defaultBootstrap, type BootstrapSettings, type Interval } from './bootstrap.js';
import { loadBatchResults } from './batch-results.js';
import { summarizeCell } from './cell-summary.js';
import { findBatchManifests } from '../runner/batch-manifest.js';
import { GRADER_VERSIONS } from '../results/grader-versions.js';

export interface TrendPoint {
  batchId: string;
  startedAt: string;
  file: string;
  tasks: number;
  trials: number;
  passAt1: Interval;
  recall: Interval;
  graderKey: string;
  taskSetHash: string | null;
  /** The ground truth (sha256) the step outputs were scored against; null: not recorded. */
  gtSha256?: string | null;
}

interface TrendSegment {
  graderKey: string;
  taskSetHash: string | null;
  points: TrendPoint[];
}

export interface TrendLine {
  label: string;
  segments: TrendSegment[];
  /** With `join`: the boundaries the single segment crosses. */
  crossed: string[];
}

export function collectTrendPoints(resultsDir: string, settings: BootstrapSettings = defaultBootstrap): Map<string, TrendPoint[]> {
  const lines = new Map<string, TrendPoint[]>();
  // Sub-folders too: keeping each batch in its own --results-dir is how its files stay its own.
  for (const { file } of findBatchManifests(resultsDir, 2).reverse()) {
    const batch = loadBatchResults(file);
    for (const cell of batch.cells) {
      const summary = summarizeCell(cell, settings);
      if (summary.tasks === 0 || cell.overwrittenBy) continue;
      const graderKey = `${cell.graderVersions.join(',') || 'unknown'};${GRADER_VERSIONS.success}`;
      const point: TrendPoint = {
        batchId: batch.manifest.batchId,
        startedAt: batch.manifest.startedAt,
        file,
        tasks: summary.tasks,
        trials: summary.trials,
        passAt1: summary.passAt1,
        recall: summary.metrics.recall.interval,
        graderKey,
        taskSetHash: cell.taskSetHash,
        gtSha256: cell.gtSha256?.join(',') || null,
      };
      lines.set(cell.label, [...(lines.get(cell.label) ?? []), point]);
    }
  }
  return lines;
}

function boundary(previous: TrendPoint, next: TrendPoint): string | undefined {
  const changes: string[] = [];
  if (previous.graderKey !== next.graderKey) changes.push(`grader ${previous.graderKey} -> ${next.graderKey}`);
  if (previous.taskSetHash !== next.taskSetHash)
    changes.push(`task set ${String(previous.taskSetHash).slice(0, 12)} -> ${String(next.taskSetHash).slice(0, 12)}`);
  if (previous.gtSha256 && next.gtSha256 && previous.gtSha256 !== next.gtSha256)
    changes.push(`ground truth ${previous.gtSha256.slice(0, 12)} -> ${next.gtSha256.slice(0, 12)}`);
  return changes.length > 0 ? `at ${next.batchId}: ${changes.join(', ')}` : undefined;
}

export function splitTrend(label: string, points: readonly TrendPoint[], join: boolean): TrendLine {
  const segments: TrendSegment[] = [];
  const crossed: string[] = [];
  let previous: TrendPoint | undefined;
  for (const point of points) {
    const change = previous ? boundary(previous, point) : undefined;
    const current = segments[segments.length - 1];
    if (!current || (change && !join)) segments.push({ graderKey: point.graderKey, taskSetHash: point.taskSetHash, points: [point] });
    else current.points.push(point);
    if (change && join) crossed.push(change);
    previous = point;
  }
  return { label, segments, crossed };
}
