// Gemini driver (`gemini:<model>`) on @google/genai. Thin SDK wiring: mapping lives in
// request.ts / response.ts; key (GEMINI_API_KEY or GOOGLE_API_KEY) and base URL
// (GEMINI_BASE_URL → httpOptions.baseUrl) come from config; SDK retries off (one attempt).
// The SDK's errors drop response headers, so each call wraps fetch to keep them for retry-after.
import { ApiError } from '@google/genai';
import { endpointHint, resolveEndpoint } from '../../config/providers.js';
import { ProviderError } from '../../errors/index.js';
import { conformImages } from '../conform-images.js';
import { geminiImageTypes } from '../image-types.js';
import { runPreflight } from '../preflight.js';
import type { FailureContext } from '../provider-errors.js';
import { sdkTimeout } from '../sdk-options.js';
import { roundOf } from '../tool-arguments.js';
import type { DriverContext, ModelDriver } from '../types.js';
import { geminiClient } from './client.js';
import { classifyGeminiError } from './errors.js';
import { toGeminiRequest } from './request.js';
import { fromGeminiResponse } from './response.js';

/**
 * The SDK drops each candidate's `finishMessage`, which is where a MALFORMED_FUNCTION_CALL names
 * the call the model tried; it is put back from the raw body (response.ts reads it).
 */
function withFinishMessages<T extends { candidates?: unknown }>(body: T, rawText: string | undefined): T {
  if (!rawText || !Array.isArray(body.candidates)) return body;
  let raw: { candidates?: Array<{ finishMessage?: unknown }> };
  try {
    raw = JSON.parse(rawText) as typeof raw;
  } catch {
    return body;
  }
  const candidates = (body.candidates as Array<Record<string, unknown>>).map((candidate, index) => {
    const message = raw.candidates?.[index]?.finishMessage;
    return typeof message === 'string' && candidate.finishMessage === undefined ? { ...candidate, finishMessage: message } : candidate;
  });
  return { ...body, candidates };
}

export async function createGeminiDriver(model: string, context: DriverContext): Promise<ModelDriver> {
  const id = `gemini:${model}`;
  const endpoint = resolveEndpoint('gemini', context.env, id);
  const timeoutMs = sdkTimeout(context.timeoutMs);
  const client = geminiClient(endpoint, context.timeoutMs);
  const failure: FailureContext = { spec: id, hint: endpointHint(endpoint) };

  return {
    id,
    provider: 'gemini',
    model,
    acceptsImages: true,
    async generate(request, options) {
      const startedAt = Date.now();
      const conformed = await conformImages(request, geminiImageTypes, 'Gemini');
      const { params, warnings } = toGeminiRequest(conformed.request, model);
      let failedHeaders: Headers | undefined;
      // Settled at once even when nobody awaits it: when the SDK fails (a connection dropped mid-body),
      // the clone's body fails too, and an unobserved rejection would end the process.
      let rawText: Promise<string | undefined> | undefined;
      const recordingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (!response.ok) failedHeaders = response.headers;
        else
          rawText = response
            .clone()
            .text()
            .catch(() => undefined);
        return response;
      };
      let response: Awaited<ReturnType<typeof client.models.generateContent>>;
      try {
        response = await client.models.generateContent({
          ...params,
          config: {
            ...params.config,
            httpOptions: { fetch: recordingFetch },
            ...(options?.signal ? { abortSignal: options.signal } : {}),
          },
        });
      } catch (error) {
        // The SDK aborts on its own timer without saying so; name it a timeout.
        const elapsed = Date.now() - startedAt;
        if (error instanceof Error && error.name === 'AbortError' && !options?.signal?.aborted && elapsed >= timeoutMs - 50) {
          throw new ProviderError('transient', `${id}: request timed out after ${timeoutMs} ms`, { cause: error });
        }
        const classified = classifyGeminiError({ error, ...(failedHeaders ? { headers: failedHeaders } : {}) }, ApiError, failure);
        throw new ProviderError(classified.errorClass, classified.message, {
          cause: error,
          ...(classified.retryAfterMs !== undefined ? { retryAfterMs: classified.retryAfterMs } : {}),
          ...(classified.configFault ? { configFault: true } : {}),
          ...(classified.requestFault ? { requestFault: true } : {}),
          ...(typeof (error as { status?: unknown }).status === 'number' ? { status: (error as { status: number }).status } : {}),
        });
      }
      const { sdkHttpResponse: _transport, ...parsed } = response;
      const body = withFinishMessages(parsed, await rawText);
      const mapped = fromGeminiResponse(body, { round: roundOf(request.messages), spec: id });
      return {
        ...mapped,
        warnings: [...conformed.warnings, ...warnings, ...mapped.warnings],
        latencyMs: Date.now() - startedAt,
        raw: { request: params, response: body },
      };
    },
    classifyError: (error) => classifyGeminiError({ error }, ApiError, failure),
    preflight: () =>
      runPreflight(
        (signal) => client.models.get({ model, config: { abortSignal: signal } }),
        (error) => classifyGeminiError({ error }, ApiError, failure),
      ),
  };
}
