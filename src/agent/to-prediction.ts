// Episode trace → the reference prediction record, with canonical `server/tool` names, the
// emitted arguments (float forms kept) and the full result text of every executed call. Beyond
// the reference's fields, a failed call records its error code and the record says it does so
// (src/core/tool-result-contract.ts), so evaluators classify from codes, not from text; a call
// the tool fallback layer served records its tier and the real call's failure code.
import { PREDICTION_CODED_FIELD, PREDICTION_CONDITION_FIELD, PREDICTION_ERROR_CODE_FIELD, PREDICTION_FALLBACK_FIELD } from '../core/tool-result-contract.js';
import { exactArguments } from '../llm/tool-arguments.js';
import type { PredictionRecord } from '../tasks/schemas.js';
import type { ExecutedCall } from './call-tools.js';
import type { EpisodeTrace } from './episode.js';

/** Arguments with the model's float forms kept (`2.0` stays `2.0` in the prediction file). */
const recordedArguments = (call: ExecutedCall) => exactArguments(call.call, call.arguments) ?? null;

export interface TaskHeader {
  id: string;
  image?: string | string[] | undefined;
  type?: string | undefined;
}

function toPredictionCall(call: ExecutedCall): PredictionRecord['steps'][number]['calls'][number] {
  const recorded = {
    name: call.canonicalName,
    arguments: recordedArguments(call),
    result: call.resultText,
    // Only a run under a robustness condition writes this field (src/robustness/).
    ...(call.condition ? { [PREDICTION_CONDITION_FIELD]: call.condition } : {}),
  };
  // A call the fallback layer served is a result, not an error: it says which tier served it
  // and what the real call failed with.
  if (call.fallback) return { ...recorded, [PREDICTION_FALLBACK_FIELD]: { tier: call.fallback.tier, original_error_code: call.fallback.originalErrorCode } };
  // A server's own error result has no host code: it is recorded as `tool_error`.
  if (!call.isError) return recorded;
  return { ...recorded, [PREDICTION_ERROR_CODE_FIELD]: call.errorCode ?? 'tool_error' };
}

export function toPrediction(task: TaskHeader, question: string, trace: EpisodeTrace): PredictionRecord {
  const recorded = trace.rounds.filter((round) => !round.unparseable && round.calls.some((call) => call.executed));
  const steps = recorded.map((round, index) => ({
    step: index + 1,
    calls: round.calls.filter((call) => call.executed).map(toPredictionCall),
    ...(round.agent ? { agent: round.agent } : {}),
  }));
  return {
    id: task.id,
    image: task.image,
    type: task.type,
    question,
    steps,
    num_step: steps.length,
    max_num_concurrent: steps.reduce((max, step) => Math.max(max, step.calls.length), 0),
    final_reply: trace.finalReply,
    dialogue: trace.rounds.map((round) => ({
      prepare: round.prepare,
      work: {
        tool_calls: round.unparseable
          ? []
          : round.calls.filter((call) => call.executed).map((call) => ({ name: call.canonicalName, arguments: recordedArguments(call) })),
      },
      end: round.end,
      ...(round.agent ? { agent: round.agent } : {}),
    })),
    ...(trace.workflow ? { workflow: trace.workflow } : {}),
    // Beyond the reference's fields (its tools read only theirs): how the last reply ended.
    ...(trace.end ? { end_status: trace.end.status, ...(trace.end.detail ? { end_detail: trace.end.detail } : {}) } : {}),
    [PREDICTION_CODED_FIELD]: true,
  };
}
