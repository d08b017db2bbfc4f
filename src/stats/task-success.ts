// Per-task success of one trial, the unit every pass rate counts. The default rule is the
// strictest the step layer can state: every ground-truth call matched (recall = 1) and no
// predicted call left over (precision = 1). A trial that ended as a model failure fails; an
// infrastructure failure is not a trial at all (the runner leaves it out of the prediction file),
// so it never reaches this rule and never enters a denominator.

/** The rule, as printed beside every pass rate. */
export const SUCCESS_RULE = 'a task passes when its step recall = 1 and precision = 1 on the ground truth (a model failure fails)';

const tolerance = 1e-9;

export interface TrialScore {
  /** The prediction's own status, when the runner marked it (`model_failure`). */
  status?: string;
  /** The task's per-id step metrics from results_eval.json (absent: the step layer did not score it). */
  step?: Readonly<Record<string, number>>;
}

export function taskPassed(score: TrialScore): boolean {
  if (score.status === 'model_failure') return false;
  const recall = score.step?.recall;
  const precision = score.step?.precision;
  if (recall === undefined || precision === undefined || !Number.isFinite(recall) || !Number.isFinite(precision)) return false;
  return recall >= 1 - tolerance && precision >= 1 - tolerance;
}
