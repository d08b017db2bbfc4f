// The statistics against closed forms: the bootstrap interval of a Bernoulli mean against the
// normal approximation p ± 1.96 sqrt(p(1-p)/n), pass@k / pass^k against their binomial
// definitions, the exact sign test against hand-computed tails, and degenerate inputs.
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/core/seeded-random.js';
import { mean } from '../../src/core/number-format.js';
import { bootstrapInterval, defaultBootstrap, meanOfTaskMeans, resampleTrials } from '../../src/stats/bootstrap.js';
import { spread } from '../../src/stats/describe.js';
import { comparePaired, describeComparison, signTest } from '../../src/stats/paired.js';
import { avgAtK, meanAtK, passAt1, passAtK, passHatK } from '../../src/stats/pass-at-k.js';

function choose(n: number, k: number): number {
  let value = 1;
  for (let i = 1; i <= k; i += 1) value = (value * (n - k + i)) / i;
  return value;
}

/** Tasks' trial values as they are: the statistic the intervals below are taken of. */
const taskMeans = (units: ReadonlyArray<readonly number[]>) => meanOfTaskMeans(units, (value) => value);

describe('bootstrap intervals', () => {
  it('match the closed-form interval of a Bernoulli mean', () => {
    for (const [n, passes] of [
      [400, 120],
      [250, 200],
      [1000, 500],
    ] as const) {
      const units = Array.from({ length: n }, (_, index) => [index < passes ? 1 : 0]);
      const p = passes / n;
      const half = 1.959964 * Math.sqrt((p * (1 - p)) / n);
      const interval = bootstrapInterval(units, taskMeans, { ...defaultBootstrap, resamples: 4000 });
      expect(interval.estimate).toBeCloseTo(p, 12);
      // The percentile bootstrap converges to the normal interval; 4000 replicates keep the
      // Monte Carlo error of each bound well under 0.01.
      expect(Math.abs(interval.low - (p - half))).toBeLessThan(0.01);
      expect(Math.abs(interval.high - (p + half))).toBeLessThan(0.01);
    }
  });

  it('matches the closed form over tasks and trials: a per-task rate drawn from k Bernoulli trials', () => {
    // Every task has the same true rate q; with k trials the task mean has variance q(1-q)/k, and the
    // mean over n tasks has variance q(1-q)/(n k): the two-level bootstrap must see that noise.
    const random = createRandom(7);
    const n = 300;
    const k = 4;
    const q = 0.4;
    const units: Array<readonly number[]> = Array.from({ length: n }, () => Array.from({ length: k }, () => (random() < q ? 1 : 0)));
    const estimate = taskMeans(units);
    const half = 1.959964 * Math.sqrt((estimate * (1 - estimate)) / (n * k));
    const interval = bootstrapInterval(units, taskMeans, { ...defaultBootstrap, resamples: 3000 }, resampleTrials);
    const width = interval.high - interval.low;
    expect(width / (2 * half)).toBeGreaterThan(0.85);
    expect(width / (2 * half)).toBeLessThan(1.5);
  });

  it('collapses to a point when every unit is the same, and is reproducible from its seed', () => {
    const same: Array<readonly number[]> = Array.from({ length: 50 }, () => [1, 1, 1]);
    expect(bootstrapInterval(same, taskMeans, defaultBootstrap, resampleTrials)).toEqual({ estimate: 1, low: 1, high: 1 });
    const random = createRandom(3);
    const mixed: Array<readonly number[]> = Array.from({ length: 30 }, () => [random(), random()]);
    const first = bootstrapInterval(mixed, taskMeans, defaultBootstrap, resampleTrials);
    expect(bootstrapInterval(mixed, taskMeans, defaultBootstrap, resampleTrials)).toEqual(first);
    expect(bootstrapInterval(mixed, taskMeans, { ...defaultBootstrap, seed: 2 }, resampleTrials)).not.toEqual(first);
    expect(first.low).toBeLessThan(first.estimate);
    expect(first.high).toBeGreaterThan(first.estimate);
  });

  it("meanOfTaskMeans is the mean of the tasks' means of their picked values, bit for bit, tasks without one left out", () => {
    const random = createRandom(7);
    for (let round = 0; round < 500; round += 1) {
      // Tasks of 0-5 trials, a value left out now and then, values of every magnitude.
      const units = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
        Array.from({ length: Math.floor(random() * 6) }, () => (random() < 0.2 ? undefined : (random() - 0.3) * 10 ** Math.floor(random() * 6))),
      );
      const picked = units.map((unit) => unit.filter((value): value is number => value !== undefined)).filter((unit) => unit.length > 0);
      const expected = mean(picked.map((unit) => mean(unit)));
      expect(
        Object.is(
          meanOfTaskMeans(units, (value) => value),
          expected,
        ),
      ).toBe(true);
    }
    expect(meanOfTaskMeans([[undefined], []], (value: number | undefined) => value)).toBeNaN();
  });

  it('reports no interval for no data', () => {
    const empty = bootstrapInterval([] as number[][], taskMeans);
    expect(Number.isNaN(empty.estimate) && Number.isNaN(empty.low) && Number.isNaN(empty.high)).toBe(true);
  });
});

describe('pass@k, pass^k, avg@k', () => {
  it('equal their binomial definitions', () => {
    for (const [n, c, k] of [
      [5, 2, 1],
      [5, 2, 3],
      [10, 7, 4],
      [3, 3, 3],
      [3, 0, 2],
      [8, 1, 8],
    ] as const) {
      expect(passAtK(n, c, k)).toBeCloseTo(1 - choose(n - c, k) / choose(n, k), 12);
      expect(passHatK(n, c, k)).toBeCloseTo(choose(c, k) / choose(n, k), 12);
    }
    expect(Number.isNaN(passAtK(2, 1, 3))).toBe(true);
  });

  it('order pass^k <= pass@1 <= pass@k, and skip tasks without k valid trials', () => {
    const tasks = [
      { taskId: 'a', passed: [true, true, true] },
      { taskId: 'b', passed: [true, false, true] },
      { taskId: 'c', passed: [false, false, false] },
      { taskId: 'd', passed: [true, false] },
    ];
    const hat = meanAtK(tasks, 3, passHatK);
    const at = meanAtK(tasks, 3, passAtK);
    expect(hat).toBeCloseTo(1 / 3, 12);
    expect(at).toBeCloseTo(2 / 3, 12);
    expect(passAt1(tasks)).toBeCloseTo((1 + 2 / 3 + 0 + 0.5) / 4, 12);
    expect(hat).toBeLessThanOrEqual(passAt1(tasks));
    expect(passAt1(tasks)).toBeLessThanOrEqual(at);
    expect(avgAtK([0.5, 0.25, Number.NaN])).toBeCloseTo(0.375, 12);
  });

  it('describes a spread with the sample standard deviation', () => {
    const described = spread([0.5, 0.7, 0.9]);
    expect(described).toMatchObject({ n: 3, min: 0.5, max: 0.9 });
    expect(described.mean).toBeCloseTo(0.7, 12);
    expect(described.median).toBeCloseTo(0.7, 12);
    expect(spread([0.5, 0.7, 0.9]).std).toBeCloseTo(0.2, 12);
    expect(spread([0.4]).std).toBe(0);
  });
});

describe('paired comparison and the sign test', () => {
  it('computes exact sign-test tails', () => {
    expect(signTest(0, 0, 4).pValue).toBe(1);
    expect(signTest(5, 0).pValue).toBeCloseTo(2 / 32, 12);
    expect(signTest(8, 2).pValue).toBeCloseTo((2 * (1 + 10 + 45)) / 1024, 12);
    expect(signTest(600, 400).pValue).toBeLessThan(1e-9);
    expect(signTest(500, 500).pValue).toBe(1);
  });

  const metric = { statistic: taskMeans, perTask: (trials: readonly number[]) => taskMeans([trials]) };

  it('separates a clearly better side and says so only then', () => {
    const units = Array.from({ length: 60 }, (_, index) => ({
      taskId: `t${index}`,
      a: [1, 1, index % 5 === 0 ? 0 : 1],
      b: [index % 2, 0, index % 3 === 0 ? 1 : 0],
    }));
    const comparison = comparePaired(units, metric);
    expect(comparison.verdict).toBe('a_better');
    expect(comparison.difference.low).toBeGreaterThan(0);
    expect(comparison.signTest.wins).toBeGreaterThan(comparison.signTest.losses);
    expect(describeComparison('A', 'B', 'pass@1', comparison)).toMatch(/^A beats B on pass@1: \+0\.\d{3} \[\+0\.\d{3}, \+0\.\d{3}\]/);
    const reversed = comparePaired(
      units.map((unit) => ({ ...unit, a: unit.b, b: unit.a })),
      metric,
    );
    expect(reversed.verdict).toBe('b_better');
  });

  it('does not separate identical sides', () => {
    const units = Array.from({ length: 40 }, (_, index) => ({ taskId: `t${index}`, a: [index % 2, 1], b: [index % 2, 1] }));
    const comparison = comparePaired(units, metric);
    expect(comparison.difference).toEqual({ estimate: 0, low: 0, high: 0 });
    expect(comparison.verdict).toBe('no_difference');
    expect(comparison.signTest).toMatchObject({ wins: 0, losses: 0, ties: 40, pValue: 1 });
    expect(describeComparison('A', 'B', 'pass@1', comparison)).toContain('no difference beyond noise');
  });
});
