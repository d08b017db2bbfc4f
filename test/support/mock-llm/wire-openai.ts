// OpenAI Chat Completions as the mock speaks it: a minimal request schema plus the ordering
// rules the real API enforces (every tool call answered by `tool` messages right after it),
// JSON and SSE rendering, and error bodies.
import { z } from 'zod';
import { mockSignature } from './mock-memory.js';
import { isGrok, isReasoningModel, openAiRules } from './rules-openai.js';
import type { MockTurn } from './script.js';
import {
  argumentsText,
  checkDataUrl,
  halves,
  issueLines,
  sseFrame,
  toolNamePattern,
  usageOf,
  type RenderContext,
  type RuleContext,
  type WireFormat,
} from './wire-common.js';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const imagePart = z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string(), detail: z.string().optional() }) });
const textContent = z.union([z.string(), z.array(textPart)]);

const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['system', 'developer']), content: textContent }),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(z.union([textPart, imagePart])).min(1)]) }),
  z.object({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.null(), z.array(textPart)]).optional(),
    reasoning_content: z.string().optional(),
    tool_calls: z
      .array(z.object({ id: z.string().min(1), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) }))
      .optional(),
  }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: textContent }),
]);

const requestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  tools: z
    .array(
      z.object({
        type: z.literal('function'),
        function: z.object({
          name: z.string().regex(toolNamePattern, 'tool names must match [A-Za-z0-9_-]{1,64}'),
          description: z.string().optional(),
          parameters: z.record(z.string(), z.unknown()).optional(),
        }),
      }),
    )
    .optional(),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.record(z.string(), z.unknown())]).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  stream: z.boolean().optional(),
});

type ChatRequest = z.infer<typeof requestSchema>;

function orderingIssues(messages: ChatRequest['messages']): string[] {
  const issues: string[] = [];
  let pending = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (!pending.delete(message.tool_call_id)) {
        issues.push(`messages.${index}: tool message answers "${message.tool_call_id}", which is not an open call of the preceding assistant message`);
      }
      return;
    }
    if (pending.size > 0) issues.push(`messages.${index}: tool calls ${[...pending].join(', ')} were not answered before this ${message.role} message`);
    pending = new Set(message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : []);
  });
  if (pending.size > 0) issues.push(`the request ends with unanswered tool calls ${[...pending].join(', ')}`);
  return issues;
}

function imageIssues(messages: ChatRequest['messages'], context: RuleContext): string[] {
  // Zhipu takes raw base64 in image_url.url; the rule that refuses data: URLs there is in rules-openai.ts.
  const rawBase64 = context.flavour === 'zhipu' || /^glm-/i.test(context.model);
  return messages.flatMap((message, index) =>
    message.role === 'user' && Array.isArray(message.content)
      ? message.content.flatMap((part, partIndex) =>
          part.type === 'image_url'
            ? [checkDataUrl(part.image_url.url, `messages.${index}.content.${partIndex}`, { rawBase64 })].filter((issue): issue is string => !!issue)
            : [],
        )
      : [],
  );
}

/**
 * OpenRouter's `reasoning_details` for a Gemini model: the reasoning text (when the turn has one)
 * and, with calls, an encrypted item carrying the thought signature, as OpenRouter sends them.
 */
function reasoningDetailsOf(turn: MockTurn, context: RenderContext): unknown[] | undefined {
  if (context.flavour !== 'openrouter' || !/gemini/i.test(context.model)) return undefined;
  const details: unknown[] = [];
  if (turn.reasoning) details.push({ type: 'reasoning.text', text: turn.reasoning, format: 'google-gemini-v1', index: 0 });
  const first = turn.toolCalls?.[0];
  if (first) {
    details.push({
      type: 'reasoning.encrypted',
      data: mockSignature('openrouter', `${context.sequence}:${first.name}`),
      id: first.id ?? `call_mock_${context.sequence}_1`,
      format: 'google-gemini-v1',
      index: details.length,
    });
  }
  return details.length > 0 ? details : undefined;
}

function toolCallsOf(turn: MockTurn, context: RenderContext) {
  const calls = (turn.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_mock_${context.sequence}_${index + 1}`,
    type: 'function' as const,
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  // A thinking model (DeepSeek) wants this reasoning back with these calls; OpenRouter its reasoning details.
  const reasoningDetails = reasoningDetailsOf(turn, context);
  for (const call of calls) {
    context.memory.remember(call.id, {
      ...(turn.reasoning ? { reasoningContent: turn.reasoning } : {}),
      ...(reasoningDetails ? { reasoningDetails } : {}),
    });
  }
  return calls;
}

function finishReason(turn: MockTurn): string {
  // `length` also in the middle of a tool call: the turn's calls then carry cut-off rawArguments.
  if (turn.stopReason === 'max_tokens') return 'length';
  if (turn.stopReason === 'safety') return 'content_filter';
  if ((turn.toolCalls ?? []).length > 0) return 'tool_calls';
  return 'stop';
}

/** OpenAI puts a refusal in `message.refusal`, with no content. */
const refusalOf = (turn: MockTurn) => (turn.stopReason === 'refusal' ? (turn.stopExplanation ?? "I'm sorry, I can't help with that.") : null);

/**
 * OpenAI counts reasoning tokens inside completion_tokens; xAI reports them only in
 * completion_tokens_details (recorded grok-3-mini responses), so its completion_tokens exclude them.
 */
function usageBody(turn: MockTurn, context: RenderContext) {
  const usage = usageOf(turn);
  const separate = isGrok(context.model, context);
  const completion = separate ? usage.outputTokens - usage.reasoningTokens : usage.outputTokens;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: completion,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    ...(usage.reasoningTokens > 0 || isReasoningModel(context.model) || separate
      ? { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }
      : {}),
  };
}

function streamFrames(turn: MockTurn, context: RenderContext, body: unknown): string[] {
  const base = { id: `chatcmpl-mock-${context.sequence}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: context.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sseFrame({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  if (turn.reasoning) frames.push(chunk({ reasoning_content: turn.reasoning }));
  for (const piece of halves(turn.text ?? '')) frames.push(chunk({ content: piece }));
  toolCallsOf(turn, context).forEach((call, index) => {
    frames.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of halves(call.function.arguments)) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  frames.push(chunk({}, finishReason(turn)));
  const includeUsage = (body as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage;
  if (includeUsage) frames.push(sseFrame({ ...base, choices: [], usage: usageBody(turn, context) }));
  frames.push(sseFrame('[DONE]'));
  return frames;
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_exceeded',
};

export const openAiWire: WireFormat = {
  vendor: 'openai',
  validate(body, context) {
    const parsed = requestSchema.safeParse(body);
    if (!parsed.success) return issueLines(parsed.error.issues);
    const issues = [...orderingIssues(parsed.data.messages), ...imageIssues(parsed.data.messages, context)];
    if (parsed.data.max_tokens !== undefined && parsed.data.max_completion_tokens !== undefined) {
      issues.push('max_tokens and max_completion_tokens are mutually exclusive');
    }
    return issues;
  },
  rules: openAiRules,
  modelOf: (body) => String((body as { model?: unknown }).model ?? ''),
  wantsStream: (body) => (body as { stream?: unknown }).stream === true,
  renderJson(turn, context) {
    const toolCalls = toolCallsOf(turn, context);
    return {
      id: `chatcmpl-mock-${context.sequence}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: context.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: refusalOf(turn) ? null : (turn.text ?? null),
            ...(turn.reasoning && context.flavour !== 'openrouter' ? { reasoning_content: turn.reasoning } : {}),
            ...(turn.reasoning && context.flavour === 'openrouter' ? { reasoning: turn.reasoning } : {}),
            ...(reasoningDetailsOf(turn, context) ? { reasoning_details: reasoningDetailsOf(turn, context) } : {}),
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            refusal: refusalOf(turn),
          },
          logprobs: null,
          finish_reason: finishReason(turn),
        },
      ],
      usage: usageBody(turn, context),
    };
  },
  renderStream: streamFrames,
  renderError: (status, message, _retryAfterMs, extras) => ({
    error: {
      message,
      type: errorTypes[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: extras?.param ?? null,
      code: extras?.code ?? null,
    },
  }),
};

const embeddingRequestSchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string().min(1), z.array(z.string().min(1, 'input strings must not be empty')).min(1)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().positive().optional(),
});

export function validateEmbeddingRequest(body: unknown): string[] {
  const parsed = embeddingRequestSchema.safeParse(body);
  return parsed.success ? [] : issueLines(parsed.error.issues);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Deterministic vectors from hashed character trigrams: similar texts get similar vectors. */
export function mockEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)) {
    const padded = ` ${word} `;
    for (let index = 0; index + 3 <= padded.length; index += 1) {
      const hash = fnv1a(padded.slice(index, index + 3));
      vector[hash % dimensions]! += hash & 0x80000000 ? -1 : 1;
    }
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) return vector.map((_, index) => (index === 0 ? 1 : 0));
  return vector.map((value) => value / norm);
}

export function renderEmbeddings(body: unknown, defaultDimensions: number): unknown {
  const request = embeddingRequestSchema.parse(body);
  const inputs = Array.isArray(request.input) ? request.input : [request.input];
  const dimensions = request.dimensions ?? defaultDimensions;
  return {
    object: 'list',
    model: request.model,
    data: inputs.map((text, index) => {
      const vector = mockEmbedding(text, dimensions);
      const embedding = request.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    }),
    usage: { prompt_tokens: inputs.join(' ').length, total_tokens: inputs.join(' ').length },
  };
}
