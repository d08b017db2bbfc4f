// Episode trace → the reference prediction record (spec 1.3), with canonical `server/tool`
// names, the emitted arguments and the full result text of every executed call.
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

export function toPrediction(task: TaskHeader, question: string, trace: EpisodeTrace): PredictionRecord {
  const recorded = trace.rounds.filter((round) => !round.unparseable && round.calls.some((call) => call.executed));
  const steps = recorded.map((round, index) => ({
    step: index + 1,
    calls: round.calls
      .filter((call) => call.executed)
      .map((call) => ({ name: call.canonicalName, arguments: recordedArguments(call), result: call.resultText })),
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
        tool_calls: round.unparseable ? [] : round.calls.filter((call) => call.executed).map((call) => ({ name: call.canonicalName, arguments: recordedArguments(call) })),
      },
      end: round.end,
    })),
  };
}
