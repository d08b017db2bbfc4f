// What the runs, run and compare pages show, read from the run store (read-only), the step
// evaluator's outputs and the batch manifests: every run with its totals, intervals, mocked
// share and progress; a run's task table with the facets it is filtered on; two runs on their
// shared tasks with the paired difference. The task page is in task-page.ts.
import { runFolderOfStoredRun } from '../results/run-folder-of.js';
import { modelResponsesOf } from '../results/mocked-share.js';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { serverOf } from '../core/canonical-name.js';
import { trialLabel } from '../runner/conditions.js';
import { episodesForRun, fallbackShare, getRun, listRuns, runSummary, toolFacetsForRun, type EpisodeRow, type RunRow, type Store } from '../store/index.js';
import { HttpError } from '../web/http-kit.js';
import { pairedDifference, runIntervals, taskOutcomes } from './cell-stats.js';
import { finalScoresOf, readFinalScores } from './final-scores.js';
import { allGtCallsMatched } from './gt-calls-matched.js';
import type { IntervalJobs } from './interval-jobs.js';
import { readStepResults, type StepResultsLookup } from './step-results.js';

export interface ViewSources {
  store: Store;
  resultsDir: string;
  /**
   * Where the bootstrap intervals come from: the server's background jobs (a request never
   * computes them); without it (the export bundle, tests) they are computed in place.
   */
  intervals?: IntervalJobs;
}

/** The run's bootstrap intervals: from the background jobs when the sources have them, else computed now. */
function intervalsOf(sources: ViewSources, run: RunRow) {
  const runDir = runFolderOfStoredRun(sources.resultsDir, run);
  return sources.intervals ? sources.intervals.intervalsOf(runDir, run.runId) : runIntervals(runDir, run.runId);
}

export function runOf(sources: ViewSources, runId: string): RunRow {
  const run = getRun(sources.store, runId);
  if (!run) throw new HttpError(404, `no run "${runId}" in ${path.basename(sources.store.file)}`, 'unknown_run');
  return run;
}

/** Share of the run's scored tool calls the fallback layer served, and per tier. */
function mockedShare(store: Store, runId: string) {
  const shares = fallbackShare(store, runId);
  const calls = shares.reduce((sum, share) => sum + share.calls, 0);
  const mocked = shares.reduce((sum, share) => sum + share.mockedCalls, 0);
  const byTier: Record<string, number> = {};
  for (const share of shares) for (const [tier, count] of Object.entries(share.byTier)) byTier[tier] = (byTier[tier] ?? 0) + count;
  return { calls, mockedCalls: mocked, share: calls === 0 ? null : mocked / calls, byTier };
}

/** Episodes done and in flight, and the newest activity, for a run still being written. */
function progressOf(store: Store, run: RunRow, byStatus: Record<string, number>) {
  if (run.status !== 'running') return null;
  const episodes = episodesForRun(store, run.runId);
  const stamps = episodes.flatMap((episode) => [episode.startedAt, episode.finishedAt ?? '']).sort();
  const running = byStatus.running ?? 0;
  return { finished: episodes.length - running, running, lastActivityAt: stamps.at(-1) || null };
}

/** The run's totals; its bootstrap intervals unless `intervals` is false (the task table sends them apart, after its rows). */
function runHeader(sources: ViewSources, run: RunRow, intervals = true) {
  const summary = runSummary(sources.store, run.runId);
  return {
    runId: run.runId,
    model: run.modelLabel,
    modelSpec: run.modelSpec,
    condition: run.condition,
    trials: run.trials,
    batchId: run.batchId,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    tasks: summary.tasks,
    episodes: summary.episodes,
    byStatus: summary.byStatus,
    failures: summary.failures,
    usage: summary.usage,
    costUsd: summary.costUsd,
    savedUsd: summary.savedUsd,
    toolCalls: summary.toolCalls,
    modelCalls: summary.modelCalls,
    retriedModelCalls: summary.retriedModelCalls,
    mocked: mockedShare(sources.store, run.runId),
    // Model responses replayed by the model-response cache or answered by a batch job (run manifest).
    modelResponses: modelResponsesOf((run.manifest ?? {}) as Parameters<typeof modelResponsesOf>[0]),
    progress: progressOf(sources.store, run, summary.byStatus),
    intervals: intervals ? intervalsOf(sources, run) : { pending: true as const },
    toolSurface: toolSurfaceOf(run),
  };
}

/** The named tool surface from the run's manifest (runs recorded before it was named: m3bench) and its hash. */
function toolSurfaceOf(run: RunRow): { name: string; hash: string | null } {
  const recorded = (run.manifest as { toolSurface?: { name?: unknown } } | undefined)?.toolSurface?.name;
  return { name: typeof recorded === 'string' ? recorded : 'm3bench', hash: run.toolsHash ?? null };
}

function headline(lookup: StepResultsLookup) {
  if (!('found' in lookup)) return { missing: lookup.missing };
  const { recall, precision, avg_sim_all_cov: avgSim } = lookup.found.aggregate;
  return { recall, precision, avg_sim_all_cov: avgSim };
}

export function runsPage(sources: ViewSources) {
  return {
    ...runsStamp(sources),
    runs: listRuns(sources.store).map((run) => ({
      ...runHeader(sources, run),
      step: headline(readStepResults(runFolderOfStoredRun(sources.resultsDir, run), evalLabel(run, 1))),
    })),
  };
}

/**
 * A short fingerprint of the run list (ids, statuses, finish times): the runs page polls it while
 * no run is in flight, and reloads its table only when it changes (a run started elsewhere).
 */
export function runsStamp(sources: ViewSources): { stamp: string } {
  const rows = listRuns(sources.store).map((run) => `${run.runId}\t${run.status}\t${run.finishedAt ?? ''}`);
  return { stamp: createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 16) };
}

/** The latest attempt of each task and trial (the one that trial's prediction file holds). */
export function latestEpisodes(episodes: readonly EpisodeRow[]): EpisodeRow[] {
  const byTask = new Map<string, EpisodeRow>();
  for (const episode of episodes) byTask.set(`${episode.taskId}#${episode.trial}`, episode);
  return [...byTask.values()];
}

/** The results folder label of one trial's evaluation outputs (`<label>` or `<label>.trial-<t>`). */
export function evalLabel(run: RunRow, trial: number): string {
  return trialLabel(run.modelLabel, trial, run.trials);
}

/** Step and final-answer outputs of each trial of a run, read once per page. */
function trialOutputs(sources: ViewSources, run: RunRow) {
  const read = new Map<number, { step: StepResultsLookup; final: ReturnType<typeof readFinalScores> }>();
  // The run's own folder: another run of the same label has its own outputs in its own folder.
  const runDir = runFolderOfStoredRun(sources.resultsDir, run);
  return (trial: number) => {
    const found = read.get(trial) ?? {
      step: readStepResults(runDir, evalLabel(run, trial)),
      final: readFinalScores(runDir, evalLabel(run, trial)),
    };
    read.set(trial, found);
    return found;
  };
}

/** One row per task and trial (its latest attempt) with the episode it was read from. */
export function taskRowsOf(sources: ViewSources, run: RunRow) {
  const outputs = trialOutputs(sources, run);
  const facets = toolFacetsForRun(sources.store, run.runId);
  const outcomes = taskOutcomes(runFolderOfStoredRun(sources.resultsDir, run), run.runId);
  return latestEpisodes(episodesForRun(sources.store, run.runId)).map((episode) => {
    const { step, final } = outputs(episode.trial);
    const score = 'found' in step ? step.found.perId.get(episode.taskId) : undefined;
    const facet = facets.get(episode.id);
    const scores = finalScoresOf(final, episode.taskId);
    const row = {
      taskId: episode.taskId,
      trial: episode.trial,
      status: episode.status,
      failureKind: episode.failureKind,
      errorCode: episode.errorCode,
      endStatus: episode.endStatus,
      rounds: episode.rounds,
      toolCalls: episode.toolCallCount,
      tokens: episode.usage.inputTokens + episode.usage.outputTokens,
      costUsd: episode.costUsd,
      savedUsd: episode.savedUsd,
      startedAt: episode.startedAt,
      finishedAt: episode.finishedAt,
      servers: [...new Set((facet?.tools ?? []).map(serverOf))].sort(),
      tools: facet?.tools ?? [],
      uncodedToolErrors: facet?.uncodedErrors ?? 0,
      tiers: facet?.tiers ?? [],
      mockedCalls: facet?.mockedCalls ?? 0,
      toolErrorCodes: facet?.errorCodes ?? [],
      judgeScore: scores.judges?.final ?? null,
      step: score
        ? { recall: score.recall, precision: score.precision, matched: score.matched, gtCalls: score.total_gt_calls, predCalls: score.total_pred_calls }
        : null,
      // Task success by the rule `m3 eval task` applies, as the run's pass@1 counts it (null: not
      // evaluated); the step-level exact match is shown apart under its own name.
      passed: outcomes?.get(`${episode.taskId}#${episode.trial}`) ?? null,
      allGtCallsMatched: score ? allGtCallsMatched({ recall: score.recall, precision: score.precision }) : null,
    };
    return { row, episode };
  });
}

export type TaskRow = ReturnType<typeof taskRowsOf>[number]['row'];

/** The run's header with its headline step metrics. */
export function runHeadline(sources: ViewSources, run: RunRow, intervals = true) {
  return { ...runHeader(sources, run, intervals), step: headline(readStepResults(runFolderOfStoredRun(sources.resultsDir, run), evalLabel(run, 1))) };
}

/** The run's bootstrap intervals (the run page asks for them after drawing its rows). */
export function runIntervalsPage(sources: ViewSources, runId: string) {
  return intervalsOf(sources, runOf(sources, runId));
}

export function runPage(sources: ViewSources, runId: string) {
  const run = runOf(sources, runId);
  return { run: runHeadline(sources, run), tasks: taskRowsOf(sources, run).map((entry) => entry.row) };
}

export function comparePage(sources: ViewSources, aId: string, bId: string) {
  const [a, b] = [runPage(sources, aId), runPage(sources, bId)];
  // Trial t of A meets trial t of B (they share the trial's seed).
  const bByTask = new Map(b.tasks.map((task) => [`${task.taskId}#${task.trial}`, task]));
  const rows = a.tasks.flatMap((left) => {
    const right = bByTask.get(`${left.taskId}#${left.trial}`);
    if (!right) return [];
    const both = left.step && right.step;
    // Pass/fail by the success rule (src/stats/task-success.ts, the rule `m3 eval task` applies,
    // as each run's pass@1 and the paired test count it); a flip passes on one side only.
    const decided = left.passed !== null && right.passed !== null;
    const flip = decided && left.passed !== right.passed ? (right.passed ? 'fixed' : 'broken') : null;
    return [
      {
        taskId: left.taskId,
        trial: left.trial,
        a: left,
        b: right,
        recallDelta: both ? right.step!.recall - left.step!.recall : null,
        precisionDelta: both ? right.step!.precision - left.step!.precision : null,
        flip,
      },
    ];
  });
  return {
    a: a.run,
    b: b.run,
    rows,
    onlyInA: a.tasks.length - rows.length,
    onlyInB: b.tasks.length - rows.length,
    paired: pairedDifference(
      runFolderOfStoredRun(sources.resultsDir, runOf(sources, aId)),
      aId,
      runFolderOfStoredRun(sources.resultsDir, runOf(sources, bId)),
      bId,
    ),
  };
}
