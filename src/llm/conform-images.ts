// Every image of a request in a media type its destination decodes: each driver declares the
// types it accepts and calls this before mapping, so WebP or GIF never reach an endpoint that
// refuses them (src/media converts them to PNG or JPEG; the conversion is noted once per request).
import type { ContentPart } from '../core/content.js';
import type { Message } from '../core/messages.js';
import { toAcceptedType } from '../media/convert-image.js';
import type { GenerateRequest } from './types.js';

async function conformParts(parts: ContentPart[], accepted: readonly string[], changed: Set<string>): Promise<ContentPart[]> {
  if (!parts.some((part) => part.type === 'image' && !accepted.includes(part.mediaType))) return parts;
  return Promise.all(
    parts.map(async (part) => {
      if (part.type !== 'image' || accepted.includes(part.mediaType)) return part;
      const next = await toAcceptedType(part, accepted);
      changed.add(`${part.mediaType} → ${next.mediaType}`);
      return next;
    }),
  );
}

async function conformMessage(message: Message, accepted: readonly string[], changed: Set<string>): Promise<Message> {
  if (message.role === 'user' || message.role === 'assistant') {
    const content = await conformParts(message.content, accepted, changed);
    return content === message.content ? message : { ...message, content };
  }
  if (message.role === 'tool') {
    const results = await Promise.all(
      message.results.map(async (result) => {
        const content = await conformParts(result.content, accepted, changed);
        return content === result.content ? result : { ...result, content };
      }),
    );
    return results.every((result, index) => result === message.results[index]) ? message : { ...message, results };
  }
  return message;
}

/** The request with unaccepted images converted, and a warning naming each conversion. */
export async function conformImages(
  request: GenerateRequest,
  accepted: readonly string[],
  destination: string,
): Promise<{ request: GenerateRequest; warnings: string[] }> {
  const changed = new Set<string>();
  const messages = await Promise.all(request.messages.map((message) => conformMessage(message, accepted, changed)));
  if (changed.size === 0) return { request, warnings: [] };
  return { request: { ...request, messages }, warnings: [`images converted for ${destination} (it takes ${accepted.join(', ')}): ${[...changed].join(', ')}`] };
}
