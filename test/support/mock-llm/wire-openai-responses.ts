// The OpenAI Responses API as the mock speaks it: input items (messages, function calls and
// their outputs, images inside outputs), the rule that every function call in the input has an
// output and every output answers an earlier call, JSON rendering and a minimal event stream.
import { z } from 'zod';
import type { MockTurn } from './script.js';
import { argumentsText, checkDataUrl, issueLines, sseFrame, toolNamePattern, usageOf, type RenderContext, type WireFormat } from './wire-common.js';

const inputPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input_text'), text: z.string() }),
  z.object({ type: z.literal('output_text'), text: z.string() }),
  z.object({ type: z.literal('input_image'), image_url: z.string(), detail: z.string().nullish() }),
]);

const item = z.union([
  z.object({ type: z.literal('message').optional(), role: z.enum(['user', 'assistant', 'system', 'developer']), content: z.union([z.string(), z.array(inputPart).min(1)]) }),
  z.object({ type: z.literal('function_call'), call_id: z.string().min(1), name: z.string(), arguments: z.string() }),
  z.object({ type: z.literal('function_call_output'), call_id: z.string().min(1), output: z.union([z.string(), z.array(inputPart).min(1)]) }),
]);

const requestSchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(item).min(1)]),
  instructions: z.string().nullish(),
  tools: z
    .array(z.object({ type: z.literal('function'), name: z.string().regex(toolNamePattern, 'tool names must match [A-Za-z0-9_-]{1,64}'), parameters: z.record(z.string(), z.unknown()).nullish() }))
    .optional(),
  max_output_tokens: z.number().int().positive().nullish(),
  stream: z.boolean().nullish(),
});

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
  if (turn.reasoning) output.push({ type: 'reasoning', id: `rs_mock_${context.sequence}`, summary: [{ type: 'summary_text', text: turn.reasoning }] });
  if (turn.text) {
    output.push({ type: 'message', id: `msg_mock_${context.sequence}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] });
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    output.push({ type: 'function_call', id: `fc_mock_${context.sequence}_${index + 1}`, call_id: call.id ?? `call_mock_${context.sequence}_${index + 1}`, name: call.name, arguments: argumentsText(call), status: 'completed' });
  });
  const truncated = turn.stopReason === 'max_tokens';
  return {
    id: `resp_mock_${context.sequence}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: truncated ? 'incomplete' : 'completed',
    incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
    model: context.model,
    output,
    usage: {
      input_tokens: usage.inputTokens,
      input_tokens_details: { cached_tokens: usage.cachedTokens },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
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
  renderError: (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } }),
};
