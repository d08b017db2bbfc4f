// Gemini generateContent as the mock speaks it: `user` / `model` contents with parts, the
// function-calling rule the real API enforces (a model turn with N function calls is answered
// by N function responses in the next user turn, matching names and ids), JSON and SSE.
// Model-family rules: Gemini 3 signs the first call of each turn and wants the signature back;
// its tool images go inside functionResponse.parts (side-by-side parts, right for 2.x, are
// reported to fail on 3), while 2.x does not take functionResponse.parts. No model takes GIF.
import { z } from 'zod';
import { mockSignature } from './mock-memory.js';
import { geminiFunctionName, geminiFunctionNameMessage, geminiLimits } from './rules-limits.js';
import type { MockTurn } from './script.js';
import {
  argumentsValue,
  checkImage,
  issueLines,
  sseFrame,
  usageOf,
  type Rejection,
  type RenderContext,
  type RuleContext,
  type WireFormat,
} from './wire-common.js';

const partSchema = z.looseObject({
  text: z.string().optional(),
  inlineData: z.object({ mimeType: z.string(), data: z.string() }).optional(),
  functionCall: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() }).optional(),
  functionResponse: z
    .object({
      name: z.string(),
      response: z.record(z.string(), z.unknown()),
      id: z.string().optional(),
      parts: z.array(z.object({ inlineData: z.object({ mimeType: z.string(), data: z.string() }) })).optional(),
    })
    .optional(),
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
              name: z.string().regex(geminiFunctionName, geminiFunctionNameMessage),
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
  toolConfig: z.record(z.string(), z.unknown()).optional(),
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
      for (const named of [part.functionCall, part.functionResponse]) {
        if (named && !geminiFunctionName.test(named.name)) issues.push(`contents.${index}.parts.${partIndex}: ${geminiFunctionNameMessage}`);
      }
    });
    const responses = content.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    const previous = contents[index - 1];
    const calls = previous?.role === 'model' ? previous.parts.flatMap((part) => (part.functionCall ? [part.functionCall] : [])) : [];
    if (responses.length > 0 && calls.length === 0) issues.push(`contents.${index}: function responses without a preceding function call turn`);
    if (calls.length === 0) return;
    if (responses.length !== calls.length) {
      issues.push(`contents.${index}: ${calls.length} function calls need ${calls.length} function responses, got ${responses.length}`);
    }
    const names = (list: Array<{ name: string }>) =>
      list
        .map((item) => item.name)
        .sort()
        .join(',');
    if (names(calls) !== names(responses))
      issues.push(`contents.${index}: function response names (${names(responses)}) do not match the calls (${names(calls)})`);
    for (const call of calls) {
      if (call.id && !responses.some((response) => response.id === call.id)) issues.push(`contents.${index}: no function response with id ${call.id}`);
    }
  });
  return issues;
}

const isGemini3 = (model: string) => /^gemini-3/i.test(model);
/** Stand-ins the Gemini docs accept for calls whose signature is unknown. */
const documentedSkips = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);
const acceptedImageTypes = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']);

function invalidArgument(message: string): Rejection {
  return { status: 400, message, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } };
}

type Body = z.infer<typeof requestSchema>;

function imageRule(body: Body): Rejection | undefined {
  for (const content of body.contents) {
    for (const part of content.parts) {
      const types = [part.inlineData?.mimeType, ...(part.functionResponse?.parts ?? []).map((inner) => inner.inlineData.mimeType)];
      const bad = types.find((type) => type !== undefined && !acceptedImageTypes.has(type));
      if (bad) return invalidArgument(`Unsupported MIME type: ${bad}`);
    }
  }
  return undefined;
}

/** Gemini 3: every model turn of the current turn must sign its first function call. */
function signatureRule(body: Body, context: RuleContext): Rejection | undefined {
  const lastUserText = body.contents.findLastIndex((content) => content.role === 'user' && content.parts.some((part) => !part.functionResponse));
  for (const content of body.contents.slice(lastUserText + 1)) {
    const calls = content.parts.filter((part) => part.functionCall);
    const first = calls[0];
    if (content.role !== 'model' || !first) continue;
    const signature = first.thoughtSignature;
    if (!signature) {
      return invalidArgument(
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall?.name ?? ''}\` , position 1. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    }
    if (!documentedSkips.has(signature) && !context.memory.isIssuedSignature(signature)) return invalidArgument('Corrupted thought signature.');
  }
  return undefined;
}

function toolImageRule(body: Body, model: string): Rejection | undefined {
  for (const [index, content] of body.contents.entries()) {
    const answers = content.parts.some((part) => part.functionResponse);
    if (isGemini3(model) && answers && content.parts.some((part) => part.inlineData)) {
      return invalidArgument(
        `contents[${index}]: images returned by tools belong in functionResponse.parts on Gemini 3 (mock rule: side-by-side parts are reported to fail)`,
      );
    }
    if (!isGemini3(model) && content.parts.some((part) => part.functionResponse?.parts)) {
      return invalidArgument(`contents[${index}]: multimodal function responses (functionResponse.parts) are supported on Gemini 3 models only (mock rule)`);
    }
  }
  return undefined;
}

function geminiRules(value: unknown, context: RuleContext): Rejection | undefined {
  const body = value as Body;
  const declarations = (body.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  if (body.toolConfig && declarations.length === 0) return invalidArgument('Function calling config is set without function_declarations.');
  return geminiLimits(body) ?? imageRule(body) ?? (isGemini3(context.model) ? signatureRule(body, context) : undefined) ?? toolImageRule(body, context.model);
}

function partsOf(turn: MockTurn, context: RenderContext): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = [];
  if (turn.stopReason === 'malformed_call') return parts;
  if (turn.reasoning) parts.push({ text: turn.reasoning, thought: true });
  if (turn.text) parts.push({ text: turn.text });
  (turn.toolCalls ?? []).forEach((call, index) => {
    // Like the Gemini Developer API, no call ids unless the script names one. Gemini 3 signs the first call.
    const signature = isGemini3(context.model) && index === 0 ? mockSignature('gemini', `${context.sequence}:${call.name}`) : undefined;
    if (signature) context.memory.remember(`gemini-${context.sequence}`, { thoughtSignature: signature });
    parts.push({
      functionCall: { name: call.name, args: argumentsValue(call, { plain: true }), ...(call.id ? { id: call.id } : {}) },
      ...(signature ? { thoughtSignature: signature } : {}),
    });
  });
  return parts;
}

function usageBody(turn: MockTurn) {
  const usage = usageOf(turn);
  // Gemini reports thinking apart from the answer: thoughtsTokenCount is not in candidatesTokenCount.
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens - usage.reasoningTokens,
    ...(usage.reasoningTokens > 0 ? { thoughtsTokenCount: usage.reasoningTokens } : {}),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(usage.cachedTokens > 0 ? { cachedContentTokenCount: usage.cachedTokens } : {}),
  };
}

const finishReasons: Record<string, string> = { max_tokens: 'MAX_TOKENS', refusal: 'SAFETY', safety: 'SAFETY', malformed_call: 'MALFORMED_FUNCTION_CALL' };

function finishOf(turn: MockTurn): string {
  return finishReasons[turn.stopReason ?? ''] ?? 'STOP';
}

/** A malformed call comes back with no parts and the call's text in finishMessage, as the API sends it. */
function finishMessageOf(turn: MockTurn): string | undefined {
  if (turn.stopReason === 'malformed_call') {
    const call = turn.toolCalls?.[0];
    return turn.stopExplanation ?? `Malformed function call: print(default_api.${call?.name ?? 'tool'}(${call?.rawArguments ?? ''})`;
  }
  return turn.stopExplanation;
}

function responseBody(parts: Array<Record<string, unknown>>, context: RenderContext, finish?: string, usage?: unknown, finishMessage?: string) {
  return {
    candidates: [
      {
        content: { role: 'model', ...(parts.length > 0 ? { parts } : {}) },
        index: 0,
        ...(finish ? { finishReason: finish } : {}),
        ...(finishMessage ? { finishMessage } : {}),
      },
    ],
    ...(usage ? { usageMetadata: usage } : {}),
    modelVersion: context.model,
    responseId: `mock-${context.sequence}`,
  };
}

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export const geminiWire: WireFormat = {
  vendor: 'gemini',
  validate(body) {
    const parsed = requestSchema.safeParse(body);
    return parsed.success ? callIssues(parsed.data.contents) : issueLines(parsed.error.issues);
  },
  rules: geminiRules,
  modelOf: (_body, pathModel) => pathModel ?? '',
  wantsStream: (_body, streamPath) => streamPath,
  renderJson: (turn, context) => responseBody(partsOf(turn, context), context, finishOf(turn), usageBody(turn), finishMessageOf(turn)),
  renderStream(turn, context) {
    const parts = partsOf(turn, context);
    const frames = parts.slice(0, -1).map((part) => sseFrame(responseBody([part], context)));
    frames.push(sseFrame(responseBody(parts.slice(-1), context, finishOf(turn), usageBody(turn), finishMessageOf(turn))));
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
