// Responses API body → neutral response. Pure. Reasoning items stay out of the text but are kept
// (with their encrypted content) as the turn's reasoning, to be passed back before its calls;
// function calls keep their `call_id` (the id results must quote); argument text is parsed strictly.
import { z } from 'zod';
import type { ReasoningTrace, ToolCall } from '../../core/messages.js';
import { ProviderError } from '../../errors/index.js';
import type { MappedResponse, StopReason } from '../types.js';
import { parseArgumentsText } from '../tool-arguments.js';

const outputItem = z.union([
  z.object({
    type: z.literal('message'),
    content: z.array(z.looseObject({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() })),
  }),
  z.object({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() }),
  z.object({
    type: z.literal('reasoning'),
    id: z.string(),
    summary: z.array(z.looseObject({ type: z.string(), text: z.string() })).nullish(),
    encrypted_content: z.string().nullish(),
  }),
  z.looseObject({ type: z.string() }),
]);

const responseSchema = z.object({
  status: z.string().nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
  output: z.array(outputItem),
  usage: z
    .object({
      input_tokens: z.number().nullish(),
      output_tokens: z.number().nullish(),
      input_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

function toStopReason(status: string | null | undefined, reason: string | null | undefined, hasCalls: boolean, refused: boolean): StopReason {
  if (hasCalls) return 'tool_calls';
  if (refused || (status === 'incomplete' && reason === 'content_filter')) return 'refusal';
  if (status === 'incomplete' && reason === 'max_output_tokens') return 'max_tokens';
  return status === 'completed' ? 'end' : 'other';
}

export function fromResponsesResponse(body: unknown, options: { spec: string }): MappedResponse {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      'fatal',
      `${options.spec}: unexpected Responses API response (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`,
    );
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const warnings: string[] = [];
  const reasoning: ReasoningTrace = { format: 'openai-responses', text: '', items: [] };
  const refusals: string[] = [];
  for (const item of parsed.data.output) {
    if (item.type === 'reasoning' && 'id' in item && typeof item.id === 'string') {
      const summary = ((item as { summary?: Array<{ type: string; text: string }> | null }).summary ?? []).map((part) => ({
        type: 'summary_text',
        text: part.text,
      }));
      const encrypted = (item as { encrypted_content?: string | null }).encrypted_content;
      // Only what the API takes back as input: id, summary and the encrypted content.
      reasoning.items.push({ type: 'reasoning', id: item.id, summary, ...(encrypted ? { encrypted_content: encrypted } : {}) });
      reasoning.text += summary.map((part) => part.text).join('\n');
    } else if (item.type === 'message' && 'content' in item && Array.isArray(item.content)) {
      for (const part of item.content as Array<{ type: string; text?: string; refusal?: string }>) {
        if (part.type === 'output_text' && part.text) texts.push(part.text);
        if (part.type === 'refusal' && part.refusal) {
          texts.push(part.refusal);
          refusals.push(part.refusal);
          warnings.push('the model refused the request');
        }
      }
    } else if (item.type === 'function_call' && 'call_id' in item) {
      const call = item as { call_id: string; name: string; arguments: string };
      const parsedArguments = parseArgumentsText(call.arguments);
      if (parsedArguments.argumentsError) warnings.push(`tool call ${call.call_id} (${call.name}): ${parsedArguments.argumentsError}`);
      toolCalls.push({
        id: call.call_id,
        name: call.name,
        arguments: parsedArguments.arguments,
        argumentsText: call.arguments,
        ...(parsedArguments.argumentsError ? { argumentsError: parsedArguments.argumentsError } : {}),
      });
    }
  }
  const { usage, status, incomplete_details: incomplete } = parsed.data;
  const stopReason = toStopReason(status, incomplete?.reason, toolCalls.length > 0, refusals.length > 0);
  const stopDetail =
    refusals.length > 0
      ? `refusal: ${refusals.join(' ')}`
      : stopReason === 'refusal' || stopReason === 'other'
        ? `status ${status ?? 'none'}${incomplete?.reason ? ` (${incomplete.reason})` : ''}`
        : undefined;
  if (stopDetail && refusals.length === 0) warnings.push(`generation ended with ${stopDetail}`);
  return {
    text: texts.join('\n').trim(),
    toolCalls,
    stopReason,
    ...(stopDetail ? { stopDetail } : {}),
    usage: {
      inputTokens: usage?.input_tokens ?? 0,
      outputTokens: usage?.output_tokens ?? 0,
      cachedTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    },
    warnings,
    // Without encrypted content (store: false) a reasoning item cannot be sent back: the API would not find it.
    ...(reasoning.items.some((item) => item.encrypted_content)
      ? { reasoning: { ...reasoning, items: reasoning.items.filter((item) => item.encrypted_content) } }
      : {}),
  };
}
