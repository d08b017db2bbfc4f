// Why a task passed or failed, for the task page: the task's checks (rule evaluators, precise
// answer, state checks, success.final threshold) each with its result and reason, run by the
// same code `m3 eval task` and the trials layer run (runTaskChecks), and the verdict by the one
// success rule (src/stats/task-success.ts taskPassed). A task without checks is decided by the
// step rule, shown with the recall and precision it read.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { RuleRegistry } from '../eval/rules/evaluate.js';
import { toTrajectory } from '../eval/step/trajectory.js';
import { loadFinalScores } from '../eval/task/final-scores.js';
import { checksVerdict } from '../eval/task/outcome-checks.js';
import { runTaskChecks, statesChecks, taskSpecOf } from '../eval/task/task-record.js';
import { resultFiles } from '../report/load-results.js';
import { SUCCESS_RULE, taskPassed } from '../stats/task-success.js';
import type { EpisodeRow, RunRow } from '../store/index.js';
import { loadFuzzyTasks } from '../tasks/load.js';
import type { FuzzyTask, GtTask } from '../tasks/schemas.js';

const registry = new RuleRegistry();

interface CheckLine {
  kind: string;
  check: string;
  /** Null: not evaluated (its input is missing); the reason says which. */
  passed: boolean | null;
  reason: string;
}

export interface TaskSuccess {
  /** `rules`, `answer`, `state`, `final` `+`-joined, or `step` for a task without checks. */
  rule: string;
  ruleText: string;
  /** Null: not evaluated (a check could not be run and none failed), or no prediction to judge. */
  passed: boolean | null;
  why: string;
  checks: CheckLine[];
  step: { recall: number; precision: number } | null;
}

/** The task's fuzzy-file record (the question as the model was asked), or undefined. */
export function fuzzyTaskOf(run: RunRow, taskId: string): FuzzyTask | undefined {
  if (!run.taskFile || !existsSync(run.taskFile)) return undefined;
  try {
    return loadFuzzyTasks(run.taskFile).find((task) => task.id === taskId);
  } catch {
    return undefined;
  }
}

function kindsOf(checks: readonly CheckLine[]): string {
  const kinds = [...new Set(checks.map((check) => (check.kind === 'rule' ? 'rules' : check.kind)))];
  return kinds.join('+');
}

interface SuccessInputs {
  run: RunRow;
  episode: EpisodeRow;
  gtTask: GtTask | undefined;
  fuzzyTask: FuzzyTask | undefined;
  step: { recall: number; precision: number } | undefined;
  /** The trial's evaluation folder (taskcompletion.json, final_proxy.json). */
  evalDir: string;
}

function stepWhy(step: SuccessInputs['step']): string {
  if (!step) return 'no step evaluation scored this task: run `m3 eval step`';
  const exact = step.recall >= 1 - 1e-9 && step.precision >= 1 - 1e-9;
  return `step rule: recall ${step.recall.toFixed(3)} and precision ${step.precision.toFixed(3)} ${exact ? 'are both 1' : 'are not both 1'}`;
}

export function taskSuccessOf(inputs: SuccessInputs): TaskSuccess {
  const { episode, gtTask, fuzzyTask, step } = inputs;
  const prediction = episode.prediction ?? undefined;
  const spec = taskSpecOf(gtTask, fuzzyTask, prediction);
  const status = prediction && typeof prediction.status === 'string' ? prediction.status : episode.status === 'model_failure' ? 'model_failure' : undefined;
  const base = { ruleText: SUCCESS_RULE, step: step ?? null };
  if (!statesChecks(spec)) {
    if (status === 'model_failure') return { ...base, rule: 'step', passed: false, why: 'the episode ended as a model failure', checks: [] };
    if (!step) return { ...base, rule: 'step', passed: null, why: stepWhy(step), checks: [] };
    return { ...base, rule: 'step', passed: taskPassed({ step }), why: stepWhy(step), checks: [] };
  }
  const finalScores = spec.final
    ? loadFinalScores({ judges: path.join(inputs.evalDir, resultFiles.taskCompletion), proxy: path.join(inputs.evalDir, resultFiles.proxy) })
    : undefined;
  const calls = prediction ? toTrajectory(prediction).calls.map((call) => ({ tool: call.tool, result: call.result })) : [];
  const { checks } = runTaskChecks(spec, { answer: prediction?.final_reply ?? '', calls }, registry, { id: episode.taskId, prediction, finalScores });
  const lines: CheckLine[] = checks.map((check) => ({
    kind: check.kind,
    check: check.evaluator,
    passed: check.not_evaluated ? null : check.passed,
    reason: check.reason,
  }));
  const verdict = checksVerdict(checks);
  const passedCount = checks.filter((check) => check.passed).length;
  const outcome = { rule: kindsOf(lines), passed: verdict, passedCount, total: checks.length, notEvaluated: [] };
  const modelFailure = status === 'model_failure';
  const passed = verdict === null && !modelFailure ? null : taskPassed({ ...(status ? { status } : {}), checks: outcome });
  const failedCount = lines.filter((line) => line.passed === false).length;
  const why = modelFailure
    ? 'the episode ended as a model failure'
    : passed === null
      ? `${lines.filter((line) => line.passed === null).length} check(s) could not be evaluated and none failed`
      : passed
        ? `all ${checks.length} check(s) passed`
        : `${failedCount} of ${checks.length} check(s) failed`;
  return { ...base, rule: kindsOf(lines), passed, why, checks: lines };
}
