// Neutral request → @google/genai generateContent parameters. Pure. Gemini speaks `user` and
// `model` turns; tool calls are `functionCall` parts, results `functionResponse` parts paired
// with their calls by id (when the API gave one) and by order; images are `inlineData` parts.
// Tool images depend on the model family: Gemini 3 takes them inside `functionResponse.parts`
// (side-by-side parts have been reported to fail there); 2.x has no multimodal function
// responses, so they follow the function responses of the round with a note naming the call.
import type { Content, FunctionCallingConfigMode, GenerateContentConfig, Part } from '@google/genai';
import type { ContentPart } from '../../core/content.js';
import type { AssistantMessage, Message, ToolCall, ToolResultsMessage } from '../../core/messages.js';
import { historyArguments } from '../tool-arguments.js';
import type { GenerateRequest } from '../types.js';

/**
 * Documented stand-in for calls whose signature is unknown (e.g. history from another model).
 * @internal Exported for its tests.
 */
export const skipSignature = 'skip_thought_signature_validator';

/** Gemini 3 signs function calls and takes images inside function responses. */
const isGemini3 = (model: string) => /^gemini-3/i.test(model);

export interface GeminiRequest {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

/**
 * Ids we made up (`<name>_<round>_<index>`) are never sent back: the API did not issue them.
 * @internal Exported for its tests.
 */
export function isSynthesizedCallId(id: string, name: string): boolean {
  return id.startsWith(`${name}_`) && /^_\d+_\d+$/.test(id.slice(name.length));
}

function contentParts(parts: readonly ContentPart[]): Part[] {
  return parts.flatMap((part): Part[] => {
    if (part.type === 'image') return [{ inlineData: { mimeType: part.mediaType, data: part.data } }];
    return part.text ? [{ text: part.text }] : [];
  });
}

function modelParts(message: AssistantMessage, needsSignature: boolean): Part[] {
  const parts = contentParts(message.content.filter((part) => part.type === 'text'));
  message.toolCalls.forEach((call, index) => {
    const functionCall = {
      name: call.name,
      args: historyArguments(call).value,
      ...(isSynthesizedCallId(call.id, call.name) ? {} : { id: call.id }),
    };
    // Gemini 3 signs the first call of a parallel set only.
    const signature = call.thoughtSignature?.value ?? (needsSignature && index === 0 ? skipSignature : undefined);
    parts.push({ functionCall, ...(signature ? { thoughtSignature: signature } : {}) });
  });
  return parts;
}

function resultParts(message: ToolResultsMessage, calls: readonly ToolCall[], imagesInside: boolean): Part[] {
  const order = new Map(calls.map((call, index) => [call.id, index]));
  const results = [...message.results].sort((a, b) => (order.get(a.callId) ?? Infinity) - (order.get(b.callId) ?? Infinity));
  const responses: Part[] = [];
  const images: Part[] = [];
  for (const result of results) {
    const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    const imageParts = result.content.flatMap((part) => (part.type === 'image' ? [{ inlineData: { mimeType: part.mediaType, data: part.data } }] : []));
    const where = imagesInside ? 'attached to this response' : 'shown after the function responses';
    const output = text || (imageParts.length > 0 ? `(image output; ${where})` : '(no output)');
    responses.push({
      functionResponse: {
        name: result.name,
        response: result.isError ? { error: output } : { output },
        ...(isSynthesizedCallId(result.callId, result.name) ? {} : { id: result.callId }),
        ...(imagesInside && imageParts.length > 0 ? { parts: imageParts } : {}),
      },
    });
    if (!imagesInside && imageParts.length > 0) images.push({ text: `Image output of tool call ${result.callId} (${result.name}):` }, ...imageParts);
  }
  return [...responses, ...images];
}

function withoutSchemaKeyword(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function toContents(messages: readonly Message[], gemini3: boolean): Content[] {
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };
  let lastCalls: readonly ToolCall[] = [];
  for (const message of messages) {
    if (message.role === 'user') push('user', contentParts(message.content));
    else if (message.role === 'assistant') {
      lastCalls = message.toolCalls;
      push('model', modelParts(message, gemini3));
    } else if (message.role === 'tool') push('user', resultParts(message, lastCalls, gemini3));
  }
  return contents;
}

export function toGeminiRequest(request: GenerateRequest, model: string): { params: GeminiRequest; warnings: string[] } {
  const warnings: string[] = [];
  const contents = toContents(request.messages, isGemini3(model));
  if (contents[0]?.role !== 'user') {
    contents.unshift({ role: 'user', parts: [{ text: '(conversation start)' }] });
    warnings.push('the conversation did not start with a user turn; a placeholder user turn was added');
  }
  const systemTexts = [request.system ?? '', ...request.messages.flatMap((message) => (message.role === 'system' ? [message.content] : []))];
  const system = systemTexts.filter((text) => text.trim()).join('\n\n');
  const config: GenerateContentConfig = { maxOutputTokens: request.maxTokens };
  if (system) config.systemInstruction = system;
  if (request.tools.length > 0) {
    config.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: withoutSchemaKeyword(tool.inputSchema),
        })),
      },
    ];
    if (request.toolChoice === 'none') config.toolConfig = { functionCallingConfig: { mode: 'NONE' as FunctionCallingConfigMode } };
  }
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.seed !== undefined) config.seed = request.seed;
  return { params: { model, contents, config }, warnings };
}
