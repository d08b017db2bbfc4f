// Call-level evaluation of one prediction file: per-task illegal calling, then every
// executed call labelled by the rules, with the LLM judge only for what the rules leave open.
import { PREDICTION_CODED_FIELD, PREDICTION_CONDITION_FIELD, PREDICTION_ERROR_CODE_FIELD } from '../../core/tool-result-contract.js';
import type { Prediction } from '../../tasks/schemas.js';
import { mockedTierOf } from '../../results/mocked-share.js';
import { mapWithConcurrency } from '../final/judge-kit.js';
import type { ToolCatalog } from './catalog.js';
import { judgeCall, type CallJudgeOptions } from './judge.js';
import type { CallAnalysis, CallLabelRecord } from './output.js';
import { resultText } from './result-patterns.js';
import { classifyCallByRules, SchemaValidators, type RuleVerdict } from './rules.js';

export interface EvaluateCallsOptions {
  catalog?: ToolCatalog;
  judge?: CallJudgeOptions;
  /** Judge requests in flight at once. */
  concurrency?: number;
  predictionsFile?: string;
  onProgress?: (done: number, total: number) => void;
}

interface FlatCall {
  id: string;
  step: number;
  index: number;
  name: unknown;
  arguments: unknown;
  result: unknown;
  recorded?: { code: string | undefined };
  /** The fallback tier that served the call (its return is mocked). */
  mockedTier?: string;
  /** What a robustness condition made of the call (src/robustness/), when it answered it. */
  conditionKind?: 'distractor' | 'injected_fault';
}

/**
 * A record shows illegal calling when any round's `work.tool_calls` is an empty list: the model's
 * tool-call output could not be used. Our agent writes no round for a plain final answer, so an
 * empty round is always a failed one. As the reference's count_illegal_calling: a round without
 * `work`, or whose `tool_calls` is missing or not a list, does not count; the count is of records
 * (a duplicated id counts once per record), the ids listed once.
 * @internal Exported for its tests.
 */
export function hasIllegalCalling(prediction: Prediction): boolean {
  return prediction.dialogue.some((round) => Array.isArray(round.work?.tool_calls) && round.work.tool_calls.length === 0);
}

/** A record that codes its failed calls says what happened to each call (tool-result-contract.ts). */
function recordedOutcome(prediction: Prediction, call: Prediction['steps'][number]['calls'][number]): FlatCall['recorded'] {
  if (prediction[PREDICTION_CODED_FIELD] !== true) return undefined;
  const code = call[PREDICTION_ERROR_CODE_FIELD];
  return { code: typeof code === 'string' && code !== '' ? code : undefined };
}

function flattenCalls(predictions: readonly Prediction[]): FlatCall[] {
  return predictions.flatMap((prediction) =>
    prediction.steps.flatMap((step, stepIndex) =>
      step.calls.map((call, index) => {
        const recorded = recordedOutcome(prediction, call);
        const mockedTier = mockedTierOf(call);
        const conditionKind = conditionKindOf(call);
        return {
          id: prediction.id,
          step: step.step ?? stepIndex + 1,
          index,
          name: call.name,
          arguments: call.arguments,
          result: call.result,
          ...(recorded ? { recorded } : {}),
          ...(mockedTier ? { mockedTier } : {}),
          ...(conditionKind ? { conditionKind } : {}),
        };
      }),
    ),
  );
}

/**
 * A call the tool fallback layer served failed for an infrastructure reason and got a mocked
 * return: it is counted apart (`mocked`), never as a success, whatever the mocked text says.
 */
function mockedRecord(call: FlatCall, tier: string): CallLabelRecord {
  const base = { id: call.id, step: call.step, index: call.index, name: typeof call.name === 'string' ? call.name : null };
  return { ...base, label: 'mocked', source: 'rule', rule: 'fallback_served', detail: `return served by the ${tier} tier of the tool fallback layer` };
}

/** `distractor` or `injected_fault` when a robustness condition answered the call in place of its server. */
function conditionKindOf(call: unknown): FlatCall['conditionKind'] {
  const mark = (call as Record<string, unknown> | null)?.[PREDICTION_CONDITION_FIELD] as { kind?: unknown } | undefined;
  return mark?.kind === 'distractor' || mark?.kind === 'injected_fault' ? mark.kind : undefined;
}

/** A call a robustness condition answered: counted under its own label, never as the model's success or error. */
function conditionRecord(call: FlatCall, kind: 'distractor' | 'injected_fault'): CallLabelRecord {
  const base = { id: call.id, step: call.step, index: call.index, name: typeof call.name === 'string' ? call.name : null };
  const detail = kind === 'distractor' ? 'a call to a planted distractor tool' : 'an injected fault answered the call before it reached its server';
  return { ...base, label: kind, source: 'rule', rule: 'condition_mark', detail };
}

function recordFromVerdict(call: FlatCall, verdict: RuleVerdict): CallLabelRecord {
  const base = { id: call.id, step: call.step, index: call.index, name: typeof call.name === 'string' ? call.name : null };
  if (verdict.kind === 'decided') {
    return { ...base, label: verdict.label, source: 'rule', rule: verdict.rule, ...(verdict.detail ? { detail: verdict.detail } : {}) };
  }
  if (verdict.kind === 'infrastructure') {
    return { ...base, label: 'unclassified', source: 'rule', rule: verdict.rule, detail: verdict.detail, reason: 'infrastructure' };
  }
  return { ...base, label: verdict.fallback, source: 'fallback', rule: verdict.rule, detail: verdict.detail };
}

async function judgeUndecided(call: FlatCall, record: CallLabelRecord, judge: CallJudgeOptions): Promise<CallLabelRecord> {
  const judgement = await judgeCall({ id: call.id, name: call.name, arguments: call.arguments, result: resultText(call.result) }, judge);
  const votes = judgement.attempts.flatMap((attempt) => (attempt.vote !== undefined ? [attempt.vote] : []));
  const judgeInfo = { model: judgement.judge, votes, attempts: judgement.attempts, ...(judgement.failure ? { failure: judgement.failure } : {}) };
  if (judgement.label) return { ...record, label: judgement.label, source: 'judge', judge: judgeInfo };
  return { ...record, label: 'unclassified', source: 'judge', reason: 'judge_failed', judge: judgeInfo };
}

function summariseCalls(predictions: readonly Prediction[], records: readonly CallLabelRecord[], meta: CallAnalysis['meta']): CallAnalysis {
  const counters = { unknown_tool: 0, invalid_arguments: 0, resource_not_found: 0, success: 0, mocked: 0, distractor: 0, injected_fault: 0 };
  const reasons = { infrastructure: 0, judge_failed: 0 };
  for (const record of records) {
    if (record.label === 'unclassified') reasons[record.reason ?? 'judge_failed'] += 1;
    else counters[record.label] += 1;
  }
  const illegal = predictions.filter(hasIllegalCalling);
  const illegalIds = [...new Set(illegal.map((prediction) => prediction.id))];
  return {
    illegal_calling: illegal.length,
    ...counters,
    units: {
      illegal_calling: 'tasks',
      unknown_tool: 'calls',
      invalid_arguments: 'calls',
      resource_not_found: 'calls',
      success: 'calls',
      mocked: 'calls',
      distractor: 'calls',
      injected_fault: 'calls',
      unclassified: 'calls',
    },
    totals: { tasks: new Set(predictions.map((prediction) => prediction.id)).size, calls: records.length },
    unclassified: reasons.infrastructure + reasons.judge_failed,
    unclassified_reasons: reasons,
    illegal_calling_ids: illegalIds,
    per_call: [...records],
    meta,
  };
}

/**
 * One set of compiled validators per catalog object: compiling a tool's schema costs more than
 * classifying its calls, and one process may label several prediction files against the same
 * catalog (eval task over several runs' labels, a sweep). Validation results do not depend on
 * what was compiled before, so sharing changes no label.
 */
const validatorsByCatalog = new WeakMap<ToolCatalog, SchemaValidators>();

function validatorsFor(catalog: ToolCatalog | undefined): SchemaValidators {
  if (!catalog) return new SchemaValidators();
  const known = validatorsByCatalog.get(catalog);
  if (known) return known;
  const validators = new SchemaValidators();
  validatorsByCatalog.set(catalog, validators);
  return validators;
}

export async function evaluateCalls(predictions: readonly Prediction[], options: EvaluateCallsOptions = {}): Promise<CallAnalysis> {
  const validators = validatorsFor(options.catalog);
  const calls = flattenCalls(predictions);
  const records = calls.map((call) =>
    call.conditionKind
      ? conditionRecord(call, call.conditionKind)
      : call.mockedTier
        ? mockedRecord(call, call.mockedTier)
        : recordFromVerdict(call, classifyCallByRules(call, options.catalog, validators)),
  );
  const open = records.flatMap((record, position) => (record.source === 'fallback' ? [position] : []));
  const judge = options.judge;
  if (judge && open.length > 0) {
    let done = 0;
    await mapWithConcurrency(open, options.concurrency ?? 4, async (position) => {
      records[position] = await judgeUndecided(calls[position] as FlatCall, records[position] as CallLabelRecord, judge);
      done += 1;
      options.onProgress?.(done, open.length);
    });
  }
  return summariseCalls(predictions, records, {
    predictions: options.predictionsFile ?? '',
    catalog: options.catalog?.source ?? null,
    judge: judge?.driver.id ?? null,
    generated_at: new Date().toISOString(),
  });
}
