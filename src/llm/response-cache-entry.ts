// One cached model response as the cache stores and exports it: the neutral GenerateResponse
// without its latency and raw exchange (a hit made no exchange), with Gemini's opaque thought
// signatures kept as plain strings (OpaqueToken leaves JSON) and rebuilt on the way out.
import { z } from 'zod';
import { OpaqueToken } from '../core/messages.js';
import type { GenerateResponse } from './types.js';

const count = z.number().int().nonnegative();

export const cachedResponseSchema = z.strictObject({
  text: z.string(),
  toolCalls: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      arguments: z.unknown(),
      argumentsText: z.string().optional(),
      argumentsError: z.string().optional(),
      thoughtSignature: z.string().optional(),
    }),
  ),
  // Every StopReason (toCachedResponse does not compile when one is missing here).
  stopReason: z.enum(['end', 'tool_calls', 'max_tokens', 'refusal', 'context_exceeded', 'malformed_call', 'paused', 'other']),
  usage: z.strictObject({ inputTokens: count, outputTokens: count, cachedTokens: count }),
  warnings: z.array(z.string()),
  reasoning: z
    .strictObject({ format: z.enum(['anthropic', 'openai-chat', 'openai-responses']), text: z.string(), items: z.array(z.record(z.string(), z.unknown())) })
    .optional(),
});
export type CachedResponse = z.output<typeof cachedResponseSchema>;

export function toCachedResponse(response: GenerateResponse): CachedResponse {
  return {
    text: response.text,
    toolCalls: response.toolCalls.map(({ thoughtSignature, ...call }) => ({
      ...call,
      ...(thoughtSignature ? { thoughtSignature: thoughtSignature.value } : {}),
    })),
    stopReason: response.stopReason,
    usage: response.usage,
    warnings: response.warnings,
    ...(response.reasoning ? { reasoning: response.reasoning } : {}),
  };
}

/** The response a hit returns: no latency (no request was made), no raw exchange, marked as served. */
export function fromCachedResponse(cached: CachedResponse): GenerateResponse {
  return {
    ...cached,
    toolCalls: cached.toolCalls.map(({ thoughtSignature, ...call }) => ({
      ...call,
      ...(thoughtSignature !== undefined ? { thoughtSignature: new OpaqueToken(thoughtSignature) } : {}),
    })),
    latencyMs: 0,
    servedFromCache: true,
  };
}
