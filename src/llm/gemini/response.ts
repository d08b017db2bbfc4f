// generateContent response → neutral response. Pure. Thought parts stay out of the text;
// calls without an API id get `<name>_<round>_<index>`; thought signatures are kept on the
// ToolCall (`thoughtSignature`) so the next request can return them. Arguments come parsed by the
// SDK, and the wire gives no integer/float distinction anyway (a protobuf Struct holds doubles,
// serialised as `2` for 2.0), so Gemini calls are recorded with plain numbers: a `2.0` the model
// meant cannot be told from a `2` (documented in README; OpenAI and Anthropic keep the form).
import { z } from 'zod';
import { OpaqueToken, type ToolCall } from '../../core/messages.js';
import { checkArgumentsValue, synthesizeCallId } from '../tool-arguments.js';
import { ProviderError } from '../../errors/index.js';
import type { MappedResponse, StopReason } from '../types.js';

const partSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z.object({ id: z.string().nullish(), name: z.string(), args: z.unknown() }).nullish(),
});

const responseSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(partSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
        finishMessage: z.string().nullish(),
      }),
    )
    .nullish(),
  promptFeedback: z.object({ blockReason: z.string().nullish(), blockReasonMessage: z.string().nullish() }).nullish(),
  usageMetadata: z
    .object({
      promptTokenCount: z.number().nullish(),
      candidatesTokenCount: z.number().nullish(),
      thoughtsTokenCount: z.number().nullish(),
      cachedContentTokenCount: z.number().nullish(),
    })
    .nullish(),
});

/** Finish reasons of Gemini's safety and policy filters: the vendor declined to answer. */
const refusalReasons = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);
const malformedReasons = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']);

function toStopReason(reason: string | null | undefined, hasCalls: boolean): StopReason {
  if (reason && malformedReasons.has(reason)) return 'malformed_call';
  if (hasCalls) return 'tool_calls';
  if (reason === 'STOP') return 'end';
  if (reason === 'MAX_TOKENS') return 'max_tokens';
  if (reason && refusalReasons.has(reason)) return 'refusal';
  return 'other';
}

/** Name used for a malformed call whose function the finish message does not name. */
const malformedCallName = 'malformed_function_call';

/**
 * Gemini's MALFORMED_FUNCTION_CALL as the model's failed call, the policy every driver follows for
 * a call that does not parse (OpenAI: argument text that is not JSON): recorded with an
 * `argumentsError`, answered with an error result, and the episode goes on. The finish message
 * ("Malformed function call: print(default_api.maps_static(center=...") names the function.
 */
function malformedCall(message: string | null | undefined, round: number): ToolCall {
  const text = message ?? '';
  const name = /default_api\.([A-Za-z_][A-Za-z0-9_-]{0,63})\s*\(/.exec(text)?.[1] ?? malformedCallName;
  return {
    id: synthesizeCallId(name, round, 0),
    name,
    arguments: undefined,
    argumentsText: text,
    argumentsError: `Gemini could not parse the model's function call (MALFORMED_FUNCTION_CALL)${text ? `: ${text}` : ''}`,
  };
}

export function fromGeminiResponse(body: unknown, options: { round: number; spec: string }): MappedResponse {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      'fatal',
      `${options.spec}: unexpected generateContent response (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`,
    );
  }
  const { candidates, promptFeedback, usageMetadata } = parsed.data;
  const candidate = candidates?.[0];
  const warnings: string[] = [];
  let stopDetail: string | undefined;
  if (!candidate) {
    const reason = promptFeedback?.blockReason ?? 'no reason given';
    stopDetail = `prompt blocked: ${reason}${promptFeedback?.blockReasonMessage ? `, ${promptFeedback.blockReasonMessage}` : ''}`;
    warnings.push(`the response has no candidates (${stopDetail})`);
  } else if (candidate.finishReason && !['STOP', 'MAX_TOKENS'].includes(candidate.finishReason)) {
    stopDetail = `${candidate.finishReason}${candidate.finishMessage ? `: ${candidate.finishMessage}` : ''}`;
    warnings.push(`generation ended with ${stopDetail}`);
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    if (part.functionCall) {
      const { name, args, id } = part.functionCall;
      const callId = id || synthesizeCallId(name, options.round, toolCalls.length);
      const checked = checkArgumentsValue(args);
      if (checked.argumentsError) warnings.push(`tool call ${callId} (${name}): ${checked.argumentsError}`);
      const call: ToolCall = {
        id: callId,
        name,
        arguments: checked.arguments,
        argumentsText: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
        ...(checked.argumentsError ? { argumentsError: checked.argumentsError } : {}),
        // Gemini 3 wants it back with the call in later requests (see request.ts).
        ...(part.thoughtSignature ? { thoughtSignature: new OpaqueToken(part.thoughtSignature) } : {}),
      };
      toolCalls.push(call);
    } else if (part.text && !part.thought) {
      texts.push(part.text);
    }
  }
  if (toolCalls.length === 0 && candidate?.finishReason === 'MALFORMED_FUNCTION_CALL') toolCalls.push(malformedCall(candidate.finishMessage, options.round));
  return {
    text: texts.join('').trim(),
    toolCalls,
    stopReason: candidate ? toStopReason(candidate.finishReason, toolCalls.length > 0) : promptFeedback?.blockReason ? 'refusal' : 'other',
    ...(stopDetail ? { stopDetail } : {}),
    usage: {
      inputTokens: usageMetadata?.promptTokenCount ?? 0,
      // Thinking tokens are billed as output.
      outputTokens: (usageMetadata?.candidatesTokenCount ?? 0) + (usageMetadata?.thoughtsTokenCount ?? 0),
      cachedTokens: usageMetadata?.cachedContentTokenCount ?? 0,
    },
    warnings,
  };
}
