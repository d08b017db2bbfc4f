// The step-level leaderboard as plain rows, plus its two side CSVs.
// "Average score" is the NaN-skipping mean of six step metrics and information grounding,
// exactly as the reference computes it (task completion is not part of it). Each row also
// carries the corrected metrics shown beside the reference keys in the tables (never in the CSV,
// whose columns are the reference's).
import { meanSkippingMissing } from '../eval/final/scores.js';
import type { ModelResults } from './load-results.js';
import { csvText } from '../core/csv.js';

export const leaderboardStepMetrics = ['recall', 'precision', 'avg_sim_all_cov', 'step_coherence_cov', 'order_consistency_cov', 'merge_purity_cov'] as const;

/** Every per-metric series the grouped chart shows (avg_sim_strong_cov is shown, not averaged). */
export const allStepMetrics = [
  'recall',
  'precision',
  'avg_sim_all_cov',
  'avg_sim_strong_cov',
  'step_coherence_cov',
  'order_consistency_cov',
  'merge_purity_cov',
] as const;

/** @internal Exported for its tests. */
export const stepCsvColumns = ['model', ...leaderboardStepMetrics, 'completion_rate', 'information_grounding_rate', '_path', 'Average score'] as const;

const roundsCsvColumns = ['model', 'avg_Rounds', 'avg_tool_calls'] as const;

export interface LeaderboardRow {
  /** The results folder name. */
  model: string;
  display: string;
  metrics: Record<(typeof allStepMetrics)[number], number>;
  completion_rate: number;
  information_grounding_rate: number;
  average: number;
  avg_Rounds: number;
  avg_tool_calls: number;
  path: string;
  corrected: { order_consistency_fixed: number; recall_success: number; coverage: number };
  infraFailures: number;
  /** The similarity encoder, and whether it is the paper's. */
  encoder: string;
  paperEncoder: boolean;
}

const fixedDisplayNames: Record<string, string> = {
  'gpt-5': 'GPT-5',
  'gpt-5-mini': 'GPT-5 Mini',
  'gpt-5-nano': 'GPT-5 Nano',
  'claude-haiku-4-5': 'Claude 4.5 Haiku',
  'claude-sonnet-4-5': 'Claude 4.5 Sonnet',
  'grok-4-fast-reasoning': 'Grok-4 Fast',
  'grok-4-0709': 'Grok 4 (0709)',
  'Qwen2.5-VL-72B-Instruct': 'Qwen2.5-VL-72B',
  'internvl3.5-latest': 'InternVL 3.5',
  'Llama-4-Scout-17B-16E-Instruct': 'Llama-4-Scout-17B16E',
  'gemini-2.5-pro': 'Gemini 2.5 Pro',
  'gemini-2.5-flash': 'Gemini 2.5 Flash',
};

/**
 * The two replay agents are not models: the oracle replays the ground truth and the noisy agent
 * replays a seeded perturbation of it (src/llm/replay/driver.ts). Matched on the model id or its
 * result-file label, also with a trial or condition suffix (`replay-gt.trial-2`).
 */
const syntheticAgents = [
  { model: 'replay:gt', label: 'replay-gt', short: 'oracle', kind: 'oracle: the ground truth replayed' },
  { model: 'replay:noisy', label: 'replay-noisy', short: 'synthetic', kind: 'synthetic noisy agent, not a model' },
] as const;

function syntheticAgentOf(labelOrModel: string): (typeof syntheticAgents)[number] | undefined {
  const name = labelOrModel.trim();
  const starts = (stem: string) => name === stem || name.startsWith(`${stem}.`) || name.startsWith(`${stem}?`) || name.startsWith(`${stem}_`);
  return syntheticAgents.find((agent) => starts(agent.model) || starts(agent.label));
}

/** What a synthetic agent is ("oracle: …"), or undefined for a real model. */
export function syntheticAgentKind(labelOrModel: string): string | undefined {
  return syntheticAgentOf(labelOrModel)?.kind;
}

/** A terminal-width tag: `replay-gt (oracle)`, `replay-noisy (synthetic)`; real models as they are. */
export function taggedAgent(labelOrModel: string): string {
  const agent = syntheticAgentOf(labelOrModel);
  return agent ? `${labelOrModel} (${agent.short})` : labelOrModel;
}

/** The name with its synthetic-agent kind in brackets when it is one: `replay-gt [oracle: …]`. */
export function labelledAgent(labelOrModel: string): string {
  const kind = syntheticAgentKind(labelOrModel);
  return kind ? `${labelOrModel} [${kind}]` : labelOrModel;
}

/**
 * Reference display names; otherwise hyphens → spaces, words capitalised, gpt/glm upper-cased.
 * Synthetic agents keep their name and say what they are.
 */
export function displayName(model: string): string {
  if (syntheticAgentKind(model)) return labelledAgent(model.trim());
  const normalised = model
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/^(["'])(.*)\1$/, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  const fixed = fixedDisplayNames[normalised];
  if (fixed) return fixed;
  return normalised
    .split('-')
    .filter((word) => word !== '')
    .map((word) => (['gpt', 'glm'].includes(word.toLowerCase()) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(' ');
}

function metric(record: Record<string, number> | undefined, key: string): number {
  const value = record?.[key];
  return typeof value === 'number' ? value : Number.NaN;
}

function toLeaderboardRow(results: ModelResults): LeaderboardRow {
  const step = results.step?.aggregate;
  const judged = results.taskCompletion?.aggregate;
  const metrics = Object.fromEntries(allStepMetrics.map((name) => [name, metric(step, name)])) as LeaderboardRow['metrics'];
  const grounding = metric(judged, 'information_grounding_rate');
  return {
    model: results.model,
    display: displayName(results.model),
    metrics,
    completion_rate: metric(judged, 'completion_rate'),
    information_grounding_rate: grounding,
    average: meanSkippingMissing([...leaderboardStepMetrics.map((name) => metrics[name]), grounding]),
    avg_Rounds: metric(step, 'avg_Rounds'),
    avg_tool_calls: metric(step, 'avg_tool_calls'),
    path: results.step?.path ?? '',
    corrected: {
      order_consistency_fixed: metric(step, 'corrected.order_consistency_fixed'),
      recall_success: metric(step, 'corrected.recall_success'),
      coverage: metric(step, 'coverage.coverage'),
    },
    infraFailures: results.step?.infraFailureIds.length ?? 0,
    encoder: results.step?.encoder?.id ?? 'unknown',
    paperEncoder: results.step?.encoder?.paperEncoder ?? false,
  };
}

/** Rows of models with step results, sorted by Average score ascending (NaN last), as the CSV is. */
export function buildLeaderboard(models: readonly ModelResults[]): LeaderboardRow[] {
  return models
    .filter((results) => results.step !== undefined)
    .map(toLeaderboardRow)
    .sort((a, b) => {
      if (Number.isNaN(a.average) || Number.isNaN(b.average)) return Number(Number.isNaN(a.average)) - Number(Number.isNaN(b.average));
      return a.average - b.average || a.model.localeCompare(b.model);
    });
}

function csvCell(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return value;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return csvText([header, ...rows.map((row) => row.map(csvCell))]);
}

export function stepEvalCsv(rows: readonly LeaderboardRow[]): string {
  return toCsv(
    stepCsvColumns,
    rows.map((row) => [
      row.display,
      ...leaderboardStepMetrics.map((name) => row.metrics[name]),
      row.completion_rate,
      row.information_grounding_rate,
      row.path,
      row.average,
    ]),
  );
}

export function roundsCsv(rows: readonly LeaderboardRow[]): string {
  return toCsv(
    roundsCsvColumns,
    rows.map((row) => [row.display, row.avg_Rounds, row.avg_tool_calls]),
  );
}
