// Anthropic Messages as the mock speaks it. Besides the shape, it enforces the turn rules the
// real API has: start with user, alternate roles, answer every tool_use in the next user turn
// with tool_result blocks that come first, and (stricter than the API, on purpose) never end on
// an assistant turn, which the API would silently treat as a prefill (reference bug 6).
import { z } from 'zod';
import type { MockTurn } from './script.js';
import {
  argumentsValue,
  checkImage,
  halves,
  issueLines,
  sseFrame,
  toolNamePattern,
  usageOf,
  type RenderContext,
  type WireFormat,
} from './wire-common.js';

const textBlock = z.object({ type: z.literal('text'), text: z.string().min(1, 'text content blocks must be non-empty') });
const imageBlock = z.object({
  type: z.literal('image'),
  source: z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
});
const toolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string(), input: z.record(z.string(), z.unknown()) });
const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]).optional(),
  is_error: z.boolean().optional(),
});
const block = z.discriminatedUnion('type', [textBlock, imageBlock, toolUseBlock, toolResultBlock]);

const requestSchema = z.object({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.union([z.string().min(1), z.array(block).min(1)]) })).min(1),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  tools: z
    .array(
      z.object({
        name: z.string().regex(toolNamePattern, 'tool names must match [A-Za-z0-9_-]{1,64}'),
        description: z.string().optional(),
        input_schema: z.looseObject({ type: z.literal('object') }),
      }),
    )
    .optional(),
  stream: z.boolean().optional(),
});

type Message = z.infer<typeof requestSchema>['messages'][number];
type Block = z.infer<typeof block>;

const blocksOf = (message: Message | undefined): Block[] => (message && Array.isArray(message.content) ? message.content : []);

function imageIssues(where: string, blocks: readonly Block[]): string[] {
  return blocks.flatMap((item, index) => {
    if (item.type === 'image') return [checkImage(item.source.media_type, item.source.data, `${where}.${index}`)].filter((x): x is string => !!x);
    if (item.type === 'tool_result' && Array.isArray(item.content)) return imageIssues(`${where}.${index}.content`, item.content);
    return [];
  });
}

function turnIssues(messages: Message[]): string[] {
  const issues: string[] = [];
  if (messages[0]?.role !== 'user') issues.push('messages.0: the first message must use the user role');
  if (messages.at(-1)?.role === 'assistant') issues.push('the request ends on an assistant turn (it would be taken as a prefill)');
  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    if (index > 0 && messages[index - 1]?.role === message.role) issues.push(`messages.${index}: two ${message.role} turns in a row`);
    if (message.role === 'assistant' && blocks.some((item) => item.type === 'image' || item.type === 'tool_result')) {
      issues.push(`messages.${index}: assistant turns cannot hold images or tool results`);
    }
    if (message.role === 'user' && blocks.some((item) => item.type === 'tool_use')) issues.push(`messages.${index}: user turns cannot hold tool_use`);
    issues.push(...imageIssues(`messages.${index}.content`, blocks));
    const calls = blocks.flatMap((item) => (item.type === 'tool_use' ? [item.id] : []));
    if (calls.length === 0) return;
    const next = blocksOf(messages[index + 1]);
    const answered = next.flatMap((item) => (item.type === 'tool_result' ? [item.tool_use_id] : []));
    const missing = calls.filter((id) => !answered.includes(id));
    if (index + 1 < messages.length && missing.length > 0) issues.push(`messages.${index + 1}: no tool_result for tool_use ${missing.join(', ')}`);
    const firstOther = next.findIndex((item) => item.type !== 'tool_result');
    if (firstOther >= 0 && next.slice(firstOther).some((item) => item.type === 'tool_result')) {
      issues.push(`messages.${index + 1}: tool_result blocks must come before any other content`);
    }
  });
  messages.forEach((message, index) => {
    const known = new Set(blocksOf(messages[index - 1]).flatMap((item) => (item.type === 'tool_use' ? [item.id] : [])));
    for (const item of blocksOf(message)) {
      if (item.type === 'tool_result' && !known.has(item.tool_use_id)) {
        issues.push(`messages.${index}: tool_result for unknown tool_use_id ${item.tool_use_id}`);
      }
    }
  });
  return issues;
}

function contentOf(turn: MockTurn, context: RenderContext) {
  const content: Array<Record<string, unknown>> = [];
  if (turn.reasoning) content.push({ type: 'thinking', thinking: turn.reasoning, signature: 'mock-signature' });
  if (turn.text) content.push({ type: 'text', text: turn.text });
  (turn.toolCalls ?? []).forEach((call, index) => {
    content.push({ type: 'tool_use', id: call.id ?? `toolu_mock_${context.sequence}_${index + 1}`, name: call.name, input: argumentsValue(call) });
  });
  return content;
}

function stopReason(turn: MockTurn): string {
  if ((turn.toolCalls ?? []).length > 0) return 'tool_use';
  return turn.stopReason === 'max_tokens' ? 'max_tokens' : 'end_turn';
}

function usageBody(turn: MockTurn) {
  const usage = usageOf(turn);
  return {
    input_tokens: usage.inputTokens - usage.cachedTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cachedTokens,
    cache_creation_input_tokens: 0,
  };
}

function streamFrames(turn: MockTurn, context: RenderContext): string[] {
  const message = { id: `msg_mock_${context.sequence}`, type: 'message', role: 'assistant', model: context.model, content: [], stop_reason: null, stop_sequence: null };
  const frames = [sseFrame({ type: 'message_start', message: { ...message, usage: { ...usageBody(turn), output_tokens: 1 } } }, 'message_start')];
  contentOf(turn, context).forEach((item, index) => {
    const start =
      item.type === 'tool_use' ? { ...item, input: {} } : item.type === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' };
    frames.push(sseFrame({ type: 'content_block_start', index, content_block: start }, 'content_block_start'));
    const pieces =
      item.type === 'tool_use'
        ? halves(typeof item.input === 'string' ? item.input : JSON.stringify(item.input)).map((partial_json) => ({ type: 'input_json_delta', partial_json }))
        : item.type === 'thinking'
          ? [{ type: 'thinking_delta', thinking: item.thinking }, { type: 'signature_delta', signature: item.signature }]
          : halves(String(item.text)).map((text) => ({ type: 'text_delta', text }));
    for (const delta of pieces) frames.push(sseFrame({ type: 'content_block_delta', index, delta }, 'content_block_delta'));
    frames.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  frames.push(sseFrame({ type: 'message_delta', delta: { stop_reason: stopReason(turn), stop_sequence: null }, usage: { output_tokens: usageOf(turn).outputTokens } }, 'message_delta'));
  frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'));
  return frames;
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 529: 'overloaded_error',
};

export const anthropicWire: WireFormat = {
  vendor: 'anthropic',
  validate(body) {
    const parsed = requestSchema.safeParse(body);
    return parsed.success ? turnIssues(parsed.data.messages) : issueLines(parsed.error.issues);
  },
  modelOf: (body) => String((body as { model?: unknown }).model ?? ''),
  wantsStream: (body) => (body as { stream?: unknown }).stream === true,
  renderJson: (turn, context) => ({
    id: `msg_mock_${context.sequence}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: contentOf(turn, context),
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: usageBody(turn),
  }),
  renderStream: streamFrames,
  renderError: (status, message) => ({ type: 'error', error: { type: errorTypes[status] ?? 'api_error', message } }),
};
