// The OpenAI Responses API as the mock speaks it: input items (messages, function calls and
// their outputs, images inside outputs, reasoning items), the rule that every function call in
// the input has an output and every output answers an earlier call, JSON rendering and a
// minimal event stream. Reasoning rules: `include: ["reasoning.encrypted_content"]` only on
// reasoning models; with `store: false` a reasoning item passed back needs its encrypted content,
// and (stricter than the API, which silently drops it) a call issued with a reasoning item must
// come back with that item, or the model loses its reasoning every round.
import { z } from 'zod';
import { mockSignature } from './mock-memory.js';
import { malformedHistoryArguments, openAiLimits } from './rules-limits.js';
import { isReasoningModel } from './rules-openai.js';
import type { MockTurn } from './script.js';
import {
  argumentsText,
  checkDataUrl,
  issueLines,
  sseFrame,
  toolNamePattern,
  usageOf,
  type Rejection,
  type RenderContext,
  type RuleContext,
  type WireFormat,
} from './wire-common.js';

const inputPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input_text'), text: z.string() }),
  z.object({ type: z.literal('output_text'), text: z.string() }),
  z.object({ type: z.literal('input_image'), image_url: z.string(), detail: z.string().nullish() }),
]);

const item = z.union([
  z.object({
    type: z.literal('message').optional(),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([z.string(), z.array(inputPart).min(1)]),
  }),
  z.object({ type: z.literal('function_call'), call_id: z.string().min(1), name: z.string(), arguments: z.string() }),
  z.object({ type: z.literal('function_call_output'), call_id: z.string().min(1), output: z.union([z.string(), z.array(inputPart).min(1)]) }),
  z.object({
    type: z.literal('reasoning'),
    id: z.string().min(1),
    summary: z.array(z.object({ type: z.literal('summary_text'), text: z.string() })),
    encrypted_content: z.string().nullish(),
  }),
]);

const requestSchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(item).min(1)]),
  instructions: z.string().nullish(),
  tools: z
    .array(
      z.object({
        type: z.literal('function'),
        name: z.string().regex(toolNamePattern, 'tool names must match [A-Za-z0-9_-]{1,64}'),
        parameters: z.record(z.string(), z.unknown()).nullish(),
      }),
    )
    .optional(),
  max_output_tokens: z.number().int().positive().nullish(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
  temperature: z.number().nullish(),
});

type Body = z.infer<typeof requestSchema>;

function openAiError(message: string, param: string | null, code: string | null = null): Rejection {
  return { status: 400, message, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

function reasoningRules(value: unknown, context: RuleContext): Rejection | undefined {
  const limited = openAiLimits(value);
  if (limited) return limited;
  const body = value as Body;
  const encrypted = (body.include ?? []).includes('reasoning.encrypted_content');
  if (encrypted && !isReasoningModel(context.model)) return openAiError('Encrypted content is not supported with this model.', 'include');
  if (isReasoningModel(context.model) && body.temperature !== undefined && body.temperature !== null && body.temperature !== 1) {
    return openAiError(`Unsupported parameter: 'temperature' is not supported with this model.`, 'temperature', 'unsupported_parameter');
  }
  const items = typeof body.input === 'string' ? [] : body.input;
  const stateless = body.store === false;
  for (const [index, entry] of items.entries()) {
    if (entry.type === 'reasoning' && stateless && !entry.encrypted_content) {
      return openAiError(
        `Item with id '${entry.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        'input',
      );
    }
    if (entry.type === 'reasoning' && entry.encrypted_content && entry.encrypted_content !== mockSignature('reasoning', entry.id)) {
      return openAiError(`The encrypted content for item ${entry.id} could not be verified.`, 'input');
    }
    const malformed = entry.type === 'function_call' ? malformedHistoryArguments(entry.arguments) : undefined;
    if (malformed) return openAiError(`Invalid 'input[${index}].arguments': ${malformed}.`, `input[${index}].arguments`);
    if (entry.type !== 'function_call' || !stateless) continue;
    const issued = context.memory.issued(entry.call_id)?.reasoningItem;
    const passedBack = items.slice(0, index).some((earlier) => earlier.type === 'reasoning' && earlier.id === issued?.id);
    if (issued && !passedBack) {
      return openAiError(
        `mock LLM (stricter than the API): function call ${entry.call_id} was issued after reasoning item ${issued.id}; with store: false that item (with its encrypted_content) must be passed back before the call, or the model loses its reasoning`,
        'input',
      );
    }
  }
  return undefined;
}

type Item = z.infer<typeof item>;

function inputIssues(items: Item[]): string[] {
  const issues: string[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  items.forEach((entry, index) => {
    const parts = 'content' in entry && Array.isArray(entry.content) ? entry.content : 'output' in entry && Array.isArray(entry.output) ? entry.output : [];
    parts.forEach((part, partIndex) => {
      const issue = part.type === 'input_image' ? checkDataUrl(part.image_url, `input.${index}.${partIndex}`) : undefined;
      if (issue) issues.push(issue);
    });
    if (entry.type === 'function_call') calls.add(entry.call_id);
    if (entry.type === 'function_call_output') {
      if (!calls.has(entry.call_id)) issues.push(`input.${index}: no function call found for output with call_id ${entry.call_id}`);
      answered.add(entry.call_id);
    }
  });
  const missing = [...calls].filter((id) => !answered.has(id));
  if (missing.length > 0) issues.push(`no tool output found for function call ${missing.join(', ')}`);
  return issues;
}

function responseBody(turn: MockTurn, context: RenderContext) {
  const usage = usageOf(turn);
  const output: Array<Record<string, unknown>> = [];
  const reasoningId = `rs_mock_${context.sequence}`;
  const include = ((context.body as { include?: unknown }).include ?? []) as unknown[];
  const encrypted = include.includes('reasoning.encrypted_content') ? mockSignature('reasoning', reasoningId) : undefined;
  if (turn.reasoning) {
    output.push({
      type: 'reasoning',
      id: reasoningId,
      summary: [{ type: 'summary_text', text: turn.reasoning }],
      ...(encrypted ? { encrypted_content: encrypted } : {}),
    });
  }
  if (turn.stopReason === 'refusal') {
    output.push({
      type: 'message',
      id: `msg_mock_${context.sequence}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'refusal', refusal: turn.stopExplanation ?? "I'm sorry, I can't help with that." }],
    });
  } else if (turn.text) {
    output.push({
      type: 'message',
      id: `msg_mock_${context.sequence}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    const callId = call.id ?? `call_mock_${context.sequence}_${index + 1}`;
    if (turn.reasoning) context.memory.remember(callId, { reasoningItem: { id: reasoningId, ...(encrypted ? { encryptedContent: encrypted } : {}) } });
    output.push({
      type: 'function_call',
      id: `fc_mock_${context.sequence}_${index + 1}`,
      call_id: callId,
      name: call.name,
      arguments: argumentsText(call),
      status: 'completed',
    });
  });
  const incomplete = turn.stopReason === 'max_tokens' ? 'max_output_tokens' : turn.stopReason === 'safety' ? 'content_filter' : undefined;
  return {
    id: `resp_mock_${context.sequence}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: incomplete } : null,
    model: context.model,
    output,
    usage: {
      input_tokens: usage.inputTokens,
      input_tokens_details: { cached_tokens: usage.cachedTokens },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
}

export const responsesWire: WireFormat = {
  vendor: 'openai-responses',
  validate(body) {
    const parsed = requestSchema.safeParse(body);
    if (!parsed.success) return issueLines(parsed.error.issues);
    return typeof parsed.data.input === 'string' ? [] : inputIssues(parsed.data.input);
  },
  rules: reasoningRules,
  modelOf: (body) => String((body as { model?: unknown }).model ?? ''),
  wantsStream: (body) => (body as { stream?: unknown }).stream === true,
  renderJson: responseBody,
  renderStream(turn, context) {
    const full = responseBody(turn, context);
    return [
      sseFrame({ type: 'response.created', sequence_number: 0, response: { ...full, status: 'in_progress', output: [], usage: null } }, 'response.created'),
      sseFrame({ type: 'response.completed', sequence_number: 1, response: full }, 'response.completed'),
    ];
  },
  renderError: (status, message, _retryAfterMs, extras) => ({
    error: {
      message,
      type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param: extras?.param ?? null,
      code: extras?.code ?? null,
    },
  }),
};
