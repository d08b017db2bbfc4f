// Drivers wrapped for one trial or one condition. A decorator changes only what it names and
// delegates everything else (id, classifyError, any method a driver adds later) to the driver it
// wraps, so the provider sees the same requests apart from that change.
import type { ContentPart } from '../core/content.js';
import type { Message } from '../core/messages.js';
import type { GenerateRequest, ModelDriver } from '../llm/types.js';
import { toPlaceholder } from '../media/placeholder-image.js';
import { imageDeliveryOf, markWithheld } from '../media/request-images.js';

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
    markWithheld(replacement, part, reason);
    return replacement;
  };
  return decorate(driver, async (request) => ({
    ...request,
    messages: await Promise.all(request.messages.map((message) => mapMessageImages(message, replace))),
  }));
}

/**
 * The image-delivery audit: wraps the driver itself (inside every condition decorator), so it
 * sees each request exactly as the driver receives it and hands its images (sent, replaced by a
 * condition's placeholder, or dropped by a condition, for a text-only model, or before the
 * request was built) to the caller's `onImageDelivery` before the call, so a failed request
 * has its entries too.
 */
export function withImageAudit(driver: ModelDriver): ModelDriver {
  const wrapped = Object.create(driver) as ModelDriver;
  Object.defineProperty(wrapped, 'generate', {
    value: async (request: GenerateRequest, options?: Parameters<ModelDriver['generate']>[1]) => {
      options?.onImageDelivery?.(await imageDeliveryOf(request.messages, driver.acceptsImages));
      return driver.generate(request, options);
    },
  });
  return wrapped;
}
