// The console summary (same labels, widths and number formats as the reference's),
// extended with coverage, the corrected metrics and cache statistics, and the one-line JSON
// summary the CLI prints on stdout.
import type { CacheStats } from '../embed/cache.js';
import type { EmbedderRecord } from '../embed/types.js';
import { worstTypes } from './aggregate.js';
import type { StepEvaluation } from './evaluate.js';
import { formatPercent } from '../../core/number-format.js';

const LABEL_WIDTH = 20;

const percentRows: Array<
  [key: 'recall' | 'precision' | 'avg_sim_all_cov' | 'avg_sim_strong_cov' | 'step_coherence_cov' | 'merge_purity_cov' | 'order_consistency_cov', label: string]
> = [
  ['recall', 'Recall'],
  ['precision', 'Precision'],
  ['avg_sim_all_cov', 'Avg Sim All'],
  ['avg_sim_strong_cov', 'Avg Sim Strong'],
  ['step_coherence_cov', 'Step Coherence'],
  ['merge_purity_cov', 'Merge Purity'],
  ['order_consistency_cov', 'Order Consistency'],
];

const column = { digits: 2, width: 6 };

function fixed(value: number): string {
  return value.toFixed(2).padStart(6);
}

function row(label: string, value: string): string {
  return `${label.padEnd(LABEL_WIDTH)} : ${value}`;
}

export function formatConsoleSummary(evaluation: StepEvaluation, outputDir: string, cache?: CacheStats, embedder?: EmbedderRecord): string {
  const { aggregate } = evaluation;
  const lines = [row('Output Dir', outputDir), row('Num Ids', String(aggregate.num_ids)), ''];
  for (const [key, label] of percentRows) lines.push(row(label, formatPercent(aggregate[key], column)));
  lines.push(row('Avg Rounds', fixed(aggregate.avg_Rounds)));
  lines.push(row('Avg Tool Calls', fixed(aggregate.avg_tool_calls)));
  lines.push('');
  const groups: Array<['step_coherence_cov' | 'order_consistency_cov' | 'merge_purity_cov', string]> = [
    ['step_coherence_cov', 'Step Coherence'],
    ['order_consistency_cov', 'Order Consistency'],
    ['merge_purity_cov', 'Merge Purity'],
  ];
  for (const [key, label] of groups) {
    lines.push(`${`Top N Types - ${label}`.padEnd(LABEL_WIDTH)} :`);
    for (const summary of worstTypes(evaluation.perType, key)) lines.push(`  ${summary.type.padEnd(LABEL_WIDTH - 2)} : ${formatPercent(summary[key], column)}`);
  }
  const { coverage, corrected } = aggregate;
  lines.push('');
  lines.push(row('Mode', aggregate.mode));
  lines.push(
    row(
      'Arithmetic',
      aggregate.mode === 'reference-compat'
        ? 'float32 similarities, SciPy assignment ties (as the reference)'
        : 'float64 similarities, deterministic assignment ties',
    ),
  );
  lines.push(
    row(
      'Tie rule changed',
      `${corrected.tie_break_changed_ids.length} task(s)${corrected.tie_break_changed_ids.length ? `: ${corrected.tie_break_changed_ids.slice(0, 10).join(', ')}${corrected.tie_break_changed_ids.length > 10 ? ', ...' : ''}` : ''}`,
    ),
  );
  lines.push(
    row(
      'Coverage',
      `${formatPercent(coverage.coverage, column)} (${coverage.evaluated_ids}/${coverage.gt_ids} GT ids; ${coverage.missing_ids.length} missing, ${coverage.extra_ids.length} extra)`,
    ),
  );
  const infra = aggregate.infra_failures;
  lines.push(
    row(
      'Infra failures',
      infra.count ? `${infra.count} task(s) not scored: ${infra.ids.slice(0, 10).join(', ')}${infra.count > 10 ? ', ...' : ''}` : 'none recorded',
    ),
  );
  lines.push(row('Order Consist. fixed', formatPercent(corrected.order_consistency_fixed, column)));
  lines.push(row('Recall (success)', formatPercent(corrected.recall_success, column)));
  lines.push(row('Recall (all ids)', formatPercent(corrected.recall_all_ids, column)));
  lines.push(row('Precision (all ids)', formatPercent(corrected.precision_all_ids, column)));
  if (embedder)
    lines.push(
      row('Encoder', `${embedder.id}${embedder.paper_encoder ? " (the paper's)" : " - NOT the paper's encoder; numbers are not comparable with the paper"}`),
    );
  if (cache)
    lines.push(
      row(
        'Embedding cache',
        `${cache.hits} hits, ${cache.misses} misses${cache.rejected ? `, ${cache.rejected} rejected` : ''}${cache.file ? ` (${cache.file})` : ''}`,
      ),
    );
  return `${lines.join('\n')}\n`;
}

/** Single-line machine-readable summary for stdout. */
export function formatJsonSummary(
  evaluation: StepEvaluation,
  extras: { outputDir: string; embedder: string; cache?: CacheStats; record?: EmbedderRecord },
): string {
  const { aggregate } = evaluation;
  const summary = {
    output_dir: extras.outputDir,
    mode: aggregate.mode,
    embedder: extras.embedder,
    ...(extras.record ? { paper_encoder: extras.record.paper_encoder, ...(extras.record.note ? { encoder_note: extras.record.note } : {}) } : {}),
    num_ids: aggregate.num_ids,
    recall: aggregate.recall,
    precision: aggregate.precision,
    avg_sim_all_cov: aggregate.avg_sim_all_cov,
    avg_sim_strong_cov: aggregate.avg_sim_strong_cov,
    step_coherence_cov: aggregate.step_coherence_cov,
    order_consistency_cov: aggregate.order_consistency_cov,
    merge_purity_cov: aggregate.merge_purity_cov,
    avg_Rounds: aggregate.avg_Rounds,
    avg_tool_calls: aggregate.avg_tool_calls,
    coverage: aggregate.coverage.coverage,
    infra_failures: aggregate.infra_failures.count,
    corrected: aggregate.corrected,
    ...(extras.cache ? { cache: { hits: extras.cache.hits, misses: extras.cache.misses } } : {}),
  };
  return `${JSON.stringify(summary)}\n`;
}
