// OpenAI Responses API driver (`openai-responses:<model>`): same endpoint, key and error
// handling as `openai:`, but tool images travel inside their function_call_output, and
// reasoning models get their encrypted reasoning back every round.
import { endpointHint, resolveEndpoint } from '../../config/providers.js';
import type { FailureContext } from '../provider-errors.js';
import type { DriverContext, ModelDriver } from '../types.js';
import { conformImages } from '../conform-images.js';
import { responsesImageTypes } from '../image-types.js';
import { runPreflight } from '../preflight.js';
import { createOpenAiClient, onceNotes } from './driver.js';
import { classifyOpenAiError } from './errors.js';
import type { OmittableParameter } from './request.js';
import { toResponsesRequest } from './responses-request.js';
import { fromResponsesResponse } from './responses-response.js';
import { withoutRefusedParameters } from './unsupported-parameter.js';

export async function createOpenAiResponsesDriver(model: string, context: DriverContext): Promise<ModelDriver> {
  const id = `openai-responses:${model}`;
  const endpoint = resolveEndpoint('openai', context.env, id);
  const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, timeoutMs: context.timeoutMs });
  const failure: FailureContext = { spec: id, hint: endpointHint(endpoint) };
  const omit = new Set<OmittableParameter>();
  const note = onceNotes(id);

  return {
    id,
    provider: 'openai-responses',
    model,
    acceptsImages: true,
    async generate(request, options) {
      const startedAt = Date.now();
      const conformed = await conformImages(request, responsesImageTypes, 'the Responses API');
      const notes: string[] = [];
      let built = toResponsesRequest(conformed.request, model, omit);
      const response = await withoutRefusedParameters(
        omit,
        () => client.responses.create(built.body, options?.signal ? { signal: options.signal } : {}),
        (parameter, message) => {
          notes.push(`the API refused ${parameter} (${message}); retrying without it for the rest of the run`);
          built = toResponsesRequest(conformed.request, model, omit);
        },
      );
      const mapped = fromResponsesResponse(response, { spec: id });
      return {
        ...mapped,
        warnings: [...note([...notes, ...built.notSent]), ...conformed.warnings, ...built.warnings, ...mapped.warnings],
        latencyMs: Date.now() - startedAt,
        raw: { request: built.body, response },
      };
    },
    classifyError: (error) => classifyOpenAiError(error, failure),
    preflight: () =>
      runPreflight(
        (signal) => client.models.retrieve(model, { signal }),
        (error) => classifyOpenAiError(error, failure),
      ),
  };
}
