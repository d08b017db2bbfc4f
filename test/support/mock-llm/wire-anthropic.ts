// Anthropic Messages as the mock speaks it. Besides the shape, it enforces the turn rules the
// real API has: start with user, alternate roles, answer every tool_use in the next user turn
// with tool_result blocks that come first, define tools whenever the history holds tool blocks,
// and return signed thinking unchanged: a final assistant turn whose calls came with thinking
// must start with that thinking block. Stricter than the API, on purpose: never end on an
// assistant turn, which the API would silently treat as a prefill.
import { z } from 'zod';
import { mockSignature } from './mock-memory.js';
import { anthropicLimits } from './rules-limits.js';
import type { MockTurn } from './script.js';
import {
  argumentsValue,
  bodyText,
  checkImage,
  halves,
  issueLines,
  sseFrame,
  toolNamePattern,
  usageOf,
  type Rejection,
  type RenderContext,
  type RuleContext,
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
const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
const block = z.discriminatedUnion('type', [textBlock, imageBlock, toolUseBlock, toolResultBlock, thinkingBlock, redactedThinkingBlock]);

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
    if (message.role === 'user' && blocks.some((item) => item.type === 'thinking' || item.type === 'redacted_thinking')) {
      issues.push(`messages.${index}: user turns cannot hold thinking blocks`);
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

const errorBody = (message: string): Rejection => ({ status: 400, message, body: { type: 'error', error: { type: 'invalid_request_error', message } } });

/** The rules that span turns or need the tool list (the shape and turn order are checked first). */
function anthropicRules(value: unknown, context: RuleContext): Rejection | undefined {
  const limited = anthropicLimits(value);
  if (limited) return limited;
  const body = value as { tools?: unknown[]; messages: Message[] };
  const all = body.messages.flatMap((message, index) => blocksOf(message).map((item, position) => ({ item, index, position })));
  if ((body.tools ?? []).length === 0 && all.some(({ item }) => item.type === 'tool_use' || item.type === 'tool_result')) {
    return errorBody('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  }
  for (const { item, index, position } of all) {
    if (item.type === 'thinking' && item.signature !== mockSignature('thinking', item.thinking)) {
      return errorBody(`messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block`);
    }
    if (item.type === 'redacted_thinking' && !context.memory.isIssuedSignature(item.data)) {
      return errorBody(`messages.${index}.content.${position}: Invalid \`data\` in \`redacted_thinking\` block`);
    }
  }
  const lastAssistant = body.messages.findLastIndex((message) => message.role === 'assistant');
  const blocks = blocksOf(body.messages[lastAssistant]);
  const thought = blocks.some((item) => item.type === 'tool_use' && context.memory.issued(item.id)?.thinking);
  const first = blocks[0]?.type;
  if (thought && first !== 'thinking' && first !== 'redacted_thinking') {
    return errorBody(
      `messages.${lastAssistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first ?? 'nothing'}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
    );
  }
  return undefined;
}

function contentOf(turn: MockTurn, context: RenderContext) {
  const content: Array<Record<string, unknown>> = [];
  if (turn.redactedReasoning) content.push({ type: 'redacted_thinking', data: turn.redactedReasoning });
  if (turn.reasoning) content.push({ type: 'thinking', thinking: turn.reasoning, signature: mockSignature('thinking', turn.reasoning) });
  const thinking = content[0] as { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string } | undefined;
  if (turn.text) content.push({ type: 'text', text: turn.text });
  (turn.toolCalls ?? []).forEach((call, index) => {
    const id = call.id ?? `toolu_mock_${context.sequence}_${index + 1}`;
    if (thinking) context.memory.remember(id, { thinking });
    content.push({ type: 'tool_use', id, name: call.name, input: argumentsValue(call) });
  });
  return content;
}

const stopReasons: Record<string, string> = {
  max_tokens: 'max_tokens',
  refusal: 'refusal',
  safety: 'refusal',
  paused: 'pause_turn',
  context_exceeded: 'model_context_window_exceeded',
};

function stopReason(turn: MockTurn): string {
  if ((turn.toolCalls ?? []).length > 0) return 'tool_use';
  return stopReasons[turn.stopReason ?? ''] ?? 'end_turn';
}

/** A refusal carries stop_details (Anthropic's streaming-refusal docs show its shape). */
function stopDetails(turn: MockTurn) {
  if (stopReason(turn) !== 'refusal') return null;
  return { type: 'refusal', category: 'cyber', explanation: turn.stopExplanation ?? 'This request was declined.' };
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
  const message = {
    id: `msg_mock_${context.sequence}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
  };
  const frames = [sseFrame({ type: 'message_start', message: { ...message, usage: { ...usageBody(turn), output_tokens: 1 } } }, 'message_start')];
  contentOf(turn, context).forEach((item, index) => {
    const start =
      item.type === 'tool_use'
        ? { ...item, input: {} }
        : item.type === 'thinking'
          ? { type: 'thinking', thinking: '', signature: '' }
          : item.type === 'redacted_thinking'
            ? item
            : { type: 'text', text: '' };
    frames.push(sseFrame({ type: 'content_block_start', index, content_block: start }, 'content_block_start'));
    const pieces =
      item.type === 'redacted_thinking'
        ? []
        : item.type === 'tool_use'
          ? halves(typeof item.input === 'string' ? item.input : bodyText(item.input)).map((partial_json) => ({ type: 'input_json_delta', partial_json }))
          : item.type === 'thinking'
            ? [
                { type: 'thinking_delta', thinking: item.thinking },
                { type: 'signature_delta', signature: item.signature },
              ]
            : halves(String(item.text)).map((text) => ({ type: 'text_delta', text }));
    for (const delta of pieces) frames.push(sseFrame({ type: 'content_block_delta', index, delta }, 'content_block_delta'));
    frames.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  frames.push(
    sseFrame(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason(turn), stop_sequence: null, stop_details: stopDetails(turn) },
        usage: { output_tokens: usageOf(turn).outputTokens },
      },
      'message_delta',
    ),
  );
  frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'));
  return frames;
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export const anthropicWire: WireFormat = {
  vendor: 'anthropic',
  validate(body) {
    const parsed = requestSchema.safeParse(body);
    return parsed.success ? turnIssues(parsed.data.messages) : issueLines(parsed.error.issues);
  },
  rules: anthropicRules,
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
    ...(stopDetails(turn) ? { stop_details: stopDetails(turn) } : {}),
    usage: usageBody(turn),
  }),
  renderStream: streamFrames,
  renderError: (status, message) => ({ type: 'error', error: { type: errorTypes[status] ?? 'api_error', message } }),
};
