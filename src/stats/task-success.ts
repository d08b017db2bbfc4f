// Per-task success of one trial, the unit every pass rate counts. The rule is the task's own:
//   rules   the task states rule evaluators (src/eval/rules), with or without a precise answer:
//           it passes when every check passes (src/stats/task-rules.ts runs them)
//   answer  the task states only a precise answer (value, aliases, tolerance): the answer decides
//   step    otherwise, the strictest the step layer can state: every ground-truth call matched
//           (recall = 1) and no predicted call left over (precision = 1)
// This is the same rule `m3 eval task` applies (src/eval/task/task-record.ts). A trial that
// ended as a model failure fails; an infrastructure failure is not a trial at all (the runner
// leaves it out of the prediction file), so it never reaches this rule or a denominator.
import type { ChecksOutcome } from './task-rules.js';

export type SuccessRule = ChecksOutcome['rule'] | 'step';

export function successRuleOf(checks: ChecksOutcome | undefined): SuccessRule {
  return checks?.rule ?? 'step';
}

/** The rule, as printed beside every pass rate. */
export const SUCCESS_RULE =
  'per task: "rules" = all its rule evaluators (and precise answer) pass; "answer" = its precise answer matches; "step" (a task without checks) = step recall = 1 and precision = 1 on the ground truth; a model failure fails';

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
  if (score.checks) return score.checks.passed;
  const recall = score.step?.recall;
  const precision = score.step?.precision;
  if (recall === undefined || precision === undefined || !Number.isFinite(recall) || !Number.isFinite(precision)) return false;
  return recall >= 1 - tolerance && precision >= 1 - tolerance;
}
