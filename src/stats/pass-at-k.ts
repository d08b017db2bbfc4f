// Reliability estimators over k trials per task, per task from n valid trials of which c passed:
//   pass@k  the chance that at least one of k trials passes: 1 - C(n-c, k) / C(n, k)
//           (the unbiased estimator of Chen et al. 2021, used by MCPMark)
//   pass^k  the chance that all k trials pass: C(c, k) / C(n, k) (tau-bench)
//   avg@k   the mean over trials of each trial's pass rate (MCPMark's avg@k)
// With n = k they reduce to "any trial passed" and "every trial passed". A task with fewer than
// k valid trials (infrastructure failures are not trials) cannot be scored at k and is left out.
import { mean } from '../core/number-format.js';

/** 1 - C(n-c, k) / C(n, k), as a product so large n does not overflow. */
export function passAtK(n: number, c: number, k: number): number {
  if (k < 1 || n < k) return Number.NaN;
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i += 1) miss *= 1 - k / i;
  return 1 - miss;
}

/** C(c, k) / C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k < 1 || n < k) return Number.NaN;
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i += 1) all *= (c - i) / (n - i);
  return all;
}

/** @internal Exported for its tests (meanAtK's input). */
export interface TaskTrials {
  taskId: string;
  /** One entry per valid trial: did it pass. */
  passed: readonly boolean[];
}

function countPasses(task: TaskTrials): number {
  return task.passed.filter(Boolean).length;
}

/**
 * Mean over tasks of the per-task estimator, over tasks with at least k valid trials (the
 * definition src/stats/cell-summary.ts's bootstrap statistics compute without building lists).
 * @internal Exported for its tests.
 */
export function meanAtK(tasks: readonly TaskTrials[], k: number, estimator: (n: number, c: number, k: number) => number): number {
  const values = tasks.filter((task) => task.passed.length >= k).map((task) => estimator(task.passed.length, countPasses(task), k));
  return mean(values);
}

/**
 * pass@1: the mean over tasks of each task's pass share.
 * @internal Exported for its tests.
 */
export function passAt1(tasks: readonly TaskTrials[]): number {
  return meanAtK(tasks, 1, (n, c) => c / n);
}

/**
 * avg@k: the pass rate of each trial index (over the tasks that have a valid trial there),
 * averaged over the trial indices. Equals pass@1 when every task has all k trials.
 */
export function avgAtK(trialPassRates: readonly number[]): number {
  const rates = trialPassRates.filter((rate) => Number.isFinite(rate));
  return mean(rates);
}
