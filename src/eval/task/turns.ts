// RADAR's dialogue-turn success rate: a turn (one round of tool calls) succeeds when every call
// in it used an applicable tool with correctly formatted parameters, i.e. no call is labelled
// unknown_tool or invalid_arguments at the call level (a call that ran and found nothing, or
// failed for a reason outside its arguments, still had an applicable tool and well-formed
// parameters). A round whose tool-call output could not be used at all (an empty
// `work.tool_calls`, the reference's illegal calling) is a failed turn. A turn whose calls are
// all unclassified for infrastructure reasons is left out. A call the step alignment pairs with
// a GT call marked "expect_error" was asked for by the task (the exception tier's deliberate
// failures) and counts as valid. The invocation-level rate counts calls instead of turns.
import type { Prediction } from '../../tasks/schemas.js';
import type { CallLabelInfo } from './call-labels.js';

export interface TurnCounts {
  turns: number;
  successfulTurns: number;
  excludedTurns: number;
  invocations: number;
  validInvocations: number;
}

const malformed = new Set(['unknown_tool', 'invalid_arguments']);

export function countTurns(
  prediction: Prediction | undefined,
  labels: ReadonlyArray<CallLabelInfo | undefined>,
  byDesign: ReadonlySet<number> = new Set(),
): TurnCounts {
  const counts: TurnCounts = { turns: 0, successfulTurns: 0, excludedTurns: 0, invocations: 0, validInvocations: 0 };
  if (!prediction) return counts;
  let flat = 0;
  for (const step of prediction.steps) {
    // A step without calls is a round whose output was unusable: counted from the dialogue below.
    if (step.calls.length === 0) continue;
    const judged = step.calls
      .map(() => {
        const index = flat++;
        const label = labels[index];
        return label && byDesign.has(index) ? { ...label, label: 'success' } : label;
      })
      .filter((label): label is CallLabelInfo => label !== undefined && !label.infrastructure);
    if (judged.length === 0) {
      counts.excludedTurns += 1;
      continue;
    }
    const valid = judged.filter((label) => !malformed.has(label.label)).length;
    counts.turns += 1;
    counts.invocations += judged.length;
    counts.validInvocations += valid;
    if (valid === judged.length) counts.successfulTurns += 1;
  }
  const unusable = prediction.dialogue.filter((round) => Array.isArray(round.work?.tool_calls) && round.work.tool_calls.length === 0).length;
  counts.turns += unusable;
  return counts;
}
