// Paired comparison of two models or conditions on the same tasks: a paired bootstrap of the
// difference (tasks resampled together on both sides, trials resampled inside each side) with
// its interval, and an exact two-sided sign test on the per-task differences. "A beats B" is
// said only when the interval of A - B lies entirely above 0; anything else is "no difference
// beyond noise" (or the reverse), so ties and small samples never produce a ranking.
import { bootstrapInterval, defaultBootstrap, resampleTrials, type BootstrapSettings, type Interval, type Random } from './bootstrap.js';

export interface PairedUnit<T> {
  taskId: string;
  a: readonly T[];
  b: readonly T[];
}

interface SignTest {
  /** Tasks where A's per-task value is higher. */
  wins: number;
  losses: number;
  ties: number;
  /** Exact two-sided binomial p-value over the non-tied tasks (1 when all tie). */
  pValue: number;
}

type Verdict = 'a_better' | 'b_better' | 'no_difference';

export interface PairedComparison {
  tasks: number;
  a: number;
  b: number;
  /** A - B with its bootstrap interval. */
  difference: Interval;
  signTest: SignTest;
  verdict: Verdict;
}

/**
 * Exact two-sided sign test: P(X <= min(w, l)) * 2 for X ~ Binomial(w + l, 1/2), capped at 1.
 * @internal Exported for its tests.
 */
export function signTest(wins: number, losses: number, ties = 0): SignTest {
  const n = wins + losses;
  if (n === 0) return { wins, losses, ties, pValue: 1 };
  const smaller = Math.min(wins, losses);
  // Binomial coefficients in log space so hundreds of tasks do not underflow.
  let logChoose = 0;
  let tail = 0;
  for (let i = 0; i <= smaller; i += 1) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logChoose - n * Math.LN2);
  }
  return { wins, losses, ties, pValue: Math.min(1, 2 * tail) };
}

export interface PairedMetric<T> {
  /** The metric of one side over a sample of tasks (each with its trials). */
  statistic: (sample: ReadonlyArray<readonly T[]>) => number;
  /** The per-task value the sign test compares (e.g. the task's pass share). */
  perTask: (trials: readonly T[]) => number;
}

/**
 * Trials inside a task: with as many trials on both sides, trial t of A is paired with trial t
 * of B (they share the trial's seed), so the same trial indices are drawn on both sides; with
 * unequal counts (infrastructure failures removed some) each side is drawn on its own.
 */
function resamplePairedTrials<T>(unit: PairedUnit<T>, random: Random): PairedUnit<T> {
  if (unit.a.length !== unit.b.length) return { taskId: unit.taskId, a: resampleTrials(unit.a, random), b: resampleTrials(unit.b, random) };
  if (unit.a.length < 2) return unit;
  const picks = unit.a.map(() => Math.floor(random() * unit.a.length));
  return { taskId: unit.taskId, a: picks.map((pick) => unit.a[pick] as T), b: picks.map((pick) => unit.b[pick] as T) };
}

function verdictOf(difference: Interval): Verdict {
  if (difference.low > 0) return 'a_better';
  if (difference.high < 0) return 'b_better';
  return 'no_difference';
}

export function comparePaired<T>(
  units: ReadonlyArray<PairedUnit<T>>,
  metric: PairedMetric<T>,
  settings: BootstrapSettings = defaultBootstrap,
): PairedComparison {
  const side = (sample: ReadonlyArray<PairedUnit<T>>, key: 'a' | 'b') => metric.statistic(sample.map((unit) => unit[key]));
  const difference = bootstrapInterval(units, (sample) => side(sample, 'a') - side(sample, 'b'), settings, resamplePairedTrials);
  let wins = 0;
  let losses = 0;
  let ties = 0;
  for (const unit of units) {
    const delta = metric.perTask(unit.a) - metric.perTask(unit.b);
    if (!Number.isFinite(delta) || Math.abs(delta) < 1e-12) ties += 1;
    else if (delta > 0) wins += 1;
    else losses += 1;
  }
  return { tasks: units.length, a: side(units, 'a'), b: side(units, 'b'), difference, signTest: signTest(wins, losses, ties), verdict: verdictOf(difference) };
}

/** One line a reader can trust: a ranking only when the interval excludes 0. */
export function describeComparison(nameA: string, nameB: string, metricName: string, comparison: PairedComparison, level = defaultBootstrap.level): string {
  const { difference, signTest: sign } = comparison;
  const interval = `${formatSigned(difference.estimate)} [${formatSigned(difference.low)}, ${formatSigned(difference.high)}]`;
  const counts = `${comparison.tasks} paired tasks, sign test ${sign.wins}-${sign.losses} (ties ${sign.ties}), p=${sign.pValue.toPrecision(2)}`;
  const percent = Math.round(level * 100);
  if (comparison.verdict === 'a_better') return `${nameA} beats ${nameB} on ${metricName}: ${interval} (${percent}% CI excludes 0; ${counts})`;
  if (comparison.verdict === 'b_better')
    return `${nameB} beats ${nameA} on ${metricName}: ${nameA} - ${nameB} = ${interval} (${percent}% CI excludes 0; ${counts})`;
  return `${nameA} vs ${nameB} on ${metricName}: no difference beyond noise, ${interval} (${percent}% CI includes 0; ${counts})`;
}

function formatSigned(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const text = value.toFixed(3);
  return value > 0 ? `+${text}` : text;
}
