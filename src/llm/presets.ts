// OpenAI-compatible presets: how to talk Chat Completions to each server. Where a server lives
// and which key it needs is config (src/config/providers.ts); this table holds the wire quirks.
// A model spec may override a preset per run: `ollama:llava?images=1&tokens=max_tokens`.
import { ConfigError } from '../errors/index.js';

export type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

export interface ChatPreset {
  name: string;
  /**
   * OpenAI's reasoning models only accept `max_completion_tokens`; most compatible servers
   * (vLLM, llama.cpp, older Ollama, DeepSeek, Zhipu) only know `max_tokens`.
   */
  maxTokensField: MaxTokensField;
  /** Text-only endpoints get a placeholder (and a warning) instead of each image. */
  acceptsImages: boolean;
  /** Send `parallel_tool_calls: true`; some servers reject fields they do not know. */
  sendParallelToolCalls: boolean;
  /**
   * Replay a call's unparsable argument text verbatim in later requests. OpenAI accepts it and
   * the model sees its own mistake; vLLM parses history arguments as JSON and would fail the
   * whole request, so compatible servers get `{}` (the error result still explains it).
   */
  replayMalformedArguments: boolean;
}

const compatible = (name: string, overrides: Partial<ChatPreset> = {}): ChatPreset => ({
  name,
  maxTokensField: 'max_tokens',
  acceptsImages: true,
  sendParallelToolCalls: false,
  replayMalformedArguments: false,
  ...overrides,
});

export const chatPresets: Readonly<Record<string, ChatPreset>> = {
  openai: { name: 'openai', maxTokensField: 'max_completion_tokens', acceptsImages: true, sendParallelToolCalls: true, replayMalformedArguments: true },
  ollama: compatible('ollama'),
  vllm: compatible('vllm'),
  lmstudio: compatible('lmstudio'),
  llamacpp: compatible('llamacpp'),
  xai: compatible('xai'),
  deepseek: compatible('deepseek', { acceptsImages: false }),
  zhipu: compatible('zhipu'),
  qwen: compatible('qwen'),
  dashscope: compatible('dashscope'),
  openrouter: compatible('openrouter'),
  together: compatible('together'),
};

export const chatPresetNames = Object.keys(chatPresets);

function parseFlag(value: string, key: string, spec: string): boolean {
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(`model option ${key}=${value} in "${spec}" must be 1 or 0`);
}

/** Splits `model?key=value` and applies the options to the preset. */
export function resolveChatPreset(presetName: string, modelWithOptions: string): { model: string; preset: ChatPreset } {
  const base = chatPresets[presetName];
  if (!base) throw new ConfigError(`unknown OpenAI-compatible preset "${presetName}" (known: ${chatPresetNames.join(', ')})`);
  const spec = `${presetName}:${modelWithOptions}`;
  const queryAt = modelWithOptions.indexOf('?');
  const model = queryAt >= 0 ? modelWithOptions.slice(0, queryAt) : modelWithOptions;
  if (!model) throw new ConfigError(`"${spec}" names no model`);
  const preset: ChatPreset = { ...base };
  if (queryAt < 0) return { model, preset };
  for (const [key, value] of new URLSearchParams(modelWithOptions.slice(queryAt + 1))) {
    if (key === 'images') preset.acceptsImages = parseFlag(value, key, spec);
    else if (key === 'parallel') preset.sendParallelToolCalls = parseFlag(value, key, spec);
    else if (key === 'tokens') {
      if (value !== 'max_tokens' && value !== 'max_completion_tokens') {
        throw new ConfigError(`model option tokens=${value} in "${spec}" must be max_tokens or max_completion_tokens`);
      }
      preset.maxTokensField = value;
    } else {
      throw new ConfigError(`unknown model option "${key}" in "${spec}" (known: images, parallel, tokens)`);
    }
  }
  return { model, preset };
}
