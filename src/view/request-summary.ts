// A stored model request as the model received it, for the task page's "request" view: the
// system text, each message (role, text, images, tool calls and tool results) and the tools
// offered, read from the provider's own wire body as the driver sent it (OpenAI chat and
// Responses, Anthropic messages, Gemini generateContent). Inline image bytes were elided when the
// request was stored (src/store/json-column.ts), so an image part shows its media type and size.
import { clip } from '../core/number-format.js';

type Json = Record<string, unknown>;

interface RequestPart {
  kind: 'text' | 'image' | 'tool_call' | 'tool_result';
  /** Text (cut at textLimit characters), a tool call's name and arguments, or an image's description. */
  text: string;
}

export interface RequestSummary {
  system: string | null;
  messages: Array<{ role: string; parts: RequestPart[] }>;
  tools: string[];
}

const textLimit = 4000;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const cut = (text: string) => clip(text, textLimit, { marker: (whole) => `… (${whole.length} characters)` });
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** `data:image/png;base64,[base64 elided: 1234 bytes, sha256 …]` → `image/png, 1234 bytes`. */
function describeImage(url: unknown, mediaType?: unknown): string {
  const text = typeof url === 'string' ? url : '';
  const type = typeof mediaType === 'string' ? mediaType : /^data:([^;,]+)/.exec(text)?.[1];
  const bytes = /(\d+) bytes/.exec(text)?.[1];
  if (!text.startsWith('data:') && text) return `image ${cut(text)}`;
  return `image${type ? ` ${type}` : ''}${bytes ? `, ${bytes} bytes` : ''}`;
}

function partOf(part: unknown): RequestPart | undefined {
  if (typeof part === 'string') return { kind: 'text', text: cut(part) };
  if (!isObject(part)) return undefined;
  if (typeof part.text === 'string') return { kind: 'text', text: cut(part.text) };
  const type = part.type;
  if (type === 'image_url') return { kind: 'image', text: describeImage(isObject(part.image_url) ? part.image_url.url : part.image_url) };
  if (type === 'input_image') return { kind: 'image', text: describeImage(part.image_url) };
  if (type === 'image' && isObject(part.source)) return { kind: 'image', text: describeImage(part.source.data, part.source.media_type) };
  if (isObject(part.inlineData)) return { kind: 'image', text: describeImage(part.inlineData.data, part.inlineData.mimeType) };
  if (type === 'tool_use') return { kind: 'tool_call', text: `${asText(part.name)}(${cut(asText(part.input))})` };
  if (isObject(part.functionCall)) return { kind: 'tool_call', text: `${asText(part.functionCall.name)}(${cut(asText(part.functionCall.args))})` };
  if (type === 'function_call') return { kind: 'tool_call', text: `${asText(part.name)}(${cut(asText(part.arguments))})` };
  if (type === 'tool_result') return { kind: 'tool_result', text: resultText(part.content) };
  if (isObject(part.functionResponse))
    return { kind: 'tool_result', text: `${asText(part.functionResponse.name)} → ${cut(asText(part.functionResponse.response))}` };
  if (type === 'function_call_output') return { kind: 'tool_result', text: cut(asText(part.output)) };
  return { kind: 'text', text: cut(JSON.stringify(part)) };
}

function resultText(content: unknown): string {
  if (!Array.isArray(content)) return cut(asText(content));
  return content
    .map(partOf)
    .filter((part) => part !== undefined)
    .map((part) => (part.kind === 'image' ? `[${part.text}]` : part.text))
    .join('\n');
}

function messageOf(message: unknown): { role: string; parts: RequestPart[] } {
  if (!isObject(message)) return { role: '?', parts: [] };
  const role = asText(message.role ?? message.type ?? '?');
  const content = message.content ?? message.parts;
  const parts = (Array.isArray(content) ? content.map(partOf) : content === undefined || content === null ? [] : [partOf(content)]).filter(
    (part): part is RequestPart => part !== undefined,
  );
  const top = message.type === undefined ? undefined : partOf(message);
  if (top && top.kind !== 'text') parts.push(top);
  if (role === 'tool') for (const part of parts) part.kind = 'tool_result';
  if (Array.isArray(message.tool_calls))
    for (const call of message.tool_calls) {
      const fn = isObject(call) && isObject(call.function) ? call.function : {};
      parts.push({ kind: 'tool_call', text: `${asText(fn.name)}(${cut(asText(fn.arguments))})` });
    }
  return { role, parts };
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => {
    if (!isObject(tool)) return [];
    if (Array.isArray(tool.functionDeclarations)) return tool.functionDeclarations.flatMap((entry) => (isObject(entry) ? [asText(entry.name)] : []));
    if (isObject(tool.function)) return [asText(tool.function.name)];
    return typeof tool.name === 'string' ? [tool.name] : [];
  });
}

function systemOf(body: Json): string | null {
  const config = isObject(body.config) ? body.config : {};
  const system = body.system ?? body.instructions ?? config.systemInstruction ?? body.systemInstruction;
  if (system === undefined || system === null) return null;
  if (typeof system === 'string') return cut(system);
  const parts = Array.isArray(system) ? system : isObject(system) && Array.isArray(system.parts) ? system.parts : [system];
  return parts.map((part) => partOf(part)?.text ?? '').join('\n');
}

/** The request's messages and tools, or null when the driver kept no wire body (replay drivers). */
export function summarizeRequest(request: unknown): RequestSummary | null {
  if (!isObject(request)) return null;
  const messages = request.messages ?? request.input ?? request.contents;
  const config = isObject(request.config) ? request.config : {};
  return {
    system: systemOf(request),
    messages: Array.isArray(messages)
      ? messages.map(messageOf)
      : typeof messages === 'string'
        ? [{ role: 'user', parts: [{ kind: 'text', text: cut(messages) }] }]
        : [],
    tools: toolNames(request.tools ?? config.tools),
  };
}
