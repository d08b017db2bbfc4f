// OpenAI Chat Completions driver, used for `openai:` and every OpenAI-compatible preset
// (`ollama:`, `deepseek:`, ...). Thin SDK wiring: mapping lives in request.ts / response.ts,
// endpoints and keys come from config, retries are the harness's (SDK maxRetries 0). Images
// are converted to the types the preset accepts first; a parameter the API names as
// unsupported for the model is left out from then on, and the run log says so once.
import OpenAI from 'openai';
import { endpointHint, resolveEndpoint, type EndpointName } from '../../config/providers.js';
import { log } from '../../log/logger.js';
import { conformImages } from '../conform-images.js';
import { runPreflight } from '../preflight.js';
import { resolveChatPreset } from '../presets.js';
import type { FailureContext } from '../provider-errors.js';
import { sdkLogger, sdkTimeout } from '../sdk-options.js';
import { roundOf } from '../tool-arguments.js';
import type { DriverContext, ModelDriver } from '../types.js';
import { classifyOpenAiError } from './errors.js';
import { toOpenAiRequest, type OmittableParameter } from './request.js';
import { fromOpenAiResponse } from './response.js';
import { withoutRefusedParameters } from './unsupported-parameter.js';

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

/** Warnings that hold for the whole run go to the run log once, and into the first response's warnings. */
export function onceNotes(id: string): (messages: readonly string[]) => string[] {
  const seen = new Set<string>();
  return (messages) =>
    messages.filter((message) => {
      if (seen.has(message)) return false;
      seen.add(message);
      log.warn(`${id}: ${message}`);
      return true;
    });
}

export async function createOpenAiDriver(presetName: EndpointName, modelWithOptions: string, context: DriverContext): Promise<ModelDriver> {
  const { model, preset } = resolveChatPreset(presetName, modelWithOptions);
  const id = `${presetName}:${model}`;
  const endpoint = resolveEndpoint(presetName, context.env, id);
  const client = createOpenAiClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, timeoutMs: context.timeoutMs });
  const failure: FailureContext = { spec: id, hint: endpointHint(endpoint) };
  const omit = new Set<OmittableParameter>();
  const note = onceNotes(id);

  return {
    id,
    provider: presetName,
    model,
    acceptsImages: preset.acceptsImages,
    async generate(request, options) {
      const startedAt = Date.now();
      const conformed = preset.acceptsImages ? await conformImages(request, preset.imageTypes, `the ${preset.name} preset`) : { request, warnings: [] };
      const notes: string[] = [];
      let mapped = toOpenAiRequest(conformed.request, model, preset, omit);
      const response = await withoutRefusedParameters(
        omit,
        () => client.chat.completions.create(mapped.body, options?.signal ? { signal: options.signal } : {}),
        (parameter, message) => {
          notes.push(`the API refused ${parameter} (${message}); retrying without it for the rest of the run`);
          mapped = toOpenAiRequest(conformed.request, model, preset, omit);
        },
      );
      const result = fromOpenAiResponse(response, { round: roundOf(request.messages), spec: id, reasoningTokensApart: preset.reasoningTokensApart });
      return {
        ...result,
        warnings: [...note([...notes, ...mapped.notSent]), ...conformed.warnings, ...mapped.warnings, ...result.warnings],
        latencyMs: Date.now() - startedAt,
        raw: { request: mapped.body, response },
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
