// The closing summary of a benchmark run: one line per model with the headline numbers of each
// evaluation layer, then where everything was written. Plain text for terminals and CI logs.
import type { ModelResults } from './load-results.js';

function percent(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '   -  ' : `${(value * 100).toFixed(1).padStart(5)}%`;
}

function callSuccess(results: ModelResults): number | undefined {
  const calls = results.calls;
  if (!calls) return undefined;
  const total = calls.success + calls.unknown_tool + calls.invalid_arguments + calls.resource_not_found;
  return total === 0 ? undefined : calls.success / total;
}

export function formatSummaryTable(models: readonly ModelResults[]): string {
  const header = ['model'.padEnd(24), 'recall', 'precis', 'simAll', 'stepCo', 'order ', 'merge ', 'calls ok', 'TC    ', 'IG    ', 'proxyF1'].join(' ');
  const rows = models.map((results) => {
    const step = results.step?.aggregate ?? {};
    const tc = results.taskCompletion?.aggregate ?? {};
    return [
      results.model.slice(0, 24).padEnd(24),
      percent(step.recall),
      percent(step.precision),
      percent(step.avg_sim_all_cov),
      percent(step.step_coherence_cov),
      percent(step.order_consistency_cov),
      percent(step.merge_purity_cov),
      `${percent(callSuccess(results))}  `,
      percent(tc.completion_rate),
      percent(tc.information_grounding_rate),
      percent(results.proxy?.aggregate.token_f1),
    ].join(' ');
  });
  return [header, ...rows].join('\n');
}
