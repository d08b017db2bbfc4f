// What each viewer page shows, read from the run store (read-only) and the step evaluator's
// outputs: the runs list, a run's task table, one task's transcript and alignment, and the
// comparison of two runs on their shared tasks.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadGroundTruth } from '../tasks/load.js';
import type { GtTask } from '../tasks/schemas.js';
import {
  episodesForRun,
  getRun,
  listRuns,
  modelCallsForEpisode,
  runSummary,
  toolCallsForEpisode,
  type EpisodeRow,
  type RunRow,
  type Store,
} from '../store/index.js';
import { HttpError } from '../web/http-kit.js';
import { alignTask } from './alignment.js';
import { readStepResults, type StepResultsLookup } from './step-results.js';
import { toolImagePaths } from './tool-images.js';

export interface ViewSources {
  store: Store;
  resultsDir: string;
}

function runOf(sources: ViewSources, runId: string): RunRow {
  const run = getRun(sources.store, runId);
  if (!run) throw new HttpError(404, `no run "${runId}" in ${path.basename(sources.store.file)}`, 'unknown_run');
  return run;
}

function runHeader(sources: ViewSources, run: RunRow) {
  const summary = runSummary(sources.store, run.runId);
  return {
    runId: run.runId,
    model: run.modelLabel,
    modelSpec: run.modelSpec,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    tasks: summary.tasks,
    episodes: summary.episodes,
    byStatus: summary.byStatus,
    failures: summary.failures,
    usage: summary.usage,
    costUsd: summary.costUsd,
    toolCalls: summary.toolCalls,
    modelCalls: summary.modelCalls,
  };
}

function headline(lookup: StepResultsLookup) {
  if (!('found' in lookup)) return { missing: lookup.missing };
  const { recall, precision, avg_sim_all_cov: avgSim } = lookup.found.aggregate;
  return { recall, precision, avg_sim_all_cov: avgSim };
}

export function runsPage(sources: ViewSources) {
  return {
    runs: listRuns(sources.store).map((run) => ({ ...runHeader(sources, run), step: headline(readStepResults(sources.resultsDir, run.modelLabel)) })),
  };
}

/** The latest attempt of each task (the one the prediction file holds). */
function latestEpisodes(episodes: readonly EpisodeRow[]): EpisodeRow[] {
  const byTask = new Map<string, EpisodeRow>();
  for (const episode of episodes) byTask.set(episode.taskId, episode);
  return [...byTask.values()];
}

export function runPage(sources: ViewSources, runId: string) {
  const run = runOf(sources, runId);
  const step = readStepResults(sources.resultsDir, run.modelLabel);
  const tasks = latestEpisodes(episodesForRun(sources.store, runId)).map((episode) => {
    const score = 'found' in step ? step.found.perId.get(episode.taskId) : undefined;
    return {
      taskId: episode.taskId,
      status: episode.status,
      failureKind: episode.failureKind,
      errorCode: episode.errorCode,
      rounds: episode.rounds,
      toolCalls: episode.toolCallCount,
      tokens: episode.usage.inputTokens + episode.usage.outputTokens,
      startedAt: episode.startedAt,
      finishedAt: episode.finishedAt,
      step: score
        ? { recall: score.recall, precision: score.precision, matched: score.matched, gtCalls: score.total_gt_calls, predCalls: score.total_pred_calls }
        : null,
    };
  });
  return { run: { ...runHeader(sources, run), step: headline(step) }, tasks };
}

function gtTaskOf(run: RunRow, taskId: string): GtTask | { missing: string } {
  if (!run.gtFile) return { missing: 'the run recorded no ground-truth file' };
  if (!existsSync(run.gtFile)) return { missing: `the run's ground-truth file ${path.basename(run.gtFile)} is no longer there` };
  const task = loadGroundTruth(run.gtFile).find((entry) => entry.id === taskId);
  return task ?? { missing: `task ${taskId} is not in the run's ground-truth file` };
}

function alignmentOf(sources: ViewSources, run: RunRow, episode: EpisodeRow) {
  const step = readStepResults(sources.resultsDir, run.modelLabel);
  if (!('found' in step)) return { missing: step.missing };
  const score = step.found.perId.get(episode.taskId);
  if (!score) return { missing: `task ${episode.taskId} is not in the step evaluation of ${run.modelLabel}` };
  const gtTask = gtTaskOf(run, episode.taskId);
  if ('missing' in gtTask) return gtTask;
  return alignTask(gtTask, episode.prediction, score, step.found.thresholds);
}

export function taskPage(sources: ViewSources, runId: string, taskId: string) {
  const run = runOf(sources, runId);
  const episode = latestEpisodes(episodesForRun(sources.store, runId, { taskId }))[0];
  if (!episode) throw new HttpError(404, `run ${runId} has no episode for task "${taskId}"`, 'unknown_task');
  const tools = toolCallsForEpisode(sources.store, episode.id).map((call) => ({
    ...call,
    imageCount: toolImagePaths(call.resultText, call.images.length).length,
  }));
  return {
    run: { runId: run.runId, model: run.modelLabel, status: run.status },
    episode,
    modelCalls: modelCallsForEpisode(sources.store, episode.id),
    toolCalls: tools,
    alignment: alignmentOf(sources, run, episode),
  };
}

export function comparePage(sources: ViewSources, aId: string, bId: string) {
  const [a, b] = [runPage(sources, aId), runPage(sources, bId)];
  const bByTask = new Map(b.tasks.map((task) => [task.taskId, task]));
  const rows = a.tasks.flatMap((left) => {
    const right = bByTask.get(left.taskId);
    if (!right) return [];
    const recallDelta = left.step && right.step ? right.step.recall - left.step.recall : null;
    // Pass = every GT call matched when both runs were evaluated, else the episode finished ok.
    const passA = left.step && right.step ? left.step.recall === 1 : left.status === 'ok';
    const passB = left.step && right.step ? right.step.recall === 1 : right.status === 'ok';
    const flip = passA !== passB ? (passB ? 'fixed' : 'broken') : null;
    return [
      {
        taskId: left.taskId,
        a: left,
        b: right,
        recallDelta,
        precisionDelta: left.step && right.step ? right.step.precision - left.step.precision : null,
        flip,
      },
    ];
  });
  return { a: a.run, b: b.run, rows, onlyInA: a.tasks.length - rows.length, onlyInB: b.tasks.length - rows.length };
}
