// What a replay driver says, task by task: the steps (each a list of calls) and the final reply.
// Built from ground truth or from an existing prediction file; optionally perturbed (noisy oracle).
import { exactArgumentsTextOf } from '../../tasks/exact-arguments.js';
import type { GtTask, Prediction } from '../../tasks/schemas.js';

export interface ReplayCall {
  name: string;
  arguments: unknown;
  /** The arguments' JSON text as the file wrote it (`2.0` stays `2.0`); dropped when the arguments change. */
  argumentsText?: string;
  /** The texts of the final reply that this call's result backs (the GT task's `facts`): damaged with the call. */
  replyFacts?: string[];
}

export interface ReplayPlan {
  steps: ReplayCall[][];
  finalReply: string;
}

function toCalls(calls: ReadonlyArray<{ name?: string | null | undefined; arguments?: unknown }>): ReplayCall[] {
  return calls.map((call) => {
    const argumentsText = exactArgumentsTextOf(call);
    return { name: String(call.name ?? '').trim(), arguments: call.arguments ?? null, ...(argumentsText === undefined ? {} : { argumentsText }) };
  });
}

/** The reply texts each GT call backs, keyed `step index:call index` (a fact's step is 1-based). */
function replyFactsOf(task: GtTask): Map<string, string[]> {
  const byCall = new Map<string, string[]>();
  for (const fact of task.facts ?? []) {
    if (fact.reply === undefined) continue;
    const key = `${fact.step - 1}:${fact.call}`;
    byCall.set(key, [...(byCall.get(key) ?? []), fact.reply]);
  }
  return byCall;
}

export function planFromGroundTruth(task: GtTask): ReplayPlan {
  const facts = replyFactsOf(task);
  const steps = task.steps.map((step, stepIndex) =>
    toCalls(step.calls).map((call, callIndex) => {
      const replyFacts = facts.get(`${stepIndex}:${callIndex}`);
      return replyFacts ? { ...call, replyFacts } : call;
    }),
  );
  return { steps: steps.filter((calls) => calls.length > 0), finalReply: task.final_reply };
}

export function planFromPrediction(prediction: Prediction): ReplayPlan {
  return { steps: prediction.steps.map((step) => toCalls(step.calls)).filter((calls) => calls.length > 0), finalReply: prediction.final_reply };
}
