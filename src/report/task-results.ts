// The task-level outputs a report reads: every `results/<dir>/task_eval.json` (src/eval/task/
// output.ts). A dir is one run of one model; the run block (model spec, max rounds K, condition)
// from its manifest ties dirs together into the max-rounds sweep and the condition comparison.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadTaskEval, TASK_OUTPUT_FILES, type TaskEvalFile } from '../eval/task/output.js';
import { displayName } from './leaderboard.js';

export interface TaskModelResult {
  /** The results/<dir> name. */
  dir: string;
  display: string;
  file: string;
  data: TaskEvalFile;
  /** What identifies the agent across the cells of a sweep: the model spec, else the dir. */
  agent: string;
}

export function loadTaskResults(resultsDir: string, models?: readonly string[]): TaskModelResult[] {
  if (!existsSync(resultsDir)) return [];
  const names =
    models && models.length > 0
      ? [...models]
      : readdirSync(resultsDir)
          .filter((name) => statSync(path.join(resultsDir, name)).isDirectory())
          .sort();
  return names.flatMap((dir) => {
    const file = path.join(resultsDir, dir, TASK_OUTPUT_FILES.json);
    if (!existsSync(file)) return [];
    const data = loadTaskEval(file);
    return [{ dir, display: displayName(dir), file, data, agent: data.run.model ?? dir }];
  });
}

export interface SweepPoint {
  maxStep: number;
  dir: string;
  success: number | null;
  tasks: number;
}

/** Per agent and condition, the runs at two or more distinct K (max rounds), sorted by K. */
export function maxStepSweeps(results: readonly TaskModelResult[]): Map<string, SweepPoint[]> {
  const groups = new Map<string, SweepPoint[]>();
  for (const result of results) {
    const { max_step: maxStep, condition } = result.data.run;
    if (maxStep === null) continue;
    const key = condition ? `${result.agent} [${condition}]` : result.agent;
    const rate = result.data.aggregate.task_success_rate;
    groups.set(key, [...(groups.get(key) ?? []), { maxStep, dir: result.dir, success: rate.rate, tasks: rate.denominator }]);
  }
  return new Map(
    [...groups]
      .filter(([, points]) => new Set(points.map((point) => point.maxStep)).size >= 2)
      .map(([key, points]) => [key, points.sort((a, b) => a.maxStep - b.maxStep)]),
  );
}

export interface ConditionDelta {
  agent: string;
  condition: string;
  maxStep: number | null;
  dir: string;
  baselineDir: string;
  success: number | null;
  baseline: number | null;
  /** Paired over the tasks both runs scored. */
  commonTasks: number;
  delta: number | null;
}

function pairedSuccess(a: TaskEvalFile, b: TaskEvalFile): { common: number; a: number; b: number } {
  const other = new Map(b.per_task.map((task) => [task.id, task.success]));
  const common = a.per_task.filter((task) => other.has(task.id));
  return { common: common.length, a: common.filter((task) => task.success).length, b: common.filter((task) => other.get(task.id)).length };
}

/** Each run with a condition against the run of the same agent and K without one (e.g. tool-count-hint). */
export function conditionDeltas(results: readonly TaskModelResult[]): ConditionDelta[] {
  const deltas: ConditionDelta[] = [];
  for (const result of results) {
    const { condition, max_step: maxStep } = result.data.run;
    if (!condition) continue;
    const baseline = results.find((other) => other.agent === result.agent && other.data.run.condition === null && other.data.run.max_step === maxStep);
    if (!baseline) continue;
    const paired = pairedSuccess(result.data, baseline.data);
    const success = paired.common > 0 ? paired.a / paired.common : null;
    const base = paired.common > 0 ? paired.b / paired.common : null;
    deltas.push({
      agent: result.agent,
      condition,
      maxStep,
      dir: result.dir,
      baselineDir: baseline.dir,
      success,
      baseline: base,
      commonTasks: paired.common,
      delta: success !== null && base !== null ? success - base : null,
    });
  }
  return deltas;
}
