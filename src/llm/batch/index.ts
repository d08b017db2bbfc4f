// `provider:model` → the batch backend of its vendor (`m3 run --batch`). OpenAI Chat Completions
// (`openai:`), Anthropic (`anthropic:`) and Gemini (`gemini:` / `google:`) have batch APIs; any
// other provider is refused up front, naming the ones that work.
import { ConfigError } from '../../errors/index.js';
import { parseModelSpec } from '../registry.js';
import type { DriverContext } from '../types.js';
import type { BatchBackend } from './types.js';

const batchProviders = ['openai', 'anthropic', 'gemini', 'google'] as const;

function refuse(spec: string): never {
  throw new ConfigError(`--batch: ${spec} has no provider batch API here (batch works with ${batchProviders.join(', ')})`);
}

/** Refuses, before anything starts, a model whose provider has no batch API here. */
export function checkBatchModel(spec: string): void {
  if (!(batchProviders as readonly string[]).includes(parseModelSpec(spec).provider)) refuse(spec);
}

export async function createBatchBackend(spec: string, context: DriverContext): Promise<BatchBackend> {
  const { provider, model } = parseModelSpec(spec);
  switch (provider) {
    case 'openai':
      return (await import('./openai.js')).createOpenAiBatchBackend(model, context);
    case 'anthropic':
      return (await import('./anthropic.js')).createAnthropicBatchBackend(model, context);
    case 'gemini':
    case 'google':
      return (await import('./gemini.js')).createGeminiBatchBackend(model, context);
    default:
      return refuse(spec);
  }
}

export { BatchCollector, type BatchCounts, type BatchLedger } from './collector.js';
export type { BatchBackend } from './types.js';
