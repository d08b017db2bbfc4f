// The mock's script: a queue of vendor-neutral turns, each rendered into whichever wire format
// the request arrives in, plus per-turn faults. Validated with zod so a bad script file fails
// with the path of the bad field.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const mockToolCallSchema = z.strictObject({
  name: z.string().min(1),
  /** The arguments as a JSON value (normally an object). */
  arguments: z.unknown().optional(),
  /** Exact argument text, for malformed-argument faults; wins over `arguments`. */
  rawArguments: z.string().optional(),
  /** Call id to send; by default the mock invents one (Gemini: none, as the API does). */
  id: z.string().optional(),
});

export const mockFaultSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('status'),
    status: z.number().int().min(400).max(599),
    retryAfterSeconds: z.number().nonnegative().optional(),
    retryAfterMs: z.number().nonnegative().optional(),
    /** Error text; `{credential}` becomes the credential the request carried (vendors that echo a bad key). */
    message: z.string().optional(),
    /** OpenAI-shaped errors: the `code` and `param` fields (e.g. unsupported_parameter / parallel_tool_calls). */
    code: z.string().optional(),
    param: z.string().optional(),
  }),
  /** Destroy the socket: before any byte, or after part of the body. */
  z.strictObject({ kind: z.literal('drop'), when: z.enum(['before-headers', 'mid-body']).optional() }),
  /** A 200 whose body is truncated JSON. */
  z.strictObject({ kind: z.literal('invalid_json') }),
]);

const tokenCount = z.number().int().nonnegative();

export const mockTurnSchema = z.strictObject({
  text: z.string().optional(),
  /**
   * Provider reasoning: `reasoning_content` (Chat Completions), a signed thinking block
   * (Anthropic), a reasoning item (Responses API), thought parts (Gemini).
   */
  reasoning: z.string().optional(),
  /** Anthropic only: a `redacted_thinking` block with this opaque data (before any thinking). */
  redactedReasoning: z.string().optional(),
  toolCalls: z.array(mockToolCallSchema).optional(),
  /**
   * Usage as the vendor counts it. `reasoningTokens` are part of `outputTokens` (OpenAI counts
   * them inside completion_tokens); vendors that report them apart (xAI) get them split out.
   */
  usage: z
    .strictObject({ inputTokens: tokenCount, outputTokens: tokenCount, cachedTokens: tokenCount.optional(), reasoningTokens: tokenCount.optional() })
    .optional(),
  /**
   * How the turn ends, rendered in each vendor's words: `max_tokens` (OpenAI `length`, also in the
   * middle of a tool call when the turn has calls with cut-off rawArguments; Anthropic
   * `max_tokens`; Gemini `MAX_TOKENS`), `refusal` (Anthropic `refusal` with stop_details, OpenAI
   * `message.refusal`, Responses refusal part, Gemini `SAFETY`), `safety` (OpenAI
   * `content_filter`, Gemini `SAFETY`, Anthropic `refusal`), `malformed_call` (Gemini
   * MALFORMED_FUNCTION_CALL: no parts, the call text in finishMessage), `paused` (Anthropic
   * `pause_turn`), `context_exceeded` (Anthropic `model_context_window_exceeded`).
   */
  stopReason: z.enum(['end', 'max_tokens', 'refusal', 'safety', 'malformed_call', 'paused', 'context_exceeded']).optional(),
  /** The vendor's words for an unusual stop: a refusal's explanation, Gemini's finishMessage. */
  stopExplanation: z.string().optional(),
  /** Wait this long before answering (slow replies, timeouts). */
  delayMs: z.number().int().nonnegative().optional(),
  fault: mockFaultSchema.optional(),
});

export const mockScriptSchema = z.strictObject({
  turns: z.array(mockTurnSchema).default([]),
  /** Answer used when the queue is empty; without it an empty queue is an HTTP 500. */
  fallback: mockTurnSchema.optional(),
  /** Ids listed by GET /v1/models. */
  models: z.array(z.string().min(1)).optional(),
});

export type MockToolCall = z.infer<typeof mockToolCallSchema>;
export type MockFault = z.infer<typeof mockFaultSchema>;
export type MockTurn = z.infer<typeof mockTurnSchema>;
export type MockScript = z.infer<typeof mockScriptSchema>;

export function parseMockScript(value: unknown, source: string): MockScript {
  const parsed = mockScriptSchema.safeParse(value);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${source}: at $.${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid mock LLM script:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function loadMockScript(file: string): MockScript {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read mock LLM script ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseMockScript(json, file);
}
