// GET .../models/<id> as each vendor answers it (OpenAI and compatible servers, Anthropic,
// Gemini), including the 404 for an unknown model and the 401 for a rejected key, so the
// harness's pre-flight check sees exactly what the real APIs send.
import type { Vendor } from './wire-common.js';

export interface ModelLookup {
  found: boolean;
  body: unknown;
  unauthorized: unknown;
}

export function modelLookup(vendor: Vendor | 'unknown', id: string, models: readonly string[] | undefined): ModelLookup {
  const found = !models || models.includes(id);
  if (vendor === 'anthropic') {
    return {
      found,
      body: found
        ? { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }
        : { type: 'error', error: { type: 'not_found_error', message: `model: ${id}` } },
      unauthorized: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    };
  }
  if (vendor === 'gemini') {
    return {
      found,
      body: found
        ? { name: `models/${id}`, version: '001', displayName: id, supportedGenerationMethods: ['generateContent'] }
        : { error: { code: 404, message: `models/${id} is not found for API version v1beta, or is not supported for generateContent.`, status: 'NOT_FOUND' } },
      unauthorized: { error: { code: 401, message: 'API key not valid. Please pass a valid API key.', status: 'UNAUTHENTICATED' } },
    };
  }
  return {
    found,
    body: found
      ? { id, object: 'model', created: 0, owned_by: 'mock-llm' }
      : { error: { message: `The model '${id}' does not exist`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } },
    unauthorized: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
  };
}
