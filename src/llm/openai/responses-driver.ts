// OpenAI Responses API driver (`openai-responses:<model>`): same endpoint, key and error
// handling as `openai:`, but tool images travel inside their function_call_output.
import { endpointHint, resolveEndpoint } from '../../config/providers.js';
import type { FailureContext } from '../provider-errors.js';
import type { DriverContext, ModelDriver } from '../types.js';
import { createOpenAiClient } from './driver.js';
import { classifyOpenAiError } from './errors.js';
import { toResponsesRequest } from './responses-request.js';
import { fromResponsesResponse } from './responses-response.js';

export async function createOpenAiResponsesDriver(model: string, context: DriverContext): Promise<ModelDriver> {
  const id = `openai-responses:${model}`;
  const endpoint = resolveEndpoint('openai', context.env, id);
  const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, timeoutMs: context.timeoutMs });
  const failure: FailureContext = { spec: id, hint: endpointHint(endpoint) };

  return {
    id,
    provider: 'openai-responses',
    model,
    acceptsImages: true,
    async generate(request, options) {
      const startedAt = Date.now();
      const { body, warnings } = toResponsesRequest(request, model);
      const response = await client.responses.create(body, options?.signal ? { signal: options.signal } : {});
      const mapped = fromResponsesResponse(response, { spec: id });
      return {
        ...mapped,
        warnings: [...warnings, ...mapped.warnings],
        latencyMs: Date.now() - startedAt,
        raw: { request: body, response },
      };
    },
    classifyError: (error) => classifyOpenAiError(error, failure),
  };
}
