// The regression gate: a candidate cell fails when it is worse than the baseline beyond noise
// AND beyond the allowed drop (the upper end of the paired interval of candidate - baseline is
// below 0, and the estimated drop exceeds --max-drop), or when its pass@1 is under the floor.
// A drop inside the interval (a seed change, sampling noise) passes; so does a drop that is
// certain but smaller than the tolerance.
import { defaultBootstrap, type BootstrapSettings } from './bootstrap.js';
import type { CellResults } from './batch-results.js';
import { summarizeCell } from './cell-summary.js';
import { comparePaired, type PairedComparison } from './paired.js';
import { pairedMetric, pairUnits, type CompareMetric } from './paired-cells.js';

export interface GateRules {
  metric: CompareMetric;
  maxDrop: number;
  minPassRate?: number;
}

export interface GateResult {
  passed: boolean;
  reasons: string[];
  metric: CompareMetric;
  comparison: PairedComparison;
  candidatePassRate: number;
  baselinePassRate: number;
}

export function evaluateGate(baseline: CellResults, candidate: CellResults, rules: GateRules, settings: BootstrapSettings = defaultBootstrap): GateResult {
  // A = candidate, B = baseline: a negative difference is a drop.
  const comparison = comparePaired(pairUnits(candidate, baseline), pairedMetric(rules.metric), settings);
  const reasons: string[] = [];
  const { difference } = comparison;
  if (comparison.tasks === 0) reasons.push('no task has a valid trial in both runs');
  else if (difference.high < 0 && -difference.estimate > rules.maxDrop) {
    reasons.push(
      `${rules.metric} dropped by ${(-difference.estimate).toFixed(3)} (> max drop ${rules.maxDrop}); the ${Math.round(settings.level * 100)}% CI of the change [${difference.low.toFixed(3)}, ${difference.high.toFixed(3)}] excludes 0`,
    );
  }
  const candidatePassRate = summarizeCell(candidate, settings).passAt1.estimate;
  const baselinePassRate = summarizeCell(baseline, settings).passAt1.estimate;
  if (rules.minPassRate !== undefined && !(candidatePassRate >= rules.minPassRate)) {
    reasons.push(`pass@1 ${Number.isFinite(candidatePassRate) ? candidatePassRate.toFixed(3) : 'n/a'} is under the floor ${rules.minPassRate}`);
  }
  return { passed: reasons.length === 0, reasons, metric: rules.metric, comparison, candidatePassRate, baselinePassRate };
}
