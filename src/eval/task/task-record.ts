// Everything the task level says about one task: its checks (rule evaluators + precise answer),
// success under the stated rule, completion, the RADAR archetype metrics, dialogue turns, call
// failures and recovery, tokens, and the error taxonomy when it failed.
//
// Success rule (stated in every output):
//   - a task with checks (rule evaluators, a precise answer, state checks on the databases its
//     run left, a final-answer threshold) succeeds when all of them pass; when one could not be
//     evaluated (outcome-checks.ts) and none failed, its success is null: not evaluated;
//   - a task without checks succeeds when its step alignment is exact (recall = 1 and
//     precision = 1 against the GT), the same default the trials layer uses.
// Completion (the tutorial's partial credit) is the share of evaluated checks passed (null when
// none could be evaluated), or for a task without checks the F1 of its step recall and
// precision: 1 exactly when the task succeeds.
import { textContains, type Fact } from '../../tasks/facts.js';
import type { FuzzyTask, GtTask, Prediction, Tier } from '../../tasks/schemas.js';
import type { DecisiveCall, Evaluator, FinalThreshold, PreciseAnswer } from '../../tasks/task-checks.js';
import type { StateCheck } from '../../tasks/state-check.js';
import { describeValue } from '../rules/functions.js';
import { evaluateRule, type RuleRegistry, type RuleSubject } from '../rules/evaluate.js';
import type { Trajectory } from '../step/trajectory.js';
import type { TaskAlignment } from './alignment.js';
import { answerHit, matchPreciseAnswer, type AnswerMatch } from './answer.js';
import type { CallLabelInfo } from './call-labels.js';
import type { FinalScores } from './final-scores.js';
import { checksVerdict, finalCheckOn, stateChecksOn, type TaskCheck } from './outcome-checks.js';
import type { TaskTokens } from './resources.js';
import { classifyFailure, textHoldsValue, type MissingContent, type TaskTaxonomy } from './taxonomy.js';
import { countTurns, type TurnCounts } from './turns.js';
import { mean } from '../../core/number-format.js';

export interface TaskSpec {
  evaluators: Evaluator[];
  answer: PreciseAnswer | undefined;
  decisive: DecisiveCall[] | undefined;
  facts: Fact[] | undefined;
  stateChecks: StateCheck[] | undefined;
  final: FinalThreshold | undefined;
}

export interface TaskInput {
  id: string;
  tier: Tier | undefined;
  type: string;
  domain: string;
  spec: TaskSpec;
  gt: Trajectory;
  gtExpectError: boolean[];
  prediction: Prediction | undefined;
  pred: Trajectory;
  alignment: TaskAlignment | undefined;
  labels: ReadonlyArray<CallLabelInfo | undefined>;
  tokens: TaskTokens | undefined;
  /** The final-answer evaluation's scores, read when some task states a `success.final` threshold. */
  finalScores?: FinalScores;
}

export interface TaskRecord {
  id: string;
  tier: Tier | null;
  type: string;
  domain: string;
  archetype: 'precise' | 'fuzzy' | 'none';
  missing_prediction: boolean;
  /** All checks passed; null when the task states no checks or one could not be evaluated. */
  passed: boolean | null;
  checks: TaskCheck[];
  /** Null: not evaluated (a check's input is missing, `not_evaluated` says which and why). */
  success: boolean | null;
  success_rule: 'checks' | 'step_exact';
  not_evaluated: string[];
  completion: number | null;
  precise_answer: AnswerMatch | null;
  answer_hit: boolean | null;
  operation: { decisive: number; matched: number; passed: boolean; mean_similarity: number } | null;
  step: { recall: number; precision: number; alignment: TaskAlignment['source'] | null };
  calls: { total: number; classified: number; failed: number };
  turns: TurnCounts;
  had_error: boolean;
  recovered: boolean | null;
  tokens: TaskTokens | null;
  taxonomy: TaskTaxonomy | null;
}

export type CheckSpec = Pick<TaskSpec, 'evaluators' | 'answer' | 'stateChecks' | 'final'>;

/** What the outcome checks read beyond the reply and its calls. */
export interface OutcomeInputs {
  id: string;
  prediction: Prediction | undefined;
  finalScores: FinalScores | undefined;
}

/** The checks a task states on one trial: rule evaluators, the precise answer, state checks, the final threshold (in that order). */
export function runTaskChecks(
  spec: CheckSpec,
  subject: RuleSubject,
  registry: RuleRegistry,
  outcome: OutcomeInputs,
): { checks: TaskCheck[]; precise: AnswerMatch | null } {
  const checks: TaskCheck[] = spec.evaluators.map((evaluator) => ({ kind: 'rule', ...evaluateRule(evaluator, subject, registry) }));
  const precise = spec.answer ? matchPreciseAnswer(subject.answer, spec.answer) : null;
  if (precise && spec.answer)
    checks.push({ kind: 'answer', evaluator: `answer: precise ${describeValue(spec.answer.value)}`, passed: precise.passed, reason: precise.reason });
  checks.push(...stateChecksOn(spec.stateChecks, outcome.prediction));
  checks.push(...finalCheckOn(spec.final, outcome.finalScores, outcome.id, outcome.prediction !== undefined));
  return { checks, precise };
}

/** Whether a task states any check (else the step rule decides it). */
export function statesChecks(spec: CheckSpec): boolean {
  return spec.evaluators.length > 0 || spec.answer !== undefined || (spec.stateChecks?.length ?? 0) > 0 || spec.final !== undefined;
}

/** A task's checks as the GT record states them, else its task-file record. */
export function taskSpecOf(gt: GtTask | undefined, task: FuzzyTask | undefined, prediction?: Prediction): TaskSpec {
  return {
    evaluators: gt?.evaluators ?? task?.evaluators ?? prediction?.evaluators ?? [],
    answer: gt?.answer ?? task?.answer,
    decisive: gt?.decisive ?? task?.decisive,
    facts: gt?.facts,
    stateChecks: gt?.state_checks,
    final: gt?.success?.final ?? task?.success?.final,
  };
}

function runChecks(input: TaskInput, registry: RuleRegistry): { checks: TaskCheck[]; precise: AnswerMatch | null } {
  const subject = { answer: input.prediction?.final_reply ?? '', calls: input.pred.calls.map((call) => ({ tool: call.tool, result: call.result })) };
  return runTaskChecks(input.spec, subject, registry, { id: input.id, prediction: input.prediction, finalScores: input.finalScores });
}

/** The decisive GT calls (stated, or the calls of the last GT step) matched by the alignment. */
function operationOf(input: TaskInput): TaskRecord['operation'] {
  if (input.spec.answer || input.gt.calls.length === 0) return null;
  const lastStep = Math.max(...input.gt.calls.map((call) => call.stepIndex));
  const decisive = input.gt.calls.flatMap((call, index) => {
    const stated = input.spec.decisive?.some((entry) => entry.step - 1 === call.stepIndex && entry.call === call.callIndexInStep);
    return (input.spec.decisive ? stated : call.stepIndex === lastStep && !input.gtExpectError[index]) ? [index] : [];
  });
  if (decisive.length === 0) return null;
  const matches = new Map((input.alignment?.matches ?? []).map((match) => [match.gt, match.similarity]));
  const similarities = decisive.map((index) => matches.get(index) ?? 0);
  const matched = decisive.filter((index) => matches.has(index)).length;
  return {
    decisive: decisive.length,
    matched,
    passed: matched === decisive.length,
    mean_similarity: mean(similarities),
  };
}

/** Expected content absent from the reply: failed precise answer, scalar values of failed answer rules, fact replies. */
function missingContent(input: TaskInput, checks: readonly TaskCheck[]): MissingContent[] {
  const reply = input.prediction?.final_reply ?? '';
  const missing: MissingContent[] = [];
  if (input.spec.answer && checks[input.spec.evaluators.length]?.passed === false) missing.push({ source: 'precise answer', value: input.spec.answer.value });
  input.spec.evaluators.forEach((evaluator, index) => {
    const value = evaluator.value;
    if (evaluator.target === 'answer' && checks[index]?.passed === false && (typeof value === 'string' || typeof value === 'number'))
      missing.push({ source: `rule ${checks[index]?.evaluator}`, value });
  });
  for (const fact of input.spec.facts ?? []) if (fact.reply && !textContains(reply, fact.reply)) missing.push({ source: 'fact', value: fact.reply });
  // A value the reply does hold (in the wrong place or form) is not missing: the rules cannot
  // say why such a check failed, so the task stays undetermined for the judge.
  return missing.filter((item) => !textHoldsValue(reply, item.value));
}

/** Predicted calls aligned with a GT call that fails by design. */
function designedFailures(input: TaskInput): Set<number> {
  return new Set((input.alignment?.matches ?? []).filter((match) => input.gtExpectError[match.gt]).map((match) => match.pred));
}

function f1(recall: number, precision: number): number {
  return recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
}

export function buildTaskRecord(input: TaskInput, registry: RuleRegistry): TaskRecord {
  const { checks, precise } = runChecks(input, registry);
  const recall = input.alignment?.recall ?? (input.gt.calls.length === 0 && input.pred.calls.length === 0 ? 1 : 0);
  const precision = input.alignment?.precision ?? (input.pred.calls.length === 0 ? 1 : 0);
  const passed = checksVerdict(checks);
  const success = checks.length > 0 ? passed : recall === 1 && precision === 1;
  const evaluated = checks.filter((check) => !check.not_evaluated);
  const classified = input.labels.filter((label): label is CallLabelInfo => label !== undefined && !label.infrastructure);
  const failed = classified.filter((label) => label.label !== 'success').length;
  const reply = input.prediction?.final_reply ?? '';
  const taxonomy =
    success !== false
      ? null
      : classifyFailure({
          gt: input.gt,
          gtExpectError: input.gtExpectError,
          pred: input.pred,
          missingPrediction: !input.prediction,
          requireEveryGtCall: checks.length === 0,
          callLabels: input.labels,
          alignment: input.alignment,
          reply,
          missingContent: missingContent(input, checks),
          failedToolChecks: checks
            .filter((check, index) => !check.passed && input.spec.evaluators[index] !== undefined && input.spec.evaluators[index]?.target !== 'answer')
            .map((check) => `${check.evaluator}: ${check.reason}`),
        });
  return {
    id: input.id,
    tier: input.tier ?? null,
    type: input.type,
    domain: input.domain,
    archetype: input.spec.answer ? 'precise' : input.gt.calls.length > 0 ? 'fuzzy' : 'none',
    missing_prediction: !input.prediction,
    passed,
    checks,
    success,
    success_rule: checks.length > 0 ? 'checks' : 'step_exact',
    not_evaluated: checks.filter((check) => check.not_evaluated).map((check) => `${check.evaluator}: ${check.reason}`),
    completion: checks.length === 0 ? f1(recall, precision) : evaluated.length > 0 ? evaluated.filter((check) => check.passed).length / evaluated.length : null,
    precise_answer: precise,
    answer_hit: answerHit(reply, input.spec.answer, input.spec.facts) ?? null,
    operation: operationOf(input),
    step: { recall, precision, alignment: input.alignment?.source ?? null },
    calls: { total: input.pred.calls.length, classified: classified.length, failed },
    turns: countTurns(input.prediction, input.labels, designedFailures(input)),
    had_error: failed > 0,
    recovered: failed > 0 ? success : null,
    tokens: input.tokens ?? null,
    taxonomy,
  };
}
