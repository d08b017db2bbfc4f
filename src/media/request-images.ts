// What the images of one model request weigh: how many, their payload bytes, and the vendor's
// estimated image tokens (src/media/vision-tokens.ts). History re-sends earlier images every
// round, so every image part in the messages counts, as the endpoint receives them all again.
import sharp from 'sharp';
import type { ImagePart } from '../core/content.js';
import type { Message } from '../core/messages.js';
import { type PixelSize, type VisionVendor, visionTokens } from './vision-tokens.js';

export interface RequestImages {
  count: number;
  bytes: number;
  /** Null when the destination has no published formula (OpenAI-compatible servers, replay). */
  estimatedTokens: number | null;
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

function imagePartsOf(messages: readonly Message[]): ImagePart[] {
  const parts: ImagePart[] = [];
  for (const message of messages) {
    const contents = message.role === 'tool' ? message.results.map((result) => result.content) : message.role === 'system' ? [] : [message.content];
    for (const content of contents) for (const part of content) if (part.type === 'image') parts.push(part);
  }
  return parts;
}

export async function requestImages(messages: readonly Message[], vendor: VisionVendor | undefined): Promise<RequestImages> {
  const parts = imagePartsOf(messages);
  const bytes = parts.reduce((sum, part) => sum + Buffer.byteLength(part.data, 'base64'), 0);
  if (!vendor) return { count: parts.length, bytes, estimatedTokens: parts.length === 0 ? 0 : null };
  const sizes = await Promise.all(parts.map(sizeOf));
  return { count: parts.length, bytes, estimatedTokens: sizes.reduce((sum, size) => sum + visionTokens(vendor, size), 0) };
}
