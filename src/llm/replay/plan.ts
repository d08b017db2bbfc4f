// What a replay driver says, task by task: the steps (each a list of calls) and the final reply.
// Built from ground truth or from an existing prediction file; optionally perturbed (noisy oracle).
import { exactArgumentsTextOf } from '../../tasks/exact-arguments.js';
import type { GtTask, Prediction } from '../../tasks/schemas.js';

export interface ReplayCall {
  name: string;
  arguments: unknown;
  /** The arguments' JSON text as the file wrote it (`2.0` stays `2.0`); dropped when the arguments change. */
  argumentsText?: string;
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

export function planFromGroundTruth(task: GtTask): ReplayPlan {
  return { steps: task.steps.map((step) => toCalls(step.calls)).filter((calls) => calls.length > 0), finalReply: task.final_reply };
}

export function planFromPrediction(prediction: Prediction): ReplayPlan {
  return { steps: prediction.steps.map((step) => toCalls(step.calls)).filter((calls) => calls.length > 0), finalReply: prediction.final_reply };
}
