// Drivers wrapped for one trial or one condition. A decorator changes only what it names and
// delegates everything else (id, classifyError, any method a driver adds later) to the driver it
// wraps, so the provider sees the same requests apart from that change.
import type { ContentPart } from '../core/content.js';
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
  const replace = async (part: Extract<ContentPart, { type: 'image' }>): Promise<ContentPart> => {
    if (mode === 'placeholder') return toPlaceholder(part);
    const size = part.facts ? ` ${part.facts.width}x${part.facts.height}` : '';
    return { type: 'text', text: `[image withheld${size}: this run tests the task without its images]` };
  };
  return decorate(driver, async (request) => ({
    ...request,
    messages: await Promise.all(request.messages.map((message) => mapMessageImages(message, replace))),
  }));
}
