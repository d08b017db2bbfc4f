// Per-task success of one trial, the unit every pass rate counts. The rule is the task's own,
// named by the kinds of check it states, `+`-joined (src/stats/task-rules.ts runs them):
//   rules   rule evaluators (src/eval/rules)
//   answer  a precise answer (value, aliases, tolerance)
//   state   state checks on the mock databases the trial's episode left (the runner records them)
//   final   a success.final threshold on a final-answer score (the trial's `m3 eval final` output)
//           a task with any of these passes when every check passes; when a check could not be
//           evaluated (no recorded state, no score) and none failed, the trial is NOT EVALUATED:
//           it is left out of the task's trials and listed (src/stats/batch-results.ts)
//   step    otherwise, the strictest the step layer can state: every ground-truth call matched
//           (recall = 1) and no predicted call left over (precision = 1)
// This is the same rule `m3 eval task` applies (src/eval/task/task-record.ts). A trial that
// ended as a model failure fails; an infrastructure failure is not a trial at all (the runner
// leaves it out of the prediction file), so it never reaches this rule or a denominator.
import type { ChecksOutcome } from './task-rules.js';

export type SuccessRule = string;

export function successRuleOf(checks: ChecksOutcome | undefined): SuccessRule {
  return checks?.rule ?? 'step';
}

/** The rule, as printed beside every pass rate. */
export const SUCCESS_RULE =
  'per task: a task with checks ("rules" = rule evaluators, "answer" = a precise answer, "state" = state checks on the databases its run left, "final" = a success.final threshold on a final-answer score; "+"-joined when several) passes when all of them pass, and a trial where one could not be evaluated and none failed is not evaluated (listed, in no denominator); "step" (a task without checks) = step recall = 1 and precision = 1 on the ground truth; a model failure fails';

const tolerance = 1e-9;

export interface TrialScore {
  /** The prediction's own status, when the runner marked it (`model_failure`). */
  status?: string;
  /** The task's per-id step metrics from results_eval.json (absent: the step layer did not score it). */
  step?: Readonly<Record<string, number>>;
  /** The task's own checks on this trial (absent: the task states none). */
  checks?: ChecksOutcome;
}

export function taskPassed(score: TrialScore): boolean {
  if (score.status === 'model_failure') return false;
  if (score.checks) return score.checks.passed === true;
  const recall = score.step?.recall;
  const precision = score.step?.precision;
  if (recall === undefined || precision === undefined || !Number.isFinite(recall) || !Number.isFinite(precision)) return false;
  return recall >= 1 - tolerance && precision >= 1 - tolerance;
}
