// Drivers wrapped for one trial or one condition. A decorator changes only what it names and
// delegates everything else (id, classifyError, any method a driver adds later) to the driver it
// wraps, so the provider sees the same requests apart from that change.
import type { ContentPart, ImagePart } from '../core/content.js';
import type { ImageDelivery } from '../core/image-delivery.js';
import type { Message } from '../core/messages.js';
import type { GenerateRequest, ModelDriver } from '../llm/types.js';
import { toPlaceholder } from '../media/placeholder-image.js';

type RequestMap = (request: GenerateRequest) => GenerateRequest | Promise<GenerateRequest>;

function decorate(driver: ModelDriver, map: RequestMap): ModelDriver {
  const wrapped = Object.create(driver) as ModelDriver;
  Object.defineProperty(wrapped, 'generate', {
    value: async (request: GenerateRequest, options?: Parameters<ModelDriver['generate']>[1]) => driver.generate(await map(request), options),
  });
  return wrapped;
}

/** Every request carries its trial number (the noisy oracle varies by it; vendors ignore it). */
export function withTrialContext(driver: ModelDriver, trial: number): ModelDriver {
  return decorate(driver, (request) => ({ ...request, context: { ...request.context, trial } }));
}

/** Parts a condition put in place of an image, with the image they replace (read by withImageAudit). */
const withheld = new WeakMap<ContentPart, { original: ImagePart; status: 'placeholder' | 'dropped'; reason: string }>();

async function mapParts(
  parts: readonly ContentPart[],
  replace: (part: Extract<ContentPart, { type: 'image' }>) => Promise<ContentPart>,
): Promise<ContentPart[]> {
  return Promise.all(parts.map((part) => (part.type === 'image' ? replace(part) : part)));
}

async function mapMessageImages(message: Message, replace: (part: Extract<ContentPart, { type: 'image' }>) => Promise<ContentPart>): Promise<Message> {
  if (message.role === 'system') return message;
  if (message.role === 'tool') {
    return { ...message, results: await Promise.all(message.results.map(async (result) => ({ ...result, content: await mapParts(result.content, replace) }))) };
  }
  return { ...message, content: await mapParts(message.content, replace) };
}

/**
 * The image ablation: every image in every request (the task's images in the first user turn,
 * each tool-produced image in the history) becomes a flat grey placeholder of the same pixel
 * size (`mode: 'placeholder'`), or a short text note naming its size (`mode: 'drop'`). Tools
 * still read the real files; only what the model sees changes.
 */
export function withImagesWithheld(driver: ModelDriver, mode: 'placeholder' | 'drop'): ModelDriver {
  const reason = `condition ${mode === 'placeholder' ? 'images-off' : 'images-dropped'}`;
  const replace = async (part: Extract<ContentPart, { type: 'image' }>): Promise<ContentPart> => {
    const replacement: ContentPart =
      mode === 'placeholder'
        ? await toPlaceholder(part)
        : {
            type: 'text',
            text: `[image withheld${part.facts ? ` ${part.facts.width}x${part.facts.height}` : ''}: this run tests the task without its images]`,
          };
    withheld.set(replacement, { original: part, status: mode === 'placeholder' ? 'placeholder' : 'dropped', reason });
    return replacement;
  };
  return decorate(driver, async (request) => ({
    ...request,
    messages: await Promise.all(request.messages.map((message) => mapMessageImages(message, replace))),
  }));
}

type Origin = Pick<ImageDelivery, 'origin' | 'callId' | 'tool'>;

function entryOf(part: ContentPart, origin: Origin, acceptsImages: boolean): ImageDelivery | undefined {
  const replaced = withheld.get(part);
  const image = replaced?.original ?? (part.type === 'image' ? part : undefined);
  if (!image) return undefined;
  const facts = image.facts;
  const sentBytes = part.type === 'image' ? Buffer.byteLength(part.data, 'base64') : 0;
  const base = { ...origin, source: facts?.source ?? origin.origin, width: facts?.width ?? 0, height: facts?.height ?? 0 };
  if (replaced && part.type !== 'image') return { ...base, mediaType: image.mediaType, bytes: 0, status: 'dropped', reason: replaced.reason };
  if (part.type !== 'image') return undefined;
  // A text-only model gets a text note instead of every image (the drivers' imagePlaceholder).
  if (!acceptsImages) return { ...base, mediaType: part.mediaType, bytes: 0, status: 'dropped', reason: 'the model takes text only' };
  if (replaced) return { ...base, mediaType: part.mediaType, bytes: sentBytes, status: 'placeholder', reason: replaced.reason };
  return { ...base, mediaType: part.mediaType, bytes: sentBytes, status: 'sent' };
}

/** Every image of a request in message order: the user turns' (task) and the tool results' (tool). */
function imageDeliveryOf(request: GenerateRequest, acceptsImages: boolean): ImageDelivery[] {
  const entries: ImageDelivery[] = [];
  const add = (parts: readonly ContentPart[], origin: Origin) => {
    for (const part of parts) {
      const entry = entryOf(part, origin, acceptsImages);
      if (entry) entries.push(entry);
    }
  };
  for (const message of request.messages) {
    if (message.role === 'tool') for (const result of message.results) add(result.content, { origin: 'tool', callId: result.callId, tool: result.name });
    else if (message.role !== 'system') add(message.content, { origin: 'task' });
  }
  return entries;
}

/**
 * The image-delivery audit: wraps the driver itself (inside every condition decorator), so each
 * response lists the images of the request exactly as the driver received it: sent, replaced
 * by a condition's placeholder, or dropped (by a condition, or because the model takes text only).
 */
export function withImageAudit(driver: ModelDriver): ModelDriver {
  const wrapped = Object.create(driver) as ModelDriver;
  Object.defineProperty(wrapped, 'generate', {
    value: async (request: GenerateRequest, options?: Parameters<ModelDriver['generate']>[1]) => {
      const imageDelivery = imageDeliveryOf(request, driver.acceptsImages);
      return { ...(await driver.generate(request, options)), imageDelivery };
    },
  });
  return wrapped;
}
