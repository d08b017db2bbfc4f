// Gemini generateContent as the mock speaks it: `user` / `model` contents with parts, the
// function-calling rule the real API enforces (a model turn with N function calls is answered
// by N function responses in the next user turn, matching names and ids), JSON and SSE.
import { z } from 'zod';
import type { MockTurn } from './script.js';
import { argumentsValue, checkImage, issueLines, sseFrame, toolNamePattern, usageOf, type RenderContext, type WireFormat } from './wire-common.js';

const partSchema = z.looseObject({
  text: z.string().optional(),
  inlineData: z.object({ mimeType: z.string(), data: z.string() }).optional(),
  functionCall: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() }).optional(),
  functionResponse: z.object({ name: z.string(), response: z.record(z.string(), z.unknown()), id: z.string().optional() }).optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
});

const requestSchema = z.object({
  contents: z.array(z.object({ role: z.enum(['user', 'model']), parts: z.array(partSchema).min(1) })).min(1),
  systemInstruction: z.object({ parts: z.array(z.object({ text: z.string() })).min(1) }).optional(),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z
          .array(
            z.object({
              name: z.string().regex(toolNamePattern, 'function names must match [A-Za-z0-9_-]{1,64}'),
              description: z.string().optional(),
              parameters: z.record(z.string(), z.unknown()).optional(),
              parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  generationConfig: z.record(z.string(), z.unknown()).optional(),
});

type Content = z.infer<typeof requestSchema>['contents'][number];

function callIssues(contents: Content[]): string[] {
  const issues: string[] = [];
  contents.forEach((content, index) => {
    content.parts.forEach((part, partIndex) => {
      if (part.inlineData) {
        const issue = checkImage(part.inlineData.mimeType, part.inlineData.data, `contents.${index}.parts.${partIndex}`);
        if (issue) issues.push(issue);
      }
      if (part.functionCall && content.role !== 'model') issues.push(`contents.${index}.parts.${partIndex}: functionCall outside a model turn`);
    });
    const responses = content.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    const previous = contents[index - 1];
    const calls = previous?.role === 'model' ? previous.parts.flatMap((part) => (part.functionCall ? [part.functionCall] : [])) : [];
    if (responses.length > 0 && calls.length === 0) issues.push(`contents.${index}: function responses without a preceding function call turn`);
    if (calls.length === 0) return;
    if (responses.length !== calls.length) {
      issues.push(`contents.${index}: ${calls.length} function calls need ${calls.length} function responses, got ${responses.length}`);
    }
    const names = (list: Array<{ name: string }>) => list.map((item) => item.name).sort().join(',');
    if (names(calls) !== names(responses)) issues.push(`contents.${index}: function response names (${names(responses)}) do not match the calls (${names(calls)})`);
    for (const call of calls) {
      if (call.id && !responses.some((response) => response.id === call.id)) issues.push(`contents.${index}: no function response with id ${call.id}`);
    }
  });
  return issues;
}

function partsOf(turn: MockTurn): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = [];
  if (turn.reasoning) parts.push({ text: turn.reasoning, thought: true });
  if (turn.text) parts.push({ text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    // Like the Gemini Developer API, no call ids unless the script names one.
    parts.push({ functionCall: { name: call.name, args: argumentsValue(call), ...(call.id ? { id: call.id } : {}) } });
  }
  return parts;
}

function usageBody(turn: MockTurn) {
  const usage = usageOf(turn);
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(usage.cachedTokens > 0 ? { cachedContentTokenCount: usage.cachedTokens } : {}),
  };
}

function responseBody(parts: Array<Record<string, unknown>>, context: RenderContext, finish?: string, usage?: unknown) {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
    ...(usage ? { usageMetadata: usage } : {}),
    modelVersion: context.model,
    responseId: `mock-${context.sequence}`,
  };
}

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE',
};

export const geminiWire: WireFormat = {
  vendor: 'gemini',
  validate(body) {
    const parsed = requestSchema.safeParse(body);
    return parsed.success ? callIssues(parsed.data.contents) : issueLines(parsed.error.issues);
  },
  modelOf: (_body, pathModel) => pathModel ?? '',
  wantsStream: (_body, streamPath) => streamPath,
  renderJson: (turn, context) => responseBody(partsOf(turn), context, turn.stopReason === 'max_tokens' ? 'MAX_TOKENS' : 'STOP', usageBody(turn)),
  renderStream(turn, context) {
    const parts = partsOf(turn);
    const finish = turn.stopReason === 'max_tokens' ? 'MAX_TOKENS' : 'STOP';
    const frames = parts.slice(0, -1).map((part) => sseFrame(responseBody([part], context)));
    frames.push(sseFrame(responseBody(parts.slice(-1), context, finish, usageBody(turn))));
    return frames;
  },
  renderError: (status, message, retryAfterMs) => ({
    error: {
      code: status,
      message,
      status: statusNames[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
      ...(retryAfterMs !== undefined
        ? { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(retryAfterMs / 1000).toFixed(3)}s` }] }
        : {}),
    },
  }),
};
