// Anthropic Messages driver (`anthropic:<model>`). Thin SDK wiring: mapping lives in
// request.ts / response.ts, key and base URL (ANTHROPIC_BASE_URL) come from config,
// retries are the harness's (SDK maxRetries 0), errors are classified like OpenAI's.
import { endpointHint, resolveEndpoint } from '../../config/providers.js';
import { parseJsonKeepingFloats } from '../../core/json-numbers.js';
import { ProviderError } from '../../errors/index.js';
import { conformImages } from '../conform-images.js';
import { anthropicImageTypes } from '../image-types.js';
import { runPreflight } from '../preflight.js';
import type { FailureContext } from '../provider-errors.js';
import { anthropicClient } from './client.js';
import type { DriverContext, ModelDriver } from '../types.js';
import { classifyAnthropicError } from './errors.js';
import { toAnthropicRequest } from './request.js';
import { fromAnthropicResponse } from './response.js';

function parseBody(text: string, spec: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ProviderError('transient', `${spec}: the server sent a response that is not valid JSON (${(error as Error).message})`, { cause: error });
  }
}

function exactOrNothing(text: string): unknown {
  try {
    return parseJsonKeepingFloats(text);
  } catch {
    return undefined;
  }
}

export async function createAnthropicDriver(model: string, context: DriverContext): Promise<ModelDriver> {
  const id = `anthropic:${model}`;
  const endpoint = resolveEndpoint('anthropic', context.env, id);
  const client = anthropicClient(endpoint, context.timeoutMs);
  const failure: FailureContext = { spec: id, hint: endpointHint(endpoint) };

  return {
    id,
    provider: 'anthropic',
    model,
    acceptsImages: true,
    async generate(request, options) {
      const startedAt = Date.now();
      const conformed = await conformImages(request, anthropicImageTypes, 'Anthropic');
      const { body, warnings } = toAnthropicRequest(conformed.request, model);
      // The raw body, so tool inputs keep the number forms the model wrote (the SDK's JSON.parse would drop `2.0`).
      const raw = await client.messages.create(body, options?.signal ? { signal: options.signal } : {}).asResponse();
      const text = await raw.text();
      const response = parseBody(text, id);
      const mapped = fromAnthropicResponse(response, { spec: id, exactBody: exactOrNothing(text) });
      return {
        ...mapped,
        warnings: [...conformed.warnings, ...warnings, ...mapped.warnings],
        latencyMs: Date.now() - startedAt,
        raw: { request: body, response },
      };
    },
    classifyError: (error) => classifyAnthropicError(error, failure),
    preflight: () =>
      runPreflight(
        (signal) => client.models.retrieve(model, {}, { signal }),
        (error) => classifyAnthropicError(error, failure),
      ),
  };
}
