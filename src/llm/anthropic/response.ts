// Anthropic Messages response → neutral response. Pure. Thinking blocks stay out of the text but
// are kept, signatures included, as the turn's reasoning (request.ts sends them back first in
// that assistant turn); usage counts every input token (uncached + cache reads + cache writes),
// cached = cache reads. Tool inputs arrive as JSON values; their exact text (floats such as `2.0`
// kept) comes from the raw body when the driver passes it (`exactBody`).
import { z } from 'zod';
import { stringifyKeepingFloats } from '../../core/json-numbers.js';
import type { ReasoningTrace, ToolCall } from '../../core/messages.js';
import { ProviderError } from '../../errors/index.js';
import { checkArgumentsValue } from '../tool-arguments.js';
import type { MappedResponse, StopReason } from '../types.js';

const blockSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
  // server tool blocks: not part of the visible answer.
  z.looseObject({ type: z.string() }),
]);

const responseSchema = z.object({
  content: z.array(blockSchema),
  stop_reason: z.string().nullish(),
  /** Sent with a refusal: `{type: "refusal", category, explanation}` (Anthropic's streaming-refusal docs). */
  stop_details: z.looseObject({ category: z.string().nullish(), explanation: z.string().nullish() }).nullish(),
  usage: z
    .object({
      input_tokens: z.number().nullish(),
      output_tokens: z.number().nullish(),
      cache_read_input_tokens: z.number().nullish(),
      cache_creation_input_tokens: z.number().nullish(),
    })
    .nullish(),
});

const unusualStops: Record<string, { stop: StopReason; says: string }> = {
  refusal: { stop: 'refusal', says: 'the model refused the request' },
  model_context_window_exceeded: { stop: 'context_exceeded', says: "the conversation exceeds the model's context window" },
  pause_turn: { stop: 'paused', says: 'the API paused the turn (pause_turn) before the model finished' },
};

function toStopReason(reason: string | null | undefined, hasCalls: boolean): StopReason {
  if (hasCalls || reason === 'tool_use') return 'tool_calls';
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'end';
  if (reason === 'max_tokens') return 'max_tokens';
  return unusualStops[reason ?? '']?.stop ?? 'other';
}

/** A warning and the detail for any stop that is not an answer, a call or the token limit: never a silent empty answer. */
function unusualStop(data: { stop_reason?: string | null; stop_details?: { category?: string | null; explanation?: string | null } | null }) {
  const reason = data.stop_reason;
  if (!reason || ['end_turn', 'stop_sequence', 'max_tokens', 'tool_use'].includes(reason)) return undefined;
  const details = data.stop_details;
  const explanation = [details?.category ? `category ${details.category}` : '', details?.explanation ?? ''].filter(Boolean).join(': ');
  const says = unusualStops[reason]?.says ?? `generation ended with stop_reason ${reason}`;
  return { warning: `${says}${explanation ? ` (${explanation})` : ''}`, detail: `${reason}${explanation ? `: ${explanation}` : ''}` };
}

/** Tool inputs by block id, as the raw body wrote them (floats kept), when it parsed losslessly. */
function exactInputs(exactBody: unknown): Map<string, string> {
  const blocks = (exactBody as { content?: unknown } | undefined)?.content;
  const inputs = new Map<string, string>();
  if (!Array.isArray(blocks)) return inputs;
  for (const block of blocks as Array<{ type?: unknown; id?: unknown; input?: unknown }>) {
    if (block.type === 'tool_use' && typeof block.id === 'string' && block.input !== undefined) inputs.set(block.id, stringifyKeepingFloats(block.input));
  }
  return inputs;
}

export function fromAnthropicResponse(body: unknown, options: { spec: string; exactBody?: unknown }): MappedResponse {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      'fatal',
      `${options.spec}: unexpected Messages response (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`,
    );
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const warnings: string[] = [];
  const thinking: ReasoningTrace = { format: 'anthropic', text: '', items: [] };
  const exact = exactInputs(options.exactBody);
  for (const block of parsed.data.content) {
    if (block.type === 'thinking' && 'signature' in block) {
      thinking.items.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      thinking.text += block.thinking;
    } else if (block.type === 'redacted_thinking' && 'data' in block) {
      thinking.items.push({ type: 'redacted_thinking', data: block.data });
    } else if (block.type === 'text' && 'text' in block) texts.push(block.text as string);
    else if (block.type === 'tool_use' && 'id' in block && 'name' in block) {
      const { id, name, input } = block as { id: string; name: string; input: unknown };
      const checked = checkArgumentsValue(input);
      if (checked.argumentsError) warnings.push(`tool call ${id} (${name}): ${checked.argumentsError}`);
      toolCalls.push({
        id,
        name,
        arguments: checked.arguments,
        argumentsText: typeof input === 'string' ? input : (exact.get(id) ?? JSON.stringify(input ?? {})),
        ...(checked.argumentsError ? { argumentsError: checked.argumentsError } : {}),
      });
    }
  }
  const usage = parsed.data.usage;
  const cacheReads = usage?.cache_read_input_tokens ?? 0;
  const unusual = toolCalls.length > 0 ? undefined : unusualStop(parsed.data);
  if (unusual) warnings.push(unusual.warning);
  return {
    text: texts.join('\n').trim(),
    toolCalls,
    stopReason: toStopReason(parsed.data.stop_reason, toolCalls.length > 0),
    ...(unusual ? { stopDetail: unusual.detail } : {}),
    usage: {
      inputTokens: (usage?.input_tokens ?? 0) + cacheReads + (usage?.cache_creation_input_tokens ?? 0),
      outputTokens: usage?.output_tokens ?? 0,
      cachedTokens: cacheReads,
    },
    warnings,
    ...(thinking.items.length > 0 ? { reasoning: thinking } : {}),
  };
}
