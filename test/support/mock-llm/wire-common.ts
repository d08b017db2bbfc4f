// What every wire format of the mock shares: the vendor interface, argument rendering, usage
// defaults, and the request checks the real APIs also make (tool names, image bytes that
// match their declared media type).
import type { MockToolCall, MockTurn } from './script.js';

export type Vendor = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';

export interface RenderContext {
  model: string;
  /** 1-based number of the generation request, for ids. */
  sequence: number;
}

export interface WireFormat {
  vendor: Vendor;
  /** Problems a real API would reject the body for; empty when valid. */
  validate(body: unknown): string[];
  modelOf(body: unknown, pathModel?: string): string;
  wantsStream(body: unknown, streamPath: boolean): boolean;
  renderJson(turn: MockTurn, context: RenderContext): unknown;
  /** SSE frames, each already terminated by a blank line. */
  renderStream(turn: MockTurn, context: RenderContext, body: unknown): string[];
  renderError(status: number, message: string, retryAfterMs?: number): unknown;
}

export const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

export function argumentsText(call: MockToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.arguments ?? {});
}

/** Wire formats with JSON arguments get the parsed value, or the raw text when it does not parse. */
export function argumentsValue(call: MockToolCall): unknown {
  if (call.rawArguments === undefined) return call.arguments ?? {};
  try {
    return JSON.parse(call.rawArguments) as unknown;
  } catch {
    return call.rawArguments;
  }
}

export function usageOf(turn: MockTurn): { inputTokens: number; outputTokens: number; cachedTokens: number } {
  return {
    inputTokens: turn.usage?.inputTokens ?? 100,
    outputTokens: turn.usage?.outputTokens ?? 20,
    cachedTokens: turn.usage?.cachedTokens ?? 0,
  };
}

export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** Splits text in two so streams really arrive in pieces. */
export function halves(text: string): string[] {
  if (text.length < 2) return text ? [text] : [];
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

const magic: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  'image/gif': (bytes) => bytes.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (bytes) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Checks that base64 image data decodes to bytes of the declared type. */
export function checkImage(mediaType: string, data: string, where: string): string | undefined {
  const check = magic[mediaType];
  if (!check) return `${where}: unsupported image media type ${mediaType}`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return `${where}: image data is not base64`;
  if (!check(Buffer.from(data, 'base64'))) return `${where}: image bytes are not ${mediaType}`;
  return undefined;
}

export function checkDataUrl(url: string, where: string): string | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) return url.startsWith('https://') ? undefined : `${where}: image_url must be a data: URL or https URL`;
  return checkImage(match[1] ?? '', match[2] ?? '', where);
}

/** Turns zod issues into `path: message` lines. */
export function issueLines(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string[] {
  return issues.map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`);
}
