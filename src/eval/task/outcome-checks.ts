// The checks on what a run's episode achieved, beside the rule evaluators and the precise answer
// (task-record.ts runTaskChecks runs them all, for `m3 eval task` and the trials layer alike):
//   state  the GT's `state_checks`, as the runner checked them on the databases the episode left
//          (the prediction's `state_results`, src/eval/state/episode-state.ts)
//   final  the task's `success.final` threshold on a final-answer score (final-scores.ts)
// A check whose input is absent (a prediction from a run that did not check the state, a task
// the final evaluation did not score) is NOT EVALUATED: it carries `not_evaluated: true` and the
// reason, and the task's success is then unknown (null), never a pass and never a silent fail.
import { z } from 'zod';
import { STATE_RESULTS_FIELD, stateResultSchema, type StateResult } from '../state/episode-state.js';
import { describeStateCheck, type StateCheck } from '../../tasks/state-check.js';
import type { Prediction } from '../../tasks/schemas.js';
import type { FinalThreshold } from '../../tasks/task-checks.js';
import type { CheckResult } from '../rules/evaluate.js';
import { finalScoreOf, type FinalScores } from './final-scores.js';

/** One check of a task, by the kind of claim it tests. */
export type TaskCheck = CheckResult & { kind: 'rule' | 'answer' | 'state' | 'final'; not_evaluated?: true };

const stateResultsSchema = z.array(stateResultSchema);

function notEvaluated(kind: TaskCheck['kind'], evaluator: string, reason: string): TaskCheck {
  return { kind, evaluator, passed: false, reason: `not evaluated: ${reason}`, not_evaluated: true };
}

function recordedResults(prediction: Prediction): StateResult[] | string {
  const raw = (prediction as Record<string, unknown>)[STATE_RESULTS_FIELD];
  if (raw === undefined) return "the prediction carries no state_results (its run did not check this task's state)";
  const parsed = stateResultsSchema.safeParse(raw);
  return parsed.success ? parsed.data : `the prediction's state_results are malformed (${parsed.error.issues[0]?.message ?? 'invalid'})`;
}

/** The state checks of one task on its prediction: the GT's checks, else whatever the run recorded. */
export function stateChecksOn(stated: readonly StateCheck[] | undefined, prediction: Prediction | undefined): TaskCheck[] {
  const labels = (stated ?? []).map(describeStateCheck);
  if (!prediction) return labels.map((label) => ({ kind: 'state', evaluator: `state: ${label}`, passed: false, reason: 'no prediction for this task' }));
  const recorded = recordedResults(prediction);
  if (typeof recorded === 'string') return labels.map((label) => notEvaluated('state', `state: ${label}`, recorded));
  // Results recorded against other checks (the GT changed since the run) say nothing about these.
  if (stated && recorded.map((result) => result.check).join('\n') !== labels.join('\n'))
    return labels.map((label) =>
      notEvaluated('state', `state: ${label}`, 'the run recorded state results for other state_checks than the ground truth states now'),
    );
  return recorded.map((result) => ({ kind: 'state', evaluator: `state: ${result.check}`, passed: result.passed, reason: result.reason, actual: result.found }));
}

/** The task's final-answer threshold on its score (none when the task states no threshold). */
export function finalCheckOn(threshold: FinalThreshold | undefined, scores: FinalScores | undefined, id: string, hasPrediction: boolean): TaskCheck[] {
  if (!threshold) return [];
  const evaluator = `final: ${threshold.metric} >= ${threshold.min}`;
  if (!hasPrediction) return [{ kind: 'final', evaluator, passed: false, reason: 'no prediction for this task' }];
  if (!scores) return [notEvaluated('final', evaluator, 'no final-answer evaluation was read')];
  const found = finalScoreOf(scores, id, threshold.metric);
  if ('missing' in found) return [notEvaluated('final', evaluator, found.missing)];
  const passed = found.score >= threshold.min;
  return [{ kind: 'final', evaluator, passed, reason: `${threshold.metric} ${found.score} ${passed ? '>=' : '<'} ${threshold.min}`, actual: found.score }];
}

/** A task's verdict over its checks: a failed evaluated check fails it; else one not evaluated leaves it unknown. */
export function checksVerdict(checks: readonly TaskCheck[]): boolean | null {
  if (checks.length === 0) return null;
  if (checks.some((check) => !check.passed && !check.not_evaluated)) return false;
  return checks.some((check) => check.not_evaluated) ? null : true;
}
