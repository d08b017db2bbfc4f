// Per-request limits the real APIs enforce on what the harness builds, answered with each
// vendor's own status and error text:
//   Anthropic: at most 100 images per request ("Too much media"), 32 MB per request (413).
//   OpenAI (Chat Completions and Responses): at most 500 images and 50 MB of image bytes per request.
//   Gemini: a request with inline data of 20 MB or more is refused (its documented inline limit).
//   Gemini: function names start with a letter or an underscore (declarations and history).
//   Chat Completions and Responses: history arguments must be a JSON object (vLLM, llama-server and
//   DashScope parse them and refuse the whole request otherwise; the mock holds every destination to it).
// The harness keeps under these limits (src/llm/request-image-limits.ts, src/mcp/function-names.ts,
// src/llm/tool-arguments.ts historyArguments); tests prove it through the real SDKs.
import type { Rejection } from './wire-common.js';

const megabyte = 1024 * 1024;

export interface ImageTally {
  count: number;
  /** Decoded image bytes. */
  bytes: number;
}

export const imageLimits = {
  anthropic: { images: 100, requestBytes: 32 * megabyte },
  openai: { images: 500, imageBytes: 50 * megabyte },
  gemini: { requestBytes: 20 * megabyte },
} as const;

/** Every base64 image in a parsed body, found by shape (`data` next to a media type, or a data: URL). */
export function tallyImages(value: unknown, tally: ImageTally = { count: 0, bytes: 0 }): ImageTally {
  if (typeof value === 'string') {
    const match = /^data:image\/[^;,]+;base64,/.exec(value);
    if (match) {
      tally.count += 1;
      tally.bytes += Buffer.byteLength(value.slice(match[0].length), 'base64');
    }
    return tally;
  }
  if (Array.isArray(value)) {
    for (const item of value) tallyImages(item, tally);
    return tally;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const type = record.media_type ?? record.mimeType;
    if (typeof record.data === 'string' && typeof type === 'string' && type.startsWith('image/')) {
      tally.count += 1;
      tally.bytes += Buffer.byteLength(record.data, 'base64');
      return tally;
    }
    for (const item of Object.values(record)) tallyImages(item, tally);
  }
  return tally;
}

const bodyBytes = (body: unknown) => Buffer.byteLength(JSON.stringify(body));

export function anthropicLimits(body: unknown): Rejection | undefined {
  const bytes = bodyBytes(body);
  if (bytes > imageLimits.anthropic.requestBytes) {
    const message = 'Request exceeds the maximum allowed number of bytes.';
    return { status: 413, message, body: { type: 'error', error: { type: 'request_too_large', message } } };
  }
  const { count } = tallyImages(body);
  if (count > imageLimits.anthropic.images) {
    const message = `Too much media: 0 document pages + ${count} images > ${imageLimits.anthropic.images}`;
    return { status: 400, message, body: { type: 'error', error: { type: 'invalid_request_error', message } } };
  }
  return undefined;
}

export function openAiLimits(body: unknown): Rejection | undefined {
  const { count, bytes } = tallyImages(body);
  const error = (message: string): Rejection => ({
    status: 400,
    message,
    body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
  });
  if (count > imageLimits.openai.images) return error(`Too many images in request. Max is ${imageLimits.openai.images}.`);
  if (bytes > imageLimits.openai.imageBytes) return error(`Total image size exceeds the limit of ${imageLimits.openai.imageBytes} bytes per request.`);
  return undefined;
}

export function geminiLimits(body: unknown): Rejection | undefined {
  const bytes = bodyBytes(body);
  if (bytes < imageLimits.gemini.requestBytes) return undefined;
  const message = `Request payload size exceeds the limit: ${imageLimits.gemini.requestBytes} bytes.`;
  return { status: 400, message, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } };
}

/** Gemini's rule for function names, in its own words. */
export const geminiFunctionName = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
export const geminiFunctionNameMessage =
  'Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.';

/** History arguments (Chat Completions `function.arguments`, Responses `arguments`) that are not a JSON object. */
export function malformedHistoryArguments(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'arguments must be a JSON object';
  } catch (error) {
    return `arguments are not valid JSON (${(error as Error).message})`;
  }
}
