// Every provider name usable in `provider:model`, and which driver serves it. A static table,
// so listing providers (error messages, --help, `m3 config check`) never depends on which
// vendor modules happen to be loaded; each driver module is imported only when a spec names it.
import type { EndpointName } from '../config/providers.js';

type DriverKind = 'replay' | 'chat' | 'responses' | 'anthropic' | 'gemini';

export interface ProviderEntry {
  kind: DriverKind;
  /** Endpoint and key definition in src/config/providers.ts; replay has none. */
  endpoint?: EndpointName;
  /** One line for listings. */
  summary: string;
}

const chat = (endpoint: EndpointName, summary: string): ProviderEntry => ({ kind: 'chat', endpoint, summary });

/** @internal Exported for its tests. */
export const providerTable = {
  replay: { kind: 'replay', summary: 'replays ground truth or a prediction file (replay:gt, replay:noisy, replay:file=...)' },
  openai: chat('openai', 'OpenAI Chat Completions'),
  'openai-responses': { kind: 'responses', endpoint: 'openai', summary: 'OpenAI Responses API' },
  anthropic: { kind: 'anthropic', endpoint: 'anthropic', summary: 'Anthropic Messages API' },
  gemini: { kind: 'gemini', endpoint: 'gemini', summary: 'Google Gemini API' },
  google: { kind: 'gemini', endpoint: 'gemini', summary: 'alias of gemini' },
  ollama: chat('ollama', 'Ollama (OpenAI-compatible, local)'),
  vllm: chat('vllm', 'vLLM (OpenAI-compatible, local)'),
  lmstudio: chat('lmstudio', 'LM Studio (OpenAI-compatible, local)'),
  llamacpp: chat('llamacpp', 'llama.cpp server (OpenAI-compatible, local)'),
  xai: chat('xai', 'xAI (OpenAI-compatible)'),
  deepseek: chat('deepseek', 'DeepSeek (OpenAI-compatible)'),
  zhipu: chat('zhipu', 'Zhipu / Z.ai (OpenAI-compatible)'),
  qwen: chat('qwen', 'Qwen on DashScope (OpenAI-compatible)'),
  dashscope: chat('dashscope', 'DashScope (OpenAI-compatible)'),
  openrouter: chat('openrouter', 'OpenRouter (OpenAI-compatible)'),
  together: chat('together', 'Together AI (OpenAI-compatible)'),
} as const satisfies Record<string, ProviderEntry>;

type ProviderName = keyof typeof providerTable;

export const knownProviders: readonly string[] = Object.keys(providerTable).sort();

export function providerEntry(name: string): ProviderEntry | undefined {
  return Object.hasOwn(providerTable, name) ? providerTable[name as ProviderName] : undefined;
}

/** Which provider a bare model name most likely belongs to, for "did you mean" hints. */
export function guessProvider(model: string): string | undefined {
  const name = model.toLowerCase();
  if (/^(gpt-|o\d|chatgpt-|text-embedding-)/.test(name)) return 'openai';
  if (name.startsWith('claude')) return 'anthropic';
  if (name.startsWith('gemini')) return 'gemini';
  if (name.startsWith('deepseek')) return 'deepseek';
  if (name.startsWith('grok')) return 'xai';
  if (name.startsWith('glm')) return 'zhipu';
  if (name.startsWith('qwen')) return 'qwen';
  if (name === 'gt' || name === 'noisy') return 'replay';
  return undefined;
}
