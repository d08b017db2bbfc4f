// The Anthropic SDK client every Anthropic path builds (the driver and the batch backend): retries
// are the harness's, and an explicit timeout also stops the SDK from refusing long non-streaming
// requests.
import Anthropic from '@anthropic-ai/sdk';
import { sdkLogger, sdkTimeout } from '../sdk-options.js';

export function anthropicClient(endpoint: { apiKey?: string | undefined; baseUrl: string }, timeoutMs: number): Anthropic {
  return new Anthropic({
    apiKey: endpoint.apiKey ?? null,
    baseURL: endpoint.baseUrl,
    maxRetries: 0,
    timeout: sdkTimeout(timeoutMs),
    logLevel: 'warn',
    logger: sdkLogger('anthropic-sdk'),
    openTelemetry: false,
  });
}
