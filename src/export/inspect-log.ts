// A stored run as one inspect_ai eval log (.json, log format 2): the eval spec (task file as the
// dataset, model, m3bench's git revision and package versions), one sample per task and trial
// (the last attempt, the one that counts), the scores m3bench computed and their means as the
// results, token usage as the stats. `inspect view <file>` opens it. Scores come from the run's
// evaluation outputs: task success from its batch cell (the one success rule), step metrics from
// `m3 eval step`'s results_eval.json; a run not evaluated yet exports without scores.
import path from 'node:path';
import { runFolderOfStoredRun } from '../results/run-folder-of.js';
import { trialLabel } from '../runner/conditions.js';
import type { RunRow } from '../store/index.js';
import { taskOutcomes } from '../view/cell-stats.js';
import { readStepResults } from '../view/step-results.js';
import { type SampleScores, toInspectSample } from './inspect-sample.js';
import type { EpisodeRecord, RunRecords } from './run-records.js';
import { splitModelSpec } from './run-records.js';
import { mean, sum } from '../core/number-format.js';

// inspect writes every field of these objects (null when unset); its schema requires them all.
const generateConfigFields = [
  'max_retries',
  'timeout',
  'attempt_timeout',
  'max_connections',
  'system_message',
  'max_tokens',
  'top_p',
  'temperature',
  'stop_seqs',
  'best_of',
  'frequency_penalty',
  'presence_penalty',
  'logit_bias',
  'seed',
  'top_k',
  'num_choices',
  'logprobs',
  'top_logprobs',
  'parallel_tool_calls',
  'internal_tools',
  'max_tool_output',
  'cache_prompt',
  'verbosity',
  'effort',
  'reasoning_effort',
  'reasoning_tokens',
  'reasoning_summary',
  'reasoning_history',
  'response_schema',
  'extra_headers',
  'extra_body',
  'modalities',
  'cache',
  'batch',
];
const evalConfigFields = [
  'limit',
  'sample_id',
  'sample_shuffle',
  'epochs',
  'epochs_reducer',
  'approval',
  'fail_on_error',
  'continue_on_fail',
  'retry_on_error',
  'message_limit',
  'token_limit',
  'time_limit',
  'working_limit',
  'cost_limit',
  'max_samples',
  'max_dataset_memory',
  'max_tasks',
  'max_subprocesses',
  'max_sandboxes',
  'sandbox_cleanup',
  'log_samples',
  'log_realtime',
  'log_images',
  'log_model_api',
  'log_buffer',
  'log_shared',
  'score_display',
];
const nulls = (fields: string[]) => Object.fromEntries(fields.map((field) => [field, null]));

/** Step metrics carried per sample and averaged in the results. */
const stepMetrics = ['recall', 'precision', 'avg_sim_all_cov', 'step_coherence_cov', 'order_consistency_cov'] as const;

/** inspect names models `provider/model`. */
function inspectModelName(spec: string): string {
  const { provider, model } = splitModelSpec(spec);
  return provider ? `${provider}/${model}` : model;
}

function scoresByEpisode(run: RunRow, records: EpisodeRecord[], resultsDir: string): Map<number, SampleScores> {
  const outcomes = taskOutcomes(resultsDir, run.runId);
  const runDir = runFolderOfStoredRun(resultsDir, run);
  const stepByTrial = new Map<number, ReturnType<typeof readStepResults>>();
  const scores = new Map<number, SampleScores>();
  for (const { episode } of records) {
    if (!stepByTrial.has(episode.trial)) stepByTrial.set(episode.trial, readStepResults(runDir, trialLabel(run.modelLabel, episode.trial, run.trials)));
    const step = stepByTrial.get(episode.trial);
    const perId = step && 'found' in step ? step.found.perId.get(episode.taskId) : undefined;
    const passed = outcomes?.get(`${episode.taskId}#${episode.trial}`);
    scores.set(episode.id, {
      ...(passed !== undefined ? { passed } : {}),
      ...(perId ? { step: Object.fromEntries(stepMetrics.map((name) => [name, perId[name]])) } : {}),
    });
  }
  return scores;
}

function meanScore(name: string, scorer: string, values: number[], totalSamples: number) {
  const average = mean(values);
  return {
    name,
    scorer,
    reducer: null,
    scored_samples: values.length,
    unscored_samples: totalSamples - values.length,
    params: {},
    metrics: { mean: { name: 'mean', value: average, params: {}, metadata: null } },
    metadata: null,
  };
}

function resultsOf(samples: Array<ReturnType<typeof toInspectSample>>, evaluated: Map<number, SampleScores>) {
  const all = [...evaluated.values()];
  const passed = all.flatMap((score) => (score.passed === undefined ? [] : [score.passed ? 1 : 0]));
  const scores = [];
  if (passed.length) scores.push(meanScore('success', 'm3bench_success_rule', passed, samples.length));
  for (const name of stepMetrics) {
    const values = all.flatMap((score) => (score.step?.[name] === undefined ? [] : [score.step[name] as number]));
    if (values.length) scores.push(meanScore(name, 'm3bench_step', values, samples.length));
  }
  const completed = samples.filter((sample) => sample.error === null).length;
  return { total_samples: samples.length, completed_samples: completed, early_stopping: null, scores, metadata: null };
}

function statsOf(run: RunRow, records: EpisodeRecord[], model: string) {
  const input = sum(records, (record) => record.episode.usage.inputTokens);
  const output = sum(records, (record) => record.episode.usage.outputTokens);
  const costs = records.map((record) => record.episode.costUsd);
  return {
    started_at: run.startedAt,
    completed_at: run.finishedAt ?? '',
    model_usage: {
      [model]: {
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        input_tokens_cache_write: null,
        input_tokens_cache_read: sum(records, (record) => record.episode.usage.cachedTokens),
        reasoning_tokens: null,
        total_cost: costs.every((cost) => cost !== null) ? costs.reduce((total: number, cost) => total + (cost ?? 0), 0) : null,
      },
    },
    role_usage: {},
  };
}

const statusOf = { running: 'started', finished: 'success', interrupted: 'cancelled', failed: 'error' } as const;

function specOf(run: RunRow, records: EpisodeRecord[], model: string) {
  const sampleIds = [...new Set(records.map((record) => record.episode.taskId))];
  return {
    eval_set_id: run.batchId,
    eval_id: `m3bench-${run.runId}`,
    run_id: run.runId,
    created: run.startedAt,
    task: 'm3bench',
    task_id: run.configHash ?? run.runId,
    task_version: 0,
    task_file: run.taskFile,
    task_display_name: `m3bench ${run.taskFile ? path.basename(run.taskFile) : ''}`.trim(),
    task_registry_name: null,
    task_attribs: {},
    task_args: {},
    task_args_passed: {},
    solver: 'm3bench_agent',
    solver_args: null,
    solver_args_passed: null,
    tags: [run.condition],
    dataset: {
      name: run.taskFile ? path.basename(run.taskFile) : null,
      location: run.taskFile,
      samples: sampleIds.length,
      sample_ids: sampleIds,
      shuffled: false,
    },
    sandbox: null,
    model,
    model_generate_config: nulls(generateConfigFields),
    model_base_url: null,
    model_args: {},
    model_roles: null,
    config: { ...nulls(evalConfigFields), epochs: run.trials },
    revision: run.gitCommit ? { type: 'git', origin: '', commit: run.gitCommit, dirty: null } : null,
    packages: run.packageVersions,
    metadata: { m3bench_condition: run.condition, m3bench_model_spec: run.modelSpec, m3bench_gt_file: run.gtFile, m3bench_seed: run.seed },
    scorers: null,
    metrics: null,
  };
}

/** The inspect eval log of a run (records: the last attempt of each task and trial). */
export function toInspectLog(records: RunRecords, resultsDir: string) {
  const { run } = records;
  const model = inspectModelName(run.modelSpec);
  const evaluated = scoresByEpisode(run, records.episodes, resultsDir);
  const samples = records.episodes.map((record) => toInspectSample(record, model, evaluated.get(record.episode.id) ?? {}));
  return {
    version: 2,
    status: statusOf[run.status],
    eval: specOf(run, records.episodes, model),
    plan: { name: 'plan', steps: [{ solver: 'm3bench_agent', params: {}, params_passed: {} }], finish: null, config: nulls(generateConfigFields) },
    results: resultsOf(samples, evaluated),
    stats: statsOf(run, records.episodes, model),
    error: null,
    invalidated: false,
    log_updates: null,
    tags: [],
    metadata: {},
    samples,
    reductions: null,
    etag: null,
    eval_set_info: null,
  };
}
