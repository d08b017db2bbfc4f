// The @google/genai client every Gemini path builds (the driver and the batch backend): the
// Gemini API (not Vertex), the key and base URL from config, and one attempt per request (retries
// are the harness's).
import { GoogleGenAI } from '@google/genai';
import { sdkTimeout } from '../sdk-options.js';

export function geminiClient(endpoint: { apiKey?: string | undefined; baseUrl: string }, timeoutMs: number): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: endpoint.apiKey ?? '',
    vertexai: false,
    httpOptions: { baseUrl: endpoint.baseUrl, timeout: sdkTimeout(timeoutMs), retryOptions: { attempts: 1 } },
  });
}
