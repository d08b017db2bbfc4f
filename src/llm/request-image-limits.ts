// Per-request image limits of each vendor, and the one way the harness keeps under them: every
// round resends the history's images, so a long episode with image-heavy tools would otherwise
// reach a request the vendor refuses with a 400 or 413. The oldest tool images are elided first
// (then, only if still over, the oldest task images), each replaced by a note telling the model
// what happened and how to see the image again, and marked for the image-delivery audit as
// dropped with the reason (src/media/request-images.ts markWithheld). Documented limits:
//   Anthropic: 100 images per request ("Too much media"), 32 MB per request (413 beyond).
//   OpenAI (Chat Completions, Responses): 500 images and 50 MB of image bytes per request
//     (OpenAI's images and vision guide, "Image input requirements").
//   Gemini: inline data for a total request size under 20 MB (Gemini API image understanding
//     guide); 900 images per prompt (Gemini 3 Pro, the lowest per-prompt count of the current models).
// OpenAI-compatible servers publish no such limits; none is applied there.
import type { ContentPart, ImagePart } from '../core/content.js';
import type { Message } from '../core/messages.js';
import { markWithheld } from '../media/request-images.js';
import type { GenerateRequest } from './types.js';
import { visionVendorOf } from './image-destination.js';

const megabyte = 1024 * 1024;

export interface RequestImageLimits {
  vendor: string;
  maxImages: number;
  /** Bytes the images may take: of the whole request body (base64 on the wire), or of the decoded images. */
  maxBytes: number;
  measure: 'request' | 'image-bytes';
}

const limitsByVendor: Record<string, RequestImageLimits> = {
  anthropic: { vendor: 'Anthropic', maxImages: 100, maxBytes: 32 * megabyte, measure: 'request' },
  openai: { vendor: 'OpenAI', maxImages: 500, maxBytes: 50 * megabyte, measure: 'image-bytes' },
  gemini: { vendor: 'Gemini', maxImages: 900, maxBytes: 20 * megabyte, measure: 'request' },
};

/** Room left for the request's text and JSON around the images when the limit is on the whole body. */
const requestHeadroom = megabyte;

export function requestImageLimitsFor(provider: string): RequestImageLimits | undefined {
  const vendor = visionVendorOf(provider);
  return vendor ? limitsByVendor[vendor] : undefined;
}

interface Slot {
  image: ImagePart;
  /** Oldest tool images go first, task images (the first user turn) only after every tool image. */
  task: boolean;
  replace: (part: ContentPart) => void;
}

function slotsOf(messages: Message[]): Slot[] {
  const slots: Slot[] = [];
  const firstUser = messages.findIndex((message) => message.role === 'user');
  const collect = (parts: ContentPart[], task: boolean) =>
    parts.forEach((part, index) => {
      if (part.type === 'image') slots.push({ image: part, task, replace: (next) => (parts[index] = next) });
    });
  messages.forEach((message, index) => {
    if (message.role === 'tool') for (const result of message.results) collect(result.content, false);
    else if (message.role === 'user' || message.role === 'assistant') collect(message.content, index === firstUser);
  });
  return [...slots.filter((slot) => !slot.task), ...slots.filter((slot) => slot.task)];
}

/** Copies the messages deep enough that parts can be replaced without touching the caller's history. */
function copyMessages(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role === 'tool') return { ...message, results: message.results.map((result) => ({ ...result, content: [...result.content] })) };
    if (message.role === 'system') return message;
    return { ...message, content: [...message.content] };
  });
}

function weightOf(image: ImagePart, limits: RequestImageLimits): number {
  return limits.measure === 'request' ? image.data.length : Buffer.byteLength(image.data, 'base64');
}

function textWeight(request: GenerateRequest): number {
  return JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools }).length;
}

function note(reason: string): Extract<ContentPart, { type: 'text' }> {
  return {
    type: 'text',
    text: `[image elided: ${reason}; the oldest tool images are left out of this request. Call the tool again if you need to see it.]`,
  };
}

/**
 * The request with the oldest images elided until it is within the vendor's per-request image
 * count and bytes; the caller's messages are not changed. Returns the number elided and a warning.
 */
export function fitRequestImages(
  request: GenerateRequest,
  limits: RequestImageLimits | undefined,
): { request: GenerateRequest; elided: number; warnings: string[] } {
  if (!limits) return { request, elided: 0, warnings: [] };
  const probe = slotsOf(request.messages as Message[]);
  let count = probe.length;
  const imageWeight = probe.reduce((sum, slot) => sum + weightOf(slot.image, limits), 0);
  // The body's non-image bytes: the whole request minus the images' base64 text.
  const fixed = limits.measure === 'request' ? textWeight(request) - probe.reduce((sum, slot) => sum + slot.image.data.length, 0) + requestHeadroom : 0;
  let bytes = imageWeight + fixed;
  if (count <= limits.maxImages && bytes <= limits.maxBytes) return { request, elided: 0, warnings: [] };
  const messages = copyMessages(request.messages);
  const reason = `over ${limits.vendor}'s per-request limit of ${limits.maxImages} images and ${limits.maxBytes / megabyte} MB`;
  let elided = 0;
  for (const slot of slotsOf(messages)) {
    if (count <= limits.maxImages && bytes <= limits.maxBytes) break;
    const replacement = note(reason);
    markWithheld(replacement, slot.image, `over_request_limit: ${reason}`);
    slot.replace(replacement);
    count -= 1;
    bytes -= weightOf(slot.image, limits);
    elided += 1;
  }
  return {
    request: { ...request, messages },
    elided,
    warnings: [`${elided} image(s) elided from this request, oldest tool images first: ${reason}`],
  };
}
