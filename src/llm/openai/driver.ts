// OpenAI Chat Completions driver, used for `openai:` and every OpenAI-compatible preset
// (`ollama:`, `deepseek:`, ...). Thin SDK wiring: mapping lives in request.ts / response.ts,
// endpoints and keys come from config, retries are the harness's (SDK maxRetries 0).
import OpenAI from 'openai';
import { endpointHint, resolveEndpoint, type EndpointName } from '../../config/providers.js';
import { resolveChatPreset } from '../presets.js';
import type { FailureContext } from '../provider-errors.js';
import type { DriverContext, ModelDriver } from '../types.js';
import { classifyOpenAiError } from './errors.js';
import { toOpenAiRequest } from './request.js';
import { fromOpenAiResponse } from './response.js';
import { sdkLogger, sdkTimeout } from '../sdk-options.js';
import { roundOf } from '../tool-arguments.js';

export interface OpenAiClientSettings {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/** A client that never falls back to process.env (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_LOG). */
export function createOpenAiClient(settings: OpenAiClientSettings): OpenAI {
  return new OpenAI({
    // Keyless local servers still need a non-empty key, or the SDK would read OPENAI_API_KEY.
    apiKey: settings.apiKey ?? 'unused',
    baseURL: settings.baseUrl,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: sdkTimeout(settings.timeoutMs),
    logLevel: 'warn',
    logger: sdkLogger('openai-sdk'),
  });
}

export async function createOpenAiDriver(presetName: EndpointName, modelWithOptions: string, context: DriverContext): Promise<ModelDriver> {
  const { model, preset } = resolveChatPreset(presetName, modelWithOptions);
  const id = `${presetName}:${model}`;
  const endpoint = resolveEndpoint(presetName, context.env, id);
  const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, timeoutMs: context.timeoutMs });
  const failure: FailureContext = { spec: id, hint: endpointHint(endpoint) };

  return {
    id,
    provider: presetName,
    model,
    acceptsImages: preset.acceptsImages,
    async generate(request, options) {
      const startedAt = Date.now();
      const { body, warnings } = toOpenAiRequest(request, model, preset);
      const response = await client.chat.completions.create(body, options?.signal ? { signal: options.signal } : {});
      const mapped = fromOpenAiResponse(response, { round: roundOf(request.messages), spec: id });
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
