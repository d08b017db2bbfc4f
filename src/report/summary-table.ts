// The closing summary of a benchmark run: one line per model with the headline numbers of each
// evaluation layer, then where everything was written. Plain text for terminals and CI logs.
// Corrected metrics (marked *) stand beside the reference keys, never instead of them.
import { syntheticAgentKind, taggedAgent } from './leaderboard.js';
import type { ModelResults } from './load-results.js';
import { trialOfLabel } from '../results/layout.js';
import { formatPercent } from '../core/number-format.js';

/** A table column: ` 12.5%`, or a dash for a missing value. */
const column = { width: 5, missing: '   -  ' };

function callSuccess(results: ModelResults): number | undefined {
  const calls = results.calls;
  if (!calls) return undefined;
  const total = calls.success + calls.unknown_tool + calls.invalid_arguments + calls.resource_not_found;
  return total === 0 ? undefined : calls.success / total;
}

const summaryLegend =
  'each row is one prediction file: one trial (a --trials k run has one row per trial, <label>.trial-<t>; trial = which one; the batch table pools all trials); tasks, not episodes; recall, precis = recall (calls) and precision (calls): pooled over all GT / predicted calls of the run (results_eval.json aggregate; the trials table below gives recall (task mean)); * corrected (m3bench): ordFix* scores single-step GT tasks by recall instead of 0, recSuc* does not count matches whose call errored; cover = GT ids with a prediction; infra = tasks left out as infrastructure failures; percR/VRA = CV metrics; mocked = calls answered by the tool fallback layer / all calls; plchld = tasks run on placeholder images / tasks (n/a: no prediction file beside the outputs)';

/** Mocked calls and placeholder-image tasks of a model's predictions (src/report/fallback-share.ts). */
export interface SummaryShares {
  mockedCalls: number;
  calls: number;
  placeholderTasks: number;
  tasks: number;
}

const fraction = (part: number, whole: number, width: number) => `${part}/${whole}`.padStart(width);

function shareCells(share: SummaryShares | undefined): string[] {
  if (!share) return ['n/a'.padStart(10), 'n/a'.padStart(7)];
  return [fraction(share.mockedCalls, share.calls, 10), fraction(share.placeholderTasks, share.tasks, 7)];
}

export function formatSummaryTable(models: readonly ModelResults[], shares: ReadonlyMap<string, SummaryShares> = new Map()): string {
  const nameWidth = Math.max(24, ...models.map((results) => taggedAgent(results.model).length));
  const header = [
    'model'.padEnd(nameWidth),
    'trial',
    'recall',
    'precis',
    'simAll',
    'stepCo',
    'order ',
    'ordFix*',
    'merge ',
    'recSuc*',
    'cover ',
    'infra',
    'calls ok',
    'TC    ',
    'IG    ',
    'proxyF1',
    'percR ',
    'VRA   ',
    'mocked    ',
    'plchld ',
  ].join(' ');
  const rows = models.map((results) => {
    const step = results.step?.aggregate ?? {};
    const tc = results.taskCompletion?.aggregate ?? {};
    const cv = results.cv?.aggregate ?? {};
    return [
      taggedAgent(results.model).padEnd(nameWidth),
      String(trialOfLabel(results.model)).padStart(5),
      formatPercent(step.recall, column),
      formatPercent(step.precision, column),
      formatPercent(step.avg_sim_all_cov, column),
      formatPercent(step.step_coherence_cov, column),
      formatPercent(step.order_consistency_cov, column),
      `${formatPercent(step['corrected.order_consistency_fixed'], column)} `,
      formatPercent(step.merge_purity_cov, column),
      `${formatPercent(step['corrected.recall_success'], column)} `,
      formatPercent(step['coverage.coverage'], column),
      String(results.step?.infraFailureIds.length ?? '-').padStart(5),
      `${formatPercent(callSuccess(results), column)}  `,
      formatPercent(tc.completion_rate, column),
      formatPercent(tc.information_grounding_rate, column),
      `${formatPercent(results.proxy?.aggregate.token_f1, column)} `,
      formatPercent(cv.perception_recall_avg, column),
      formatPercent(cv.visual_reasoning_ability, column),
      ...shareCells(shares.get(results.model)),
    ].join(' ');
  });
  const encoders = models.flatMap((results) =>
    results.step?.encoder && !results.step.encoder.paperEncoder ? [`${results.model}: ${results.step.encoder.id}`] : [],
  );
  const warning =
    encoders.length > 0 ? [`step similarities NOT from the paper's encoder (sentence-transformers/all-MiniLM-L6-v2) for ${encoders.join(', ')}`] : [];
  const synthetic = models.flatMap((results) => {
    const kind = syntheticAgentKind(results.model);
    return kind ? [`${results.model} = ${kind}`] : [];
  });
  const agents = synthetic.length > 0 ? [`synthetic agents (their numbers are checks of the harness, not model results): ${synthetic.join('; ')}`] : [];
  return [header, ...rows, summaryLegend, ...agents, ...warning].join('\n');
}
