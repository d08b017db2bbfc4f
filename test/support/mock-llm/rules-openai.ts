// Chat Completions rules that depend on the model family or the destination, each answered with
// the error body that vendor sends (texts from their API responses as reported publicly):
//   OpenAI: tool_choice / parallel_tool_calls need tools; o-series reject parallel_tool_calls;
//           reasoning models (o-series, gpt-5 except -chat) reject temperature != 1 and max_tokens.
//   DeepSeek thinking mode: assistant tool-call turns must carry their reasoning_content back.
//   DashScope Qwen3 open models: non-streaming calls need enable_thinking: false.
//   Zhipu GLM: images as raw base64, a data: URL is refused ("图片输入格式/解析错误").
//   xAI: JPEG and PNG images only.   Ollama: no GIF.
//   OpenRouter + Gemini: reasoning_details of a tool-calling turn must come back with it.
//   Every destination: image count and bytes per request, history arguments a JSON object (rules-limits.ts).
// What a destination accepts is read from its row of the provider table
// (src/config/provider-definitions.ts) at each request, the row the driver builds its requests
// from, so the mock and the drivers cannot disagree: the image types (`imageTypes`), whether
// images are taken at all (`acceptsImages`), bare base64 instead of a data: URL (`imageUrl`),
// the reasoning a tool-calling turn must carry back (`replayReasoning`, `replayReasoningDetails`).
// A vendor's own error text is used where it is known; other refusals are the mock's words.
import { type ChatPreset, chatDefaults, type ProviderDefinition, providerDefinitions } from '../../../src/config/provider-definitions.js';
import { malformedHistoryArguments, openAiLimits } from './rules-limits.js';
import type { Rejection, RuleContext } from './wire-common.js';
import { dataUrlType } from './wire-common.js';

interface ChatBody {
  model?: string;
  messages?: Array<{
    role?: string;
    content?: unknown;
    tool_calls?: Array<{ id?: string; function?: { arguments?: unknown } }>;
    reasoning_content?: unknown;
    reasoning_details?: unknown;
  }>;
  tools?: unknown[];
  tool_choice?: unknown;
  parallel_tool_calls?: unknown;
  temperature?: unknown;
  max_tokens?: unknown;
  stream?: unknown;
  enable_thinking?: unknown;
}

/** The destination's row of the provider table over the defaults, read now (a test may plant a change). */
function presetOf(context: Pick<RuleContext, 'flavour'>): Omit<ChatPreset, 'name'> | undefined {
  const row: ProviderDefinition | undefined = context.flavour ? (providerDefinitions as Record<string, ProviderDefinition>)[context.flavour] : undefined;
  return row?.kind === 'chat' ? { ...chatDefaults, ...row.chat } : undefined;
}

const isOSeries = (model: string) => /^o\d/.test(model);
export const isReasoningModel = (model: string) => isOSeries(model) || (/^gpt-5/.test(model) && !/^gpt-5[\w.-]*-chat/.test(model));
export const isGrok = (model: string, context: RuleContext) => context.flavour === 'xai' || /^grok/.test(model);

function openAiError(message: string, param: string | null, code: string | null): Rejection {
  return { status: 400, message, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

function parameterRules(body: ChatBody, model: string): Rejection | undefined {
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  for (const param of ['tool_choice', 'parallel_tool_calls'] as const) {
    if (body[param] !== undefined && !hasTools) {
      return openAiError(`Invalid value for '${param}': '${param}' is only allowed when 'tools' are specified.`, param, null);
    }
  }
  if (isOSeries(model) && body.parallel_tool_calls !== undefined) {
    return openAiError("Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", 'parallel_tool_calls', 'unsupported_parameter');
  }
  if (isReasoningModel(model) && body.temperature !== undefined && body.temperature !== 1) {
    return openAiError(
      `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
      'temperature',
      'unsupported_value',
    );
  }
  if (isReasoningModel(model) && body.max_tokens !== undefined) {
    return openAiError(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  }
  return undefined;
}

function deepSeekRule(body: ChatBody, context: RuleContext): Rejection | undefined {
  if (!presetOf(context)?.replayReasoning && !/^deepseek-reasoner/.test(context.model)) return undefined;
  const index = (body.messages ?? []).findIndex(
    (message) =>
      message.role === 'assistant' &&
      typeof message.reasoning_content !== 'string' &&
      (message.tool_calls ?? []).some((call) => call.id && context.memory.issued(call.id)?.reasoningContent !== undefined),
  );
  if (index < 0) return undefined;
  const message = `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`;
  return { status: 400, message, body: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
}

function qwenRule(body: ChatBody, model: string): Rejection | undefined {
  if (!/^qwen3-\d/i.test(model) || body.stream === true || body.enable_thinking === false) return undefined;
  const message = 'parameter.enable_thinking must be set to false for non-streaming calls';
  return { status: 400, message, body: { error: { code: 'invalid_parameter_error', param: null, message, type: 'invalid_request_error' } } };
}

function imageUrls(body: ChatBody): string[] {
  return (body.messages ?? []).flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part: { type?: string; image_url?: { url?: unknown } }) =>
          part.type === 'image_url' && typeof part.image_url?.url === 'string' ? [part.image_url.url] : [],
        )
      : [],
  );
}

function imageRules(body: ChatBody, context: RuleContext): Rejection | undefined {
  const urls = imageUrls(body);
  const preset = presetOf(context);
  if (preset && !preset.acceptsImages && urls.length > 0) {
    return openAiError(`${context.flavour}: this destination takes no images (acceptsImages false in its provider definition)`, 'messages', null);
  }
  if (preset?.imageUrl === 'base64' || /^glm-/i.test(context.model)) {
    if (urls.some((url) => url.startsWith('data:'))) {
      return { status: 400, message: `${context.flavour ?? 'zhipu'}: data: URL refused`, body: { error: { code: '1210', message: '图片输入格式/解析错误' } } };
    }
  }
  const types = urls.map(dataUrlType).filter((type): type is string => type !== undefined);
  // A Grok model is held to xAI's row wherever it is served.
  const grok = isGrok(context.model, context);
  const accepted = grok ? presetOf({ flavour: 'xai' })?.imageTypes : preset?.imageTypes;
  const bad = accepted && types.find((type) => !accepted.includes(type));
  if (!bad) return undefined;
  if (grok) {
    const message = `Unsupported image format ${bad}: only JPEG and PNG images are supported`;
    return { status: 400, message, body: { code: 'Client specified an invalid argument', error: message } };
  }
  if (context.flavour === 'ollama') return openAiError('invalid image input', null, null);
  return openAiError(`${context.flavour}: unsupported image type ${bad} (takes ${accepted.join(', ')})`, 'messages', null);
}

/** Every destination is held to vLLM's rule: a history call's arguments must be a JSON object. */
function historyArgumentsRule(body: ChatBody): Rejection | undefined {
  for (const [index, message] of (body.messages ?? []).entries()) {
    for (const [position, call] of (message.tool_calls ?? []).entries()) {
      const problem = typeof call.function?.arguments === 'string' ? malformedHistoryArguments(call.function.arguments) : undefined;
      if (problem) return openAiError(`Invalid 'messages[${index}].tool_calls[${position}].function.arguments': ${problem}.`, 'messages', null);
    }
  }
  return undefined;
}

/**
 * OpenRouter with Gemini models: the reasoning details a tool-calling turn came with (they carry
 * Gemini's thought signatures) must come back unchanged with that turn, as OpenRouter answers.
 */
function openRouterRule(body: ChatBody, context: RuleContext): Rejection | undefined {
  if (!presetOf(context)?.replayReasoningDetails || !/gemini/i.test(context.model)) return undefined;
  for (const message of body.messages ?? []) {
    const issued = (message.tool_calls ?? []).map((call) => (call.id ? context.memory.issued(call.id)?.reasoningDetails : undefined)).find(Boolean);
    if (issued && JSON.stringify(message.reasoning_details) !== JSON.stringify(issued)) {
      return openAiError(
        'Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks.',
        null,
        null,
      );
    }
  }
  return undefined;
}

export function openAiRules(value: unknown, context: RuleContext): Rejection | undefined {
  const body = value as ChatBody;
  return (
    openAiLimits(value) ??
    historyArgumentsRule(body) ??
    parameterRules(body, context.model) ??
    deepSeekRule(body, context) ??
    openRouterRule(body, context) ??
    qwenRule(body, context.model) ??
    imageRules(body, context)
  );
}
