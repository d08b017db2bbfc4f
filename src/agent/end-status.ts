// The reply that ended an episode → how the episode ended (src/core/end-status.ts). Every driver
// reports its vendor's stop reason in the same words (src/llm/types.ts StopReason), so the same
// model behaviour gets the same end status on every vendor, and a refusal or a cut-off answer is
// never recorded as a plain (possibly empty) answer.
import type { EndStatus, EpisodeEnd } from '../core/end-status.js';
import type { GenerateResponse, StopReason } from '../llm/types.js';

const byStopReason: Record<Exclude<StopReason, 'end' | 'tool_calls'>, EndStatus> = {
  max_tokens: 'truncated',
  refusal: 'refused',
  context_exceeded: 'context_exceeded',
  malformed_call: 'malformed_call',
  paused: 'paused',
  other: 'other',
};

/** `finalText`: the answer as the episode records it (thinking and labels removed). */
export function endOfReply(response: Pick<GenerateResponse, 'stopReason' | 'stopDetail'>, finalText: string): EpisodeEnd {
  const { stopReason, stopDetail } = response;
  // A final-answer request that still came back with calls (tools forbidden) ends on its text.
  const status: EndStatus = stopReason === 'end' || stopReason === 'tool_calls' ? (finalText.trim() ? 'answered' : 'empty') : byStopReason[stopReason];
  return { status, ...(stopDetail ? { detail: stopDetail } : {}) };
}
