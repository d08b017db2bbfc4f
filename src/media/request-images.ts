// The images of one model request as its driver receives them (the image-delivery audit's
// entries, src/core/image-delivery.ts), and what they weigh: how many went out, their payload
// bytes and the vendor's estimated image tokens (src/media/vision-tokens.ts). The weight is
// computed from the entries alone, so the per-request summary and the audit cannot disagree: a
// placeholder counts as the grey image it is, a dropped image counts nothing. History re-sends
// earlier images every round, so every image of the messages counts each time, as the endpoint
// receives them all again.
import sharp from 'sharp';
import type { ContentPart, ImagePart } from '../core/content.js';
import type { ImageDelivery } from '../core/image-delivery.js';
import type { Message } from '../core/messages.js';
import { type PixelSize, type VisionVendor, visionTokens } from './vision-tokens.js';

export interface RequestImages {
  /** Images the model received: sent ones and placeholders. */
  count: number;
  bytes: number;
  /** Null when the destination has no published formula (OpenAI-compatible servers, replay). */
  estimatedTokens: number | null;
}

/** A part that stands in for an image the model does not get: the image, and why. */
interface Withheld {
  original: ImagePart;
  status: 'placeholder' | 'dropped';
  reason: string;
}

const withheld = new WeakMap<ContentPart, Withheld>();

/**
 * Marks `part` as standing in for `original` (a condition's grey placeholder or text note,
 * src/runner/driver-decorators.ts; a generated stand-in for a missing task image): the audit
 * then lists it as a placeholder or dropped image with the reason.
 */
export function markWithheld(part: ContentPart, original: ImagePart, reason: string): void {
  withheld.set(part, { original, status: part.type === 'image' ? 'placeholder' : 'dropped', reason });
}

type Origin = Pick<ImageDelivery, 'origin' | 'callId' | 'tool'>;

const toolImages = new WeakMap<ImagePart, Origin>();

/**
 * Marks an image a tool call showed the model (src/agent/call-tools.ts), so the audit names that
 * call wherever the image travels: a tool message, or a user turn (the react agent's Observation).
 */
export function markToolImage(part: ImagePart, callId: string, tool: string): void {
  toolImages.set(part, { origin: 'tool', callId, tool });
}

/** Sizes read from payload headers for parts without facts, once per part. */
const headerSizes = new WeakMap<ImagePart, Promise<PixelSize>>();

function sizeOf(part: ImagePart): Promise<PixelSize> {
  if (part.facts) return Promise.resolve({ width: part.facts.width, height: part.facts.height });
  let pending = headerSizes.get(part);
  if (!pending) {
    pending = sharp(Buffer.from(part.data, 'base64'))
      .metadata()
      .then((metadata) => ({ width: metadata.width ?? 0, height: metadata.height ?? 0 }))
      .catch(() => ({ width: 0, height: 0 }));
    headerSizes.set(part, pending);
  }
  return pending;
}

async function entryOf(part: ContentPart, given: Origin, acceptsImages: boolean): Promise<ImageDelivery | undefined> {
  const replaced = withheld.get(part);
  const image = replaced?.original ?? (part.type === 'image' ? part : undefined);
  if (!image) return undefined;
  const origin = toolImages.get(image) ?? given;
  const size = await sizeOf(image);
  const base = { ...origin, source: image.facts?.source ?? origin.origin, ...size };
  if (replaced && part.type !== 'image') return { ...base, mediaType: image.mediaType, bytes: 0, status: 'dropped', reason: replaced.reason };
  if (part.type !== 'image') return undefined;
  // A text-only model gets a text note instead of every image (the drivers' imagePlaceholder).
  if (!acceptsImages) return { ...base, mediaType: part.mediaType, bytes: 0, status: 'dropped', reason: 'the model takes text only' };
  const bytes = Buffer.byteLength(part.data, 'base64');
  if (replaced) return { ...base, mediaType: part.mediaType, bytes, status: 'placeholder', reason: replaced.reason };
  return { ...base, mediaType: part.mediaType, bytes, status: 'sent' };
}

/**
 * Every image of a request in message order: the user turns' (task) and the tool results'
 * (tool), each followed by the images its message was meant to carry but never did
 * (`undeliveredImages`, dropped before the request was built).
 */
export async function imageDeliveryOf(messages: readonly Message[], acceptsImages: boolean): Promise<ImageDelivery[]> {
  const groups: Array<Promise<Array<ImageDelivery | undefined>>> = [];
  const add = (parts: readonly ContentPart[], origin: Origin, undelivered: readonly ImageDelivery[] = []) => {
    groups.push(Promise.all([...parts.map((part) => entryOf(part, origin, acceptsImages)), ...undelivered.map((entry) => Promise.resolve(entry))]));
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      for (const result of message.results) add(result.content, { origin: 'tool', callId: result.callId, tool: result.name }, result.undeliveredImages);
    } else if (message.role === 'user') add(message.content, { origin: 'task' }, message.undeliveredImages);
    else if (message.role === 'assistant') add(message.content, { origin: 'task' });
  }
  return (await Promise.all(groups)).flat().filter((entry): entry is ImageDelivery => entry !== undefined);
}

/** The weight of a request's images, from its audit entries: dropped ones count nothing. */
export function imagePayloadOf(entries: readonly ImageDelivery[], vendor: VisionVendor | undefined): RequestImages {
  const received = entries.filter((entry) => entry.status !== 'dropped');
  const bytes = received.reduce((sum, entry) => sum + entry.bytes, 0);
  if (!vendor) return { count: received.length, bytes, estimatedTokens: received.length === 0 ? 0 : null };
  const estimatedTokens = received.reduce((sum, entry) => sum + visionTokens(vendor, entry), 0);
  return { count: received.length, bytes, estimatedTokens };
}
