// One task of a run for the viewer: the question (as asked and in the GT) with the task images
// as sent, the task's success under the one success rule with each check's result and reason,
// the transcript (model requests with their attempts and the request as the model received it,
// tool calls with their fallback tier and images), the ground-truth alignment from the step
// evaluator's output with each GT call's best candidate, and the final answer next to the GT
// reply with the judge and proxy scores.
import { runFolderOfStoredRun } from '../results/run-folder-of.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { paidCostOfReply } from '../llm/pricing.js';
import { episodesForRun, modelCallsForEpisode, toolCallsForEpisode, type EpisodeRow, type RunRow } from '../store/index.js';
import { loadGroundTruth } from '../tasks/load.js';
import type { GtTask } from '../tasks/schemas.js';
import { HttpError } from '../web/http-kit.js';
import { alignTask, type Alignment } from './alignment.js';
import { finalScoresOf, readFinalScores } from './final-scores.js';
import { evalLabel, latestEpisodes, runOf, type ViewSources } from './pages.js';
import { summarizeRequest } from './request-summary.js';
import { readStepResults } from './step-results.js';
import { fuzzyTaskOf, taskSuccessOf } from './task-success.js';
import { toolImagePaths } from './tool-images.js';

function gtTaskOf(run: RunRow, taskId: string): GtTask | { missing: string } {
  if (!run.gtFile) return { missing: 'the run recorded no ground-truth file' };
  if (!existsSync(run.gtFile)) return { missing: `the run's ground-truth file ${path.basename(run.gtFile)} is no longer there` };
  const task = loadGroundTruth(run.gtFile).find((entry) => entry.id === taskId);
  return task ?? { missing: `task ${taskId} is not in the run's ground-truth file` };
}

function alignmentOf(sources: ViewSources, run: RunRow, episode: EpisodeRow, gtTask: GtTask | { missing: string }): Alignment | { missing: string } {
  const label = evalLabel(run, episode.trial);
  const step = readStepResults(runFolderOfStoredRun(sources.resultsDir, run), label);
  if (!('found' in step)) return { missing: step.missing };
  const score = step.found.perId.get(episode.taskId);
  if (!score) return { missing: `task ${episode.taskId} is not in the step evaluation of ${label}` };
  if ('missing' in gtTask) return { missing: String(gtTask.missing) };
  return alignTask(gtTask, episode.prediction, score, step.found);
}

/** The task's latest attempt in `trial`, or a 404 naming what is missing. */
export function episodeOf(sources: ViewSources, runId: string, taskId: string, trial: number): EpisodeRow {
  runOf(sources, runId);
  const episode = latestEpisodes(episodesForRun(sources.store, runId, { taskId })).find((entry) => entry.trial === trial);
  if (!episode) throw new HttpError(404, `run ${runId} has no episode for task "${taskId}" in trial ${trial}`, 'unknown_task');
  return episode;
}

type ModelCallRow = ReturnType<typeof modelCallsForEpisode>[number];

/** The task images of the episode's first request, as the driver delivered them. */
export function taskImagesOf(modelCalls: readonly ModelCallRow[]) {
  return (modelCalls[0]?.images ?? []).filter((image) => image.origin === 'task');
}

/**
 * Each request with what the model received (messages, tools offered, images) and what it paid:
 * the cost the run recorded (migration 019: batch replies at the batch price, cache-served ones
 * $0), or for an older row the same computation at the default table.
 */
function requestsOf(run: RunRow, modelCalls: readonly ModelCallRow[]) {
  return modelCalls.map((call) => {
    const { request, ...rest } = call;
    const cost = call.costUsd ?? paidCostOfReply(run.modelSpec, call.usage, call.billing)?.paidUsd ?? null;
    return { ...rest, request: summarizeRequest(request), costUsd: cost };
  });
}

function stepScoreOf(sources: ViewSources, run: RunRow, episode: EpisodeRow) {
  const step = readStepResults(runFolderOfStoredRun(sources.resultsDir, run), evalLabel(run, episode.trial));
  return 'found' in step ? step.found.perId.get(episode.taskId) : undefined;
}

/** The task's latest attempt in `trial` (default: trial 1). */
export function taskPage(sources: ViewSources, runId: string, taskId: string, trial = 1) {
  const run = runOf(sources, runId);
  const episode = episodeOf(sources, runId, taskId, trial);
  const modelCalls = modelCallsForEpisode(sources.store, episode.id);
  const tools = toolCallsForEpisode(sources.store, episode.id).map((call) => ({
    ...call,
    imageCount: toolImagePaths(call.resultText, call.images.length).length,
  }));
  const gtTask = gtTaskOf(run, taskId);
  const fuzzyTask = fuzzyTaskOf(run, taskId);
  const gt = 'missing' in gtTask ? undefined : gtTask;
  const score = stepScoreOf(sources, run, episode);
  const evalDir = path.join(runFolderOfStoredRun(sources.resultsDir, run), evalLabel(run, episode.trial));
  return {
    run: { runId: run.runId, model: run.modelLabel, status: run.status },
    episode,
    // What the body below shows, so a live page's header never lags its transcript.
    shown: {
      rounds: new Set([...modelCalls.map((call) => call.round), ...tools.map((call) => call.round)]).size,
      toolCalls: tools.length,
      modelCalls: modelCalls.length,
    },
    question: {
      asked: fuzzyTask?.question ?? episode.prediction?.question ?? null,
      gt: gt?.question ?? null,
      gtMissing: gt ? null : (gtTask as { missing: string }).missing,
    },
    taskImages: taskImagesOf(modelCalls),
    success: taskSuccessOf({ run, episode, gtTask: gt, fuzzyTask, step: score ? { recall: score.recall, precision: score.precision } : undefined, evalDir }),
    modelCalls: requestsOf(run, modelCalls),
    toolCalls: tools,
    alignment: alignmentOf(sources, run, episode, gtTask),
    final: {
      answer: episode.prediction?.final_reply ?? null,
      gtReply: 'missing' in gtTask ? null : gtTask.final_reply,
      gtMissing: 'missing' in gtTask ? gtTask.missing : null,
      ...finalScoresOf(readFinalScores(runFolderOfStoredRun(sources.resultsDir, run), evalLabel(run, episode.trial)), taskId),
    },
  };
}
