// `provider:model` → the batch backend of its vendor (`m3 run --batch`). OpenAI Chat Completions
// (`openai:`) and Responses (`openai-responses:`), Anthropic (`anthropic:`), Gemini (`gemini:` /
// `google:`) and Alibaba Cloud Model Studio (`qwen:` / `dashscope:`, whose documented Batch API
// is OpenAI's: file purpose "batch", /batches, a 24 h window) have batch APIs; any other provider
// is refused up front, saying why and naming the ones that work.
import { ConfigError } from '../../errors/index.js';
import { parseModelSpec } from '../registry.js';
import type { DriverContext } from '../types.js';
import type { BatchBackend } from './types.js';

const batchProviders = ['openai', 'openai-responses', 'anthropic', 'gemini', 'google', 'qwen', 'dashscope'] as const;
type BatchProvider = (typeof batchProviders)[number];

const localServer = 'a local OpenAI-compatible server, which documents no batch API';

/** Why a provider without a batch backend has none (checked against each vendor's documentation, 2026-12-02). */
const noBatchBecause: Readonly<Record<string, string>> = {
  replay: 'replay answers from recorded files and calls no provider',
  ollama: localServer,
  vllm: localServer,
  lmstudio: localServer,
  llamacpp: localServer,
  deepseek: 'DeepSeek documents no batch API',
  openrouter: 'OpenRouter documents no batch API',
  xai: "xAI's Batch API is its own (a named batch filled by add-requests calls), not OpenAI's file-based one",
  together: "Together AI's Batch API differs from OpenAI's (input files of purpose batch-api, a job object of its own)",
  zhipu: "Zhipu's Batch API sends /v4/chat/completions lines to its own /api/paas/v4 paths, which this backend does not speak",
};

function refuse(spec: string, provider: string): never {
  const why = noBatchBecause[provider] ?? 'no batch backend is written for it';
  throw new ConfigError(`--batch: ${spec} has no provider batch API here: ${why} (batch works with ${batchProviders.join(', ')})`);
}

const isBatchProvider = (provider: string): provider is BatchProvider => (batchProviders as readonly string[]).includes(provider);

/** Refuses, before anything starts, a model whose provider has no batch API here. */
export function checkBatchModel(spec: string): void {
  const { provider } = parseModelSpec(spec);
  if (!isBatchProvider(provider)) refuse(spec, provider);
}

export async function createBatchBackend(spec: string, context: DriverContext): Promise<BatchBackend> {
  const { provider, model } = parseModelSpec(spec);
  if (!isBatchProvider(provider)) return refuse(spec, provider);
  switch (provider) {
    case 'anthropic':
      return (await import('./anthropic.js')).createAnthropicBatchBackend(model, context);
    case 'gemini':
    case 'google':
      return (await import('./gemini.js')).createGeminiBatchBackend(model, context);
    default:
      return (await import('./openai.js')).createOpenAiBatchBackend(provider, model, context);
  }
}

export { BatchCollector, type BatchCounts, type BatchLedger } from './collector.js';
export type { BatchBackend } from './types.js';
