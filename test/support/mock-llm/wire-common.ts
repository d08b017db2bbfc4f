// What every wire format of the mock shares: the vendor interface, argument rendering, usage
// defaults, and the request checks the real APIs also make (tool names, image bytes that
// match their declared media type).
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type { MockMemory } from './mock-memory.js';
import type { MockToolCall, MockTurn } from './script.js';

export type Vendor = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';

/**
 * OpenAI-compatible destinations the mock can impersonate, chosen by a path prefix
 * (`${mock.url}/xai/v1`): their rules and recorded response shapes differ from OpenAI's.
 */
export const flavours = ['xai', 'ollama', 'zhipu', 'deepseek', 'dashscope', 'vllm', 'llamacpp', 'lmstudio', 'openrouter', 'together'] as const;
export type Flavour = (typeof flavours)[number];

export interface RuleContext {
  model: string;
  flavour: Flavour | undefined;
  memory: MockMemory;
}

export interface RenderContext extends RuleContext {
  /** 1-based number of the generation request, for ids. */
  sequence: number;
  /** The parsed request body (some responses depend on it, e.g. Responses `include`). */
  body: unknown;
}

/** A request a real API refuses, with the status and the error body that API sends. */
export interface Rejection {
  status: number;
  message: string;
  body: unknown;
}

export interface WireFormat {
  vendor: Vendor;
  /** Shape problems a real API would reject the body for; empty when valid. */
  validate(body: unknown, context: RuleContext): string[];
  /**
   * Vendor rules beyond the shape, per model family or destination, answered with the vendor's
   * own error body (so drivers see exactly what the real API would send).
   */
  rules?(body: unknown, context: RuleContext): Rejection | undefined;
  modelOf(body: unknown, pathModel?: string): string;
  wantsStream(body: unknown, streamPath: boolean): boolean;
  renderJson(turn: MockTurn, context: RenderContext): unknown;
  /** SSE frames, each already terminated by a blank line. */
  renderStream(turn: MockTurn, context: RenderContext, body: unknown): string[];
  renderError(status: number, message: string, retryAfterMs?: number, extras?: { code?: string; param?: string }): unknown;
}

export const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

export function argumentsText(call: MockToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.arguments ?? {});
}

/**
 * Wire formats with JSON arguments get the parsed value, or the raw text when it does not parse.
 * Numbers keep the text the script wrote (`1.0` stays `1.0` on the wire, as a model's output
 * does on Anthropic's); `plain` gives ordinary numbers (Gemini's protobuf Struct has no such form).
 */
export function argumentsValue(call: MockToolCall, options: { plain?: boolean } = {}): unknown {
  if (call.rawArguments === undefined) return call.arguments ?? {};
  try {
    return options.plain ? (JSON.parse(call.rawArguments) as unknown) : parseLossless(call.rawArguments);
  } catch {
    return call.rawArguments;
  }
}

/** JSON text of a response body; numbers parsed from raw argument text keep their form. */
export function bodyText(value: unknown): string {
  return stringifyLossless(value) ?? 'null';
}

export function usageOf(turn: MockTurn): { inputTokens: number; outputTokens: number; cachedTokens: number; reasoningTokens: number } {
  return {
    inputTokens: turn.usage?.inputTokens ?? 100,
    outputTokens: turn.usage?.outputTokens ?? 20,
    cachedTokens: turn.usage?.cachedTokens ?? 0,
    reasoningTokens: turn.usage?.reasoningTokens ?? 0,
  };
}

export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : bodyText(data)}\n\n`;
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

/**
 * Whether `data` is base64: its alphabet, then at most two `=` at the end. Not one anchored
 * regular expression over the whole string: on a multi-megabyte image V8's regexp interpreter
 * can run out of backtrack stack (a 6.7 MB image in test/llm/request-limits.test.ts did).
 */
function isBase64(data: string): boolean {
  if (data.length === 0 || /[^A-Za-z0-9+/=]/.test(data)) return false;
  const padding = data.indexOf('=');
  return padding < 0 || (padding > 0 && padding >= data.length - 2 && /^=+$/.test(data.slice(padding)));
}

/** Checks that base64 image data decodes to bytes of the declared type. */
export function checkImage(mediaType: string, data: string, where: string): string | undefined {
  const check = magic[mediaType];
  if (!check) return `${where}: unsupported image media type ${mediaType}`;
  if (!isBase64(data)) return `${where}: image data is not base64`;
  if (!check(Buffer.from(data, 'base64'))) return `${where}: image bytes are not ${mediaType}`;
  return undefined;
}

/** The media type of base64 image bytes, from their magic numbers. */
export function sniffImage(data: string): string | undefined {
  const bytes = Buffer.from(data.slice(0, 64), 'base64');
  return Object.entries(magic).find(([, test]) => test(bytes))?.[0];
}

export function checkDataUrl(url: string, where: string, options: { rawBase64?: boolean } = {}): string | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (match) return checkImage(match[1] ?? '', match[2] ?? '', where);
  if (url.startsWith('https://')) return undefined;
  if (options.rawBase64) {
    const type = sniffImage(url);
    return type ? checkImage(type, url, where) : `${where}: image_url is neither a URL nor base64 image bytes`;
  }
  return `${where}: image_url must be a data: URL or https URL`;
}

/** The media types of the data: URLs (or raw base64 images) in a list of image URLs. */
export function dataUrlType(url: string): string | undefined {
  const match = /^data:([^;,]+);base64,/.exec(url);
  if (match) return match[1];
  return url.startsWith('http') ? undefined : sniffImage(url);
}

/** Turns zod issues into `path: message` lines. */
export function issueLines(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string[] {
  return issues.map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`);
}
