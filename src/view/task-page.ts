// One task of a run for the viewer: the transcript (model requests with their attempts, tool
// calls with their fallback tier and images), the ground-truth alignment from the step
// evaluator's output, and the final answer next to the GT reply with the judge and proxy scores.
import { runFolderOfStoredRun } from '../results/run-folder-of.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { episodesForRun, modelCallsForEpisode, toolCallsForEpisode, type EpisodeRow, type RunRow } from '../store/index.js';
import { loadGroundTruth } from '../tasks/load.js';
import type { GtTask } from '../tasks/schemas.js';
import { HttpError } from '../web/http-kit.js';
import { alignTask } from './alignment.js';
import { finalScoresOf, readFinalScores } from './final-scores.js';
import { evalLabel, latestEpisodes, runOf, type ViewSources } from './pages.js';
import { readStepResults } from './step-results.js';
import { toolImagePaths } from './tool-images.js';

function gtTaskOf(run: RunRow, taskId: string): GtTask | { missing: string } {
  if (!run.gtFile) return { missing: 'the run recorded no ground-truth file' };
  if (!existsSync(run.gtFile)) return { missing: `the run's ground-truth file ${path.basename(run.gtFile)} is no longer there` };
  const task = loadGroundTruth(run.gtFile).find((entry) => entry.id === taskId);
  return task ?? { missing: `task ${taskId} is not in the run's ground-truth file` };
}

function alignmentOf(sources: ViewSources, run: RunRow, episode: EpisodeRow, gtTask: GtTask | { missing: string }) {
  const label = evalLabel(run, episode.trial);
  const step = readStepResults(runFolderOfStoredRun(sources.resultsDir, run), label);
  if (!('found' in step)) return { missing: step.missing };
  const score = step.found.perId.get(episode.taskId);
  if (!score) return { missing: `task ${episode.taskId} is not in the step evaluation of ${label}` };
  if ('missing' in gtTask) return gtTask;
  return alignTask(gtTask, episode.prediction, score, step.found.thresholds);
}

/** The task's latest attempt in `trial` (default: trial 1). */
export function taskPage(sources: ViewSources, runId: string, taskId: string, trial = 1) {
  const run = runOf(sources, runId);
  const episode = latestEpisodes(episodesForRun(sources.store, runId, { taskId })).find((entry) => entry.trial === trial);
  if (!episode) throw new HttpError(404, `run ${runId} has no episode for task "${taskId}" in trial ${trial}`, 'unknown_task');
  const tools = toolCallsForEpisode(sources.store, episode.id).map((call) => ({
    ...call,
    imageCount: toolImagePaths(call.resultText, call.images.length).length,
  }));
  const gtTask = gtTaskOf(run, taskId);
  return {
    run: { runId: run.runId, model: run.modelLabel, status: run.status },
    episode,
    modelCalls: modelCallsForEpisode(sources.store, episode.id),
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
