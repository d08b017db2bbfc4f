// Chat Completions body → neutral response. Pure. Validates the parts we read (compatible
// servers differ), keeps provider reasoning (`reasoning_content`, `<think>` blocks) out of the
// visible text (`reasoning_content`, and OpenRouter's `reasoning_details`, are kept as the turn's
// reasoning, for presets that must send them back), reports unparsable tool arguments instead of guessing, and adds reasoning tokens to
// the output where the vendor counts them apart from completion_tokens (xAI).
import { z } from 'zod';
import type { ToolCall } from '../../core/messages.js';
import { ProviderError } from '../../errors/index.js';
import type { MappedResponse, StopReason } from '../types.js';
import { checkArgumentsValue, parseArgumentsText, synthesizeCallId } from '../tool-arguments.js';

const toolCallSchema = z.object({
  id: z.string().nullish(),
  function: z.object({
    name: z.string(),
    // Some servers send an object instead of JSON text.
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

const responseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          /** OpenRouter: the reasoning text, and the structured details it wants back with the turn. */
          reasoning: z.string().nullish(),
          reasoning_details: z.array(z.record(z.string(), z.unknown())).nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1, 'the response has no choices'),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
      completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

/**
 * Removes `<think>…</think>` blocks, and a leading reasoning run whose opening tag the template ate.
 * @internal Exported for its tests.
 */
export function stripThinking(text: string): string {
  let out = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const danglingClose = out.indexOf('</think>');
  if (danglingClose >= 0 && !out.slice(0, danglingClose).includes('<think>')) out = out.slice(danglingClose + '</think>'.length);
  const danglingOpen = out.indexOf('<think>');
  if (danglingOpen >= 0) out = out.slice(0, danglingOpen);
  return out.trim();
}

function toStopReason(finishReason: string | null | undefined, hasCalls: boolean, refused: boolean): StopReason {
  if (hasCalls) return 'tool_calls';
  if (refused || finishReason === 'content_filter') return 'refusal';
  if (finishReason === 'stop') return 'end';
  if (finishReason === 'length') return 'max_tokens';
  if (finishReason === 'tool_calls' || finishReason === 'function_call') return 'tool_calls';
  return 'other';
}

/** The warning and detail of a stop that is not an answer, a call or the token limit. */
function unusualStop(finishReason: string | null | undefined, refusal: string | null | undefined, hasCalls: boolean): string | undefined {
  if (refusal) return `refusal: ${refusal}`;
  if (hasCalls) return undefined;
  if (!finishReason || ['stop', 'length', 'tool_calls', 'function_call'].includes(finishReason)) return undefined;
  return `finish_reason ${finishReason}`;
}

export interface ChatResponseOptions {
  round: number;
  spec: string;
  /** completion_tokens excludes reasoning tokens (xAI): add completion_tokens_details.reasoning_tokens. */
  reasoningTokensApart?: boolean;
}

export function fromOpenAiResponse(body: unknown, options: ChatResponseOptions): MappedResponse {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      'fatal',
      `${options.spec}: unexpected Chat Completions response (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`,
    );
  }
  const [choice] = parsed.data.choices;
  const message = choice!.message;
  const warnings: string[] = [];
  const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call, index) => {
    const raw = call.function.arguments;
    const argumentsText = typeof raw === 'string' ? raw : JSON.stringify(raw ?? {});
    const parsedArguments = typeof raw === 'string' ? parseArgumentsText(raw) : checkArgumentsValue(raw ?? {});
    const id = call.id || synthesizeCallId(call.function.name, options.round, index);
    if (parsedArguments.argumentsError) warnings.push(`tool call ${id} (${call.function.name}): ${parsedArguments.argumentsError}`);
    return {
      id,
      name: call.function.name,
      arguments: parsedArguments.arguments,
      argumentsText,
      ...(parsedArguments.argumentsError ? { argumentsError: parsedArguments.argumentsError } : {}),
    };
  });
  let text = stripThinking(message.content ?? '');
  if (!text && message.refusal) text = message.refusal;
  const stopDetail = unusualStop(choice!.finish_reason, message.refusal, toolCalls.length > 0);
  if (stopDetail) warnings.push(message.refusal ? 'the model refused the request' : `generation ended with ${stopDetail}`);
  // A call cut off by the token limit has argument text that does not parse: a failed call like any other.
  if (choice!.finish_reason === 'length' && toolCalls.some((call) => call.argumentsError)) {
    warnings.push('the output hit the token limit in the middle of a tool call; the cut-off call is recorded as a failed call');
  }
  const usage = parsed.data.usage;
  const apart = options.reasoningTokensApart ? (usage?.completion_tokens_details?.reasoning_tokens ?? 0) : 0;
  const reasoning = message.reasoning_content ?? message.reasoning ?? '';
  const details = message.reasoning_details ?? [];
  return {
    text,
    toolCalls,
    stopReason: toStopReason(choice!.finish_reason, toolCalls.length > 0, !!message.refusal && !message.content),
    ...(stopDetail ? { stopDetail } : {}),
    usage: {
      inputTokens: usage?.prompt_tokens ?? 0,
      outputTokens: (usage?.completion_tokens ?? 0) + apart,
      cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    },
    warnings,
    ...(reasoning || details.length > 0 ? { reasoning: { format: 'openai-chat' as const, text: reasoning, items: details } } : {}),
  };
}
