// A small results tree for report tests: three models with different subsets of outputs,
// and a GT file with tiers. Written into a fresh temp dir per test file.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ResultsFixture {
  root: string;
  resultsDir: string;
  saveDir: string;
  gtFile: string;
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

export const stepAggregates = {
  'gpt-5-mini': {
    recall: 0.9,
    precision: 0.8,
    avg_sim_all_cov: 0.7,
    avg_sim_strong_cov: 0.65,
    step_coherence_cov: 0.6,
    order_consistency_cov: 0.5,
    merge_purity_cov: 0.4,
    avg_Rounds: 2.5,
    avg_tool_calls: 6,
  },
  'glm-4.5v': {
    recall: 0.2,
    precision: 0.1,
    avg_sim_all_cov: null,
    avg_sim_strong_cov: 0.05,
    step_coherence_cov: 0.3,
    order_consistency_cov: 0.2,
    merge_purity_cov: 0.1,
    avg_Rounds: 4,
    avg_tool_calls: 2.25,
  },
} as const;

export function createResultsFixture(): ResultsFixture {
  const root = mkdtempSync(path.join(os.tmpdir(), 'm3-report-'));
  const resultsDir = path.join(root, 'results');
  const gtFile = path.join(root, 'gt.json');
  writeJson(gtFile, [
    { id: 'a1', tier: 'basic', question: 'q', steps: [], final_reply: '' },
    { id: 'a2', tier: 'basic', question: 'q', steps: [], final_reply: '' },
    { id: 'b1', tier: 'chain', question: 'q', steps: [], final_reply: '' },
  ]);
  writeJson(path.join(resultsDir, 'gpt-5-mini', 'results_eval.json'), {
    aggregate: { num_ids: 3, ...stepAggregates['gpt-5-mini'] },
    per_id: [
      { id: 'a1', recall: 1, precision: 1 },
      { id: 'a2', recall: 0.5, precision: 0.25 },
      { id: 'b1', recall: 0, precision: 0 },
    ],
  });
  writeJson(path.join(resultsDir, 'gpt-5-mini', 'taskcompletion.json'), {
    aggregate: {
      num_total: 3,
      num_scored: 2,
      completion_rate: 0.75,
      information_grounding_rate: 0.6,
      completion_rate_all: 0.5,
      information_grounding_rate_all: 0.4,
    },
    pre_id: {
      a1: { final: 0.9, judges: [{ name: 'openai:j', score: 0.9 }], info_grounding: { final: 0.8, judges: [] } },
      b1: { final: 0.6, judges: [], info_grounding: { final: 0.4, judges: [] } },
    },
  });
  writeJson(path.join(resultsDir, 'gpt-5-mini', 'callanalysis.json'), {
    illegal_calling: 1,
    unknown_tool: 2,
    invalid_arguments: 3,
    resource_not_found: 5,
    success: 10,
    unclassified: 1,
    totals: { tasks: 3, calls: 21 },
  });
  writeJson(path.join(resultsDir, 'gpt-5-mini', 'final_proxy.json'), {
    kind: 'proxy',
    aggregate: { num_total: 3, num_scored: 3, token_f1: 0.42, rouge_l: 0.38, number_recall: 0.5, entity_recall: null },
    per_id: { a1: { token_f1: 0.5, rouge_l: 0.5, number_recall: null, entity_recall: null } },
  });
  // A reference-style model: step results and the five bare call counters only.
  writeJson(path.join(resultsDir, 'glm-4.5v', 'results_eval.json'), { aggregate: { num_ids: 3, ...stepAggregates['glm-4.5v'] }, per_id: [] });
  writeJson(path.join(resultsDir, 'glm-4.5v', 'callanalysis.json'), {
    illegal_calling: 2,
    unknown_tool: 4,
    invalid_arguments: 1,
    resource_not_found: 0,
    success: 5,
  });
  // A model with proxies only.
  writeJson(path.join(resultsDir, 'local-x', 'final_proxy.json'), {
    kind: 'proxy',
    aggregate: { num_total: 3, num_scored: 1, token_f1: 0.1, rouge_l: 0.1, number_recall: null, entity_recall: 0 },
    per_id: { b1: { token_f1: 0.25, rouge_l: 0.2, number_recall: null, entity_recall: 0 } },
  });
  // Not a model: no evaluation output inside.
  mkdirSync(path.join(resultsDir, 'scratch'), { recursive: true });
  return { root, resultsDir, saveDir: path.join(root, 'save'), gtFile };
}
