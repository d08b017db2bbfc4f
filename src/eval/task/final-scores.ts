// The final-answer scores a task's `success.final` rule reads (src/tasks/task-checks.ts): the
// per-task entries `m3 eval final` writes beside the predictions, taskcompletion.json (the
// judges: `final` = task_completion, `info_grounding.final` = information_grounding) and
// final_proxy.json (the deterministic proxies). A task the files do not score is "not
// evaluated" with the reason (no file, a listed judge failure, no entry), never a pass or a fail.
import { existsSync } from 'node:fs';
import type { FinalMetric } from '../../tasks/task-checks.js';
import { loadFinalProxy, loadTaskCompletion, proxyMetricNames, taskEntries } from '../final/output.js';

export interface FinalScoreFiles {
  /** taskcompletion.json */
  judges: string;
  /** final_proxy.json */
  proxy: string;
}

export interface FinalScores {
  files: FinalScoreFiles;
  /** Per task id, the scores the files hold. */
  byId: Map<string, Partial<Record<FinalMetric, number>>>;
  /** Per task id, why its judges gave no score (taskcompletion.json judge_failures). */
  judgeFailures: Map<string, string>;
  judgesRead: boolean;
  proxyRead: boolean;
}

const judgeMetrics = new Set<FinalMetric>(['task_completion', 'information_grounding']);

export function loadFinalScores(files: FinalScoreFiles): FinalScores {
  const byId = new Map<string, Partial<Record<FinalMetric, number>>>();
  const put = (id: string, metric: FinalMetric, value: number | null | undefined) => {
    if (typeof value === 'number' && Number.isFinite(value)) byId.set(id, { ...byId.get(id), [metric]: value });
  };
  const judgeFailures = new Map<string, string>();
  const judgesRead = existsSync(files.judges);
  if (judgesRead) {
    const judged = loadTaskCompletion(files.judges);
    for (const [id, entry] of Object.entries(taskEntries(judged))) {
      put(id, 'task_completion', entry.final);
      put(id, 'information_grounding', entry.info_grounding?.final);
    }
    for (const failure of judged.judge_failures) judgeFailures.set(failure.id, `judge ${failure.judge} failed: ${failure.reason}`);
  }
  const proxyRead = existsSync(files.proxy);
  if (proxyRead) {
    for (const [id, scores] of Object.entries(loadFinalProxy(files.proxy).per_id)) for (const metric of proxyMetricNames) put(id, metric, scores[metric]);
  }
  return { files, byId, judgeFailures, judgesRead, proxyRead };
}

/** The task's score on `metric`, or why there is none. */
export function finalScoreOf(scores: FinalScores, id: string, metric: FinalMetric): { score: number } | { missing: string } {
  const score = scores.byId.get(id)?.[metric];
  if (score !== undefined) return { score };
  const judged = judgeMetrics.has(metric);
  const file = judged ? scores.files.judges : scores.files.proxy;
  if (!(judged ? scores.judgesRead : scores.proxyRead)) return { missing: `no ${file} (run m3 eval final${judged ? '' : ' --proxy'} on these predictions)` };
  const failure = judged ? scores.judgeFailures.get(id) : undefined;
  return { missing: failure ? `${file}: ${failure}` : `${file} has no ${metric} score for this task` };
}
