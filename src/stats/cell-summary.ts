// The headline numbers of one cell (a model under a condition, k trials per task), each with
// its bootstrap interval: pass@1, pass@k, pass^k, avg@k, and every step metric as the mean over
// tasks of the task's mean over trials, plus the spread (mean/min/max/std) of the per-trial
// means. Tasks with no valid trial are not in the sample (infrastructure failures only).
import { bootstrapInterval, defaultBootstrap, meanOfTaskMeans, resampleTrials, type BootstrapSettings, type Interval } from './bootstrap.js';
import type { CellResults, TrialMetric, TrialOutcome } from './batch-results.js';
import { trialMetrics } from './batch-results.js';
import { spread, type Spread } from './describe.js';
import { avgAtK, passAtK, passHatK } from './pass-at-k.js';
import type { SuccessRule } from './task-success.js';
import { mean } from '../core/number-format.js';

interface MetricSummary {
  interval: Interval;
  /** Spread of the per-trial means over tasks (how much one run moves between trials). */
  acrossTrials: Spread;
}

export interface CellSummary {
  label: string;
  model: string;
  condition: string;
  tasks: number;
  trials: number;
  passAt1: Interval;
  passAtK: Interval;
  passHatK: Interval;
  avgAtK: number;
  metrics: Record<TrialMetric, MetricSummary>;
  meanToolCalls: number;
  /** Per task id, the success rule that decided it (src/stats/task-success.ts). */
  successRules: Record<string, SuccessRule>;
  /** Why the tasks' checks could not be read (those tasks fell back to the step rule). */
  rulesUnreadable: string[];
  unevaluated: string[];
  /** Trials whose task checks could not be evaluated, with the reason (in no denominator). */
  notEvaluated: string[];
  overwrittenBy?: string;
}

type Unit = readonly TrialOutcome[];

// The statistics below run once per bootstrap replicate (2000 per interval, src/stats/bootstrap.ts),
// so they loop without building arrays, adding the same values in the same order as meanAtK over
// mapped arrays would: the numbers are bit for bit meanAtK's.

/** meanAtK(sample's pass lists, k, estimator), without building the lists. */
function estimatorOver(k: number, estimator: (n: number, c: number, k: number) => number) {
  return (sample: readonly Unit[]) => {
    let total = 0;
    let count = 0;
    for (const unit of sample) {
      if (unit.length < k) continue;
      let passed = 0;
      for (const outcome of unit) if (outcome.passed) passed += 1;
      total += estimator(unit.length, passed, k);
      count += 1;
    }
    return count === 0 ? Number.NaN : total / count;
  };
}

/** Per trial index, the mean over tasks that have that trial. */
function perTrialMeans(units: readonly Unit[], trials: number, value: (outcome: TrialOutcome) => number | undefined): number[] {
  const means: number[] = [];
  for (let trial = 1; trial <= trials; trial += 1) {
    const values = units
      .flatMap((unit) => unit.filter((outcome) => outcome.trial === trial).map(value))
      .filter((entry): entry is number => entry !== undefined && Number.isFinite(entry));
    means.push(mean(values));
  }
  return means;
}

function metricSummary(units: readonly Unit[], trials: number, metric: TrialMetric, settings: BootstrapSettings): MetricSummary {
  return {
    interval: bootstrapInterval(
      units,
      (sample) => meanOfTaskMeans(sample, (outcome) => outcome.metrics[metric]),
      settings,
      (unit, random) => resampleTrials(unit, random),
    ),
    acrossTrials: spread(perTrialMeans(units, trials, (outcome) => outcome.metrics[metric])),
  };
}

export function summarizeCell(cell: CellResults, settings: BootstrapSettings = defaultBootstrap): CellSummary {
  const units: Unit[] = [...cell.tasks.values()].filter((unit) => unit.length > 0);
  const k = cell.trials;
  const within = (unit: Unit, random: () => number) => resampleTrials(unit, random);
  const metrics = Object.fromEntries(trialMetrics.map((metric) => [metric, metricSummary(units, k, metric, settings)])) as Record<TrialMetric, MetricSummary>;
  const calls = units.flatMap((unit) => unit.map((outcome) => outcome.toolCalls));
  return {
    label: cell.label,
    model: cell.model,
    condition: cell.condition,
    tasks: units.length,
    trials: k,
    passAt1: bootstrapInterval(
      units,
      estimatorOver(1, (n, c) => c / n),
      settings,
      within,
    ),
    // pass@k and pass^k are set functions of a task's k trials: tasks are resampled, trials kept.
    passAtK: bootstrapInterval(units, estimatorOver(k, passAtK), settings),
    passHatK: bootstrapInterval(units, estimatorOver(k, passHatK), settings),
    avgAtK: avgAtK(perTrialMeans(units, k, (outcome) => (outcome.passed ? 1 : 0))),
    metrics,
    meanToolCalls: mean(calls),
    successRules: Object.fromEntries(
      [...cell.tasks]
        .filter(([, unit]) => unit.length > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([taskId, unit]) => [taskId, unit[0]?.rule ?? 'step']),
    ),
    rulesUnreadable: cell.rulesUnreadable,
    unevaluated: cell.unevaluated,
    notEvaluated: cell.notEvaluated,
    ...(cell.overwrittenBy ? { overwrittenBy: cell.overwrittenBy } : {}),
  };
}
