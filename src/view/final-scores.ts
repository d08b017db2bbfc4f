// The final-answer evaluation outputs of a run's label, read for the viewer: the judges' scores
// (`taskcompletion.json`, written by `m3 eval final --judges`) with every judge's own score and
// any judge failure's reason, and the deterministic proxies (`final_proxy.json`, written without
// judges). Either file may be absent; the page then says which and why.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadFinalProxy, loadTaskCompletion, taskEntries, type TaskScoreEntry } from '../eval/final/output.js';
import { resultFiles } from '../report/load-results.js';
import { loadJsonFile } from '../tasks/load-json.js';

const judgeFailuresSchema = z.object({
  judge_failures: z.array(z.object({ id: z.string(), metric: z.string(), judge: z.string(), reason: z.string() }).loose()).default([]),
});

interface JudgeFailure {
  metric: string;
  judge: string;
  reason: string;
}

export interface FinalScores {
  /** Judge scores per task id, or why there are none. */
  judges: { perId: Map<string, TaskScoreEntry>; failures: Map<string, JudgeFailure[]> } | { missing: string };
  /** Proxy metrics per task id, or why there are none. */
  proxies: { perId: Map<string, Record<string, number | null>> } | { missing: string };
}

function readJudges(file: string): FinalScores['judges'] {
  if (!existsSync(file)) return { missing: `no judge scores (${resultFiles.taskCompletion}): run \`m3 eval final --judges ...\`` };
  try {
    const parsed = loadTaskCompletion(file);
    const failures = new Map<string, JudgeFailure[]>();
    for (const failure of judgeFailuresSchema.parse(loadJsonFile(file)).judge_failures) {
      failures.set(failure.id, [...(failures.get(failure.id) ?? []), { metric: failure.metric, judge: failure.judge, reason: failure.reason }]);
    }
    return { perId: new Map(Object.entries(taskEntries(parsed))), failures };
  } catch (error) {
    return { missing: `${path.basename(file)} is unreadable: ${(error as Error).message.slice(0, 300)}` };
  }
}

function readProxies(file: string): FinalScores['proxies'] {
  if (!existsSync(file)) return { missing: `no proxy scores (${resultFiles.proxy}): run \`m3 eval final\`` };
  try {
    return { perId: new Map(Object.entries(loadFinalProxy(file).per_id)) };
  } catch (error) {
    return { missing: `${path.basename(file)} is unreadable: ${(error as Error).message.slice(0, 300)}` };
  }
}

export function readFinalScores(resultsDir: string, modelLabel: string): FinalScores {
  const dir = path.join(resultsDir, modelLabel);
  return { judges: readJudges(path.join(dir, resultFiles.taskCompletion)), proxies: readProxies(path.join(dir, resultFiles.proxy)) };
}

/** One task's final-answer scores for the page. */
export function finalScoresOf(scores: FinalScores, taskId: string) {
  const judges = 'perId' in scores.judges ? (scores.judges.perId.get(taskId) ?? null) : null;
  return {
    judges,
    judgeFailures: 'failures' in scores.judges ? (scores.judges.failures.get(taskId) ?? []) : [],
    judgesMissing: 'missing' in scores.judges ? scores.judges.missing : judges ? null : `task ${taskId} has no judge score`,
    proxies: 'perId' in scores.proxies ? (scores.proxies.perId.get(taskId) ?? null) : null,
    proxiesMissing: 'missing' in scores.proxies ? scores.proxies.missing : null,
  };
}
