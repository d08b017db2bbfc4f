// The error taxonomy of a failed task (MCP-RADAR §6.1), by rules on the step alignment and the
// call labels; every label carries its evidence. Rules, in order:
//   invalid_arguments  a predicted call the call level labels invalid_arguments, or that failed
//                      (resource_not_found) where the GT expects no failure (rule call_label);
//                      an unmatched predicted call of the same tool as an unmatched GT call: the
//                      right tool with arguments too far from the GT (argument_mismatch); a
//                      failed check on a tool result (tool_result_check)
//   wrong_tool         a predicted call of an unknown tool (unknown_tool); an unmatched predicted
//                      call in place of an unmatched GT call of another tool (substituted_tool);
//                      an extra call of a tool the GT does not use (extraneous_tool)
//   omitted_call       an unmatched GT call left over (unmatched_gt_call; omitted_expected_failure
//                      when it is a call the GT marks as failing by design, which only the
//                      step_exact success rule requires); no prediction at all
//                      (no_prediction)
//   redundant_call     an extra call repeating an earlier call, or of a tool the GT uses but
//                      already matched
// When no invalid_arguments / wrong_tool / omitted_call label applies, the tool outputs were
// right, and the answer decides between:
//   information_synthesis  expected content is in a tool result but not in the reply, or there
//                          is no reply
//   reasoning_error        expected content is in no tool result: the conclusion was wrong
// What the rules cannot decide is `undetermined` (an optional LLM judge may settle it).
import type { TaskAlignment } from './alignment.js';
import type { Trajectory, TrajectoryCall } from '../step/trajectory.js';
import { textContains } from '../../tasks/facts.js';
import { numbersIn } from '../rules/functions.js';

export const taxonomyLabels = [
  'invalid_arguments',
  'wrong_tool',
  'omitted_call',
  'redundant_call',
  'information_synthesis',
  'reasoning_error',
  'undetermined',
] as const;
export type TaxonomyLabel = (typeof taxonomyLabels)[number];
export type TaxonomyCategory = 'tool_use' | 'information_synthesis' | 'reasoning' | 'undetermined';

export function categoryOf(label: TaxonomyLabel): TaxonomyCategory {
  if (label === 'information_synthesis') return 'information_synthesis';
  if (label === 'reasoning_error') return 'reasoning';
  if (label === 'undetermined') return 'undetermined';
  return 'tool_use';
}

interface CallRef {
  index: number;
  step: number;
  tool: string;
}

interface TaxonomyEvidence {
  rule: string;
  detail: string;
  gt_call?: CallRef;
  pred_call?: CallRef;
}

interface TaxonomyFinding {
  label: TaxonomyLabel;
  category: TaxonomyCategory;
  evidence: TaxonomyEvidence;
}

export interface TaskTaxonomy {
  /** The label that explains the failure first (order: invalid_arguments, wrong_tool, omitted_call, information_synthesis, reasoning_error, redundant_call, undetermined). */
  primary: TaxonomyLabel;
  category: TaxonomyCategory;
  source: 'rules' | 'judge';
  labels: TaxonomyFinding[];
}

/** Content the task expected in the reply (a precise answer, a rule's value, a fact's reply text) that is not there. */
export interface MissingContent {
  source: string;
  value: string | number;
}

export interface TaxonomyInput {
  gt: Trajectory;
  /** Per flat GT call: marked "expect_error" (designed to fail). */
  gtExpectError: readonly boolean[];
  pred: Trajectory;
  missingPrediction: boolean;
  /** The task's success rule is step_exact: every GT call, even one failing by design, is required. */
  requireEveryGtCall: boolean;
  /** Per flat predicted call: its call-level label, if classified. */
  callLabels: ReadonlyArray<{ label: string; detail?: string } | undefined>;
  alignment: TaskAlignment | undefined;
  reply: string;
  missingContent: readonly MissingContent[];
  /** Failed rule checks on tool results (evaluator text + reason). */
  failedToolChecks: readonly string[];
}

const primaryOrder: TaxonomyLabel[] = [
  'invalid_arguments',
  'wrong_tool',
  'omitted_call',
  'information_synthesis',
  'reasoning_error',
  'redundant_call',
  'undetermined',
];

function ref(call: TrajectoryCall, index: number): CallRef {
  return { index, step: call.stepIndex + 1, tool: call.tool };
}

function finding(label: TaxonomyLabel, evidence: TaxonomyEvidence): TaxonomyFinding {
  return { label, category: categoryOf(label), evidence };
}

/** Labels from the call level and from checks on tool results. */
function callLevelFindings(input: TaxonomyInput, matchedGtOf: Map<number, number>): TaxonomyFinding[] {
  const found: TaxonomyFinding[] = [];
  input.pred.calls.forEach((call, index) => {
    const label = input.callLabels[index];
    if (!label) return;
    const gtIndex = matchedGtOf.get(index);
    if (gtIndex !== undefined && input.gtExpectError[gtIndex]) return;
    const detail = `${call.tool}: ${label.label}${label.detail ? ` (${label.detail.slice(0, 160)})` : ''}`;
    if (label.label === 'unknown_tool') found.push(finding('wrong_tool', { rule: 'unknown_tool', detail, pred_call: ref(call, index) }));
    else if (label.label === 'invalid_arguments' || label.label === 'resource_not_found')
      found.push(finding('invalid_arguments', { rule: 'call_label', detail, pred_call: ref(call, index) }));
  });
  for (const check of input.failedToolChecks) found.push(finding('invalid_arguments', { rule: 'tool_result_check', detail: check }));
  return found;
}

/** Pairs unmatched GT and predicted calls: same tool first, then other tools, in order. */
function alignmentFindings(input: TaxonomyInput, alignment: TaskAlignment): TaxonomyFinding[] {
  const found: TaxonomyFinding[] = [];
  // Under a checks rule a deliberately failing GT call is not required; under step_exact it is.
  const gtLeft = alignment.unmatchedGt.filter((index) => input.requireEveryGtCall || !input.gtExpectError[index]);
  const predLeft = [...alignment.unmatchedPred];
  const take = (predicate: (gtCall: TrajectoryCall, predCall: TrajectoryCall) => boolean, label: TaxonomyLabel, rule: string) => {
    for (const gtIndex of [...gtLeft]) {
      const gtCall = input.gt.calls[gtIndex] as TrajectoryCall;
      const position = predLeft.findIndex((predIndex) => predicate(gtCall, input.pred.calls[predIndex] as TrajectoryCall));
      if (position < 0) continue;
      const predIndex = predLeft.splice(position, 1)[0] as number;
      gtLeft.splice(gtLeft.indexOf(gtIndex), 1);
      const predCall = input.pred.calls[predIndex] as TrajectoryCall;
      const detail =
        rule === 'argument_mismatch'
          ? `${gtCall.tool}: arguments ${predCall.text.slice(0, 120)} instead of ${gtCall.text.slice(0, 120)}`
          : `${predCall.tool} called instead of ${gtCall.tool}`;
      found.push(finding(label, { rule, detail, gt_call: ref(gtCall, gtIndex), pred_call: ref(predCall, predIndex) }));
    }
  };
  take((gtCall, predCall) => gtCall.tool === predCall.tool, 'invalid_arguments', 'argument_mismatch');
  take(() => true, 'wrong_tool', 'substituted_tool');
  for (const gtIndex of gtLeft) {
    const gtCall = input.gt.calls[gtIndex] as TrajectoryCall;
    const detail = input.gtExpectError[gtIndex]
      ? `the GT's deliberately failing call ${gtCall.tool} ${gtCall.text.slice(0, 120)} was not made (the step-exact rule requires every GT call)`
      : `no predicted call matches ${gtCall.tool} ${gtCall.text.slice(0, 120)}`;
    found.push(
      finding('omitted_call', { rule: input.gtExpectError[gtIndex] ? 'omitted_expected_failure' : 'unmatched_gt_call', detail, gt_call: ref(gtCall, gtIndex) }),
    );
  }
  const gtTools = new Set(input.gt.calls.map((call) => call.tool));
  for (const predIndex of predLeft) {
    const call = input.pred.calls[predIndex] as TrajectoryCall;
    const repeats = input.pred.calls.findIndex((other, index) => index < predIndex && other.tool === call.tool && other.text === call.text);
    if (repeats >= 0)
      found.push(
        finding('redundant_call', {
          rule: 'repeated_call',
          detail: `${call.tool} repeats call ${repeats} with the same arguments`,
          pred_call: ref(call, predIndex),
        }),
      );
    else if (gtTools.has(call.tool))
      found.push(
        finding('redundant_call', { rule: 'extra_call_of_gt_tool', detail: `an extra ${call.tool} call beyond the GT's`, pred_call: ref(call, predIndex) }),
      );
    else
      found.push(finding('wrong_tool', { rule: 'extraneous_tool', detail: `${call.tool} is not a tool of this task's GT`, pred_call: ref(call, predIndex) }));
  }
  return found;
}

/** The value is written in the text: a number among its numbers, a string ignoring case and spacing. */
export function textHoldsValue(text: string, value: string | number): boolean {
  if (typeof value === 'number') return numbersIn(text).some((found) => Math.abs(found - value) <= 1e-6 * Math.max(1, Math.abs(value)));
  return textContains(text, value);
}

/** information_synthesis / reasoning_error / undetermined, from the content the reply lacks. */
function answerFindings(input: TaxonomyInput): TaxonomyFinding[] {
  if (input.reply.trim() === '') return [finding('information_synthesis', { rule: 'no_answer', detail: 'the task ended without a final reply' })];
  const found: TaxonomyFinding[] = [];
  for (const missing of input.missingContent) {
    const index = input.pred.calls.findIndex((call) => textHoldsValue(call.result ?? '', missing.value));
    const what = `${missing.source} ${JSON.stringify(missing.value)}`;
    if (index >= 0) {
      const call = input.pred.calls[index] as TrajectoryCall;
      found.push(
        finding('information_synthesis', {
          rule: 'result_not_used',
          detail: `${what} is in the result of ${call.tool} but not in the reply`,
          pred_call: ref(call, index),
        }),
      );
    } else {
      found.push(
        finding('reasoning_error', { rule: 'wrong_conclusion', detail: `${what} is in no tool result and not in the reply; the tool outputs were right` }),
      );
    }
  }
  return found;
}

export function classifyFailure(input: TaxonomyInput): TaskTaxonomy {
  const labels: TaxonomyFinding[] = [];
  if (input.missingPrediction) {
    labels.push(finding('omitted_call', { rule: 'no_prediction', detail: `no prediction for the task: all ${input.gt.calls.length} GT call(s) omitted` }));
  } else {
    const matchedGtOf = new Map((input.alignment?.matches ?? []).map((match) => [match.pred, match.gt]));
    labels.push(...callLevelFindings(input, matchedGtOf));
    if (input.alignment) labels.push(...alignmentFindings(input, input.alignment));
    const decisive = labels.some((item) => item.label !== 'redundant_call');
    if (!decisive) labels.push(...answerFindings(input));
  }
  const primary = primaryOrder.find((label) => labels.some((item) => item.label === label));
  if (!primary) {
    const evidence = { rule: 'no_rule_applies', detail: 'the task failed, but no call, alignment or answer rule explains it' };
    return { primary: 'undetermined', category: 'undetermined', source: 'rules', labels: [finding('undetermined', evidence)] };
  }
  return { primary, category: categoryOf(primary), source: 'rules', labels };
}
