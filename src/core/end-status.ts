// How an episode ended, the same words for every vendor: each driver maps its own stop reasons
// (src/llm/*/response.ts → StopReason) and the agent maps the reply that ended the episode onto
// one of these (src/agent/end-status.ts). Recorded on the episode (store column `end_status`,
// the prediction record's `end_status`), shown by `m3 runs show`, counted by `m3 summary`.
export const endStatuses = [
  /** The model gave a final answer with text. */
  'answered',
  /** The model ended normally with no text at all. */
  'empty',
  /** The model or the vendor's safety layer declined (Anthropic refusal, OpenAI refusal or content filter, Gemini SAFETY, RECITATION, a blocked prompt). */
  'refused',
  /** The answer hit the output-token limit. */
  'truncated',
  /** The conversation no longer fit the model's context window (Anthropic model_context_window_exceeded). */
  'context_exceeded',
  /** The last reply was a function call the vendor could not parse (Gemini MALFORMED_FUNCTION_CALL) where no call could run. */
  'malformed_call',
  /** The vendor paused the turn to be continued (Anthropic pause_turn). */
  'paused',
  /** A stop reason none of the above covers; the detail names it. */
  'other',
  /** The harness stopped the episode: its tokens (input + output) reached `m3 run --token-limit` (src/agent/task-budget.ts). */
  'limit_tokens',
  /** The harness stopped the episode: its model replies reached `--message-limit`. */
  'limit_messages',
  /** The harness stopped the episode: what its requests cost reached `--cost-limit` (USD, the price table). */
  'limit_cost',
] as const;

export type EndStatus = (typeof endStatuses)[number];

export interface EpisodeEnd {
  status: EndStatus;
  /** What the vendor said: a refusal's explanation, the finish reason and its message. */
  detail?: string;
}
