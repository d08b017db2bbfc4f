// OpenAI-compatible presets: how to talk Chat Completions to each server. Where a server lives
// and which key it needs is config (src/config/providers.ts); this table holds the wire quirks.
// A model spec may override a preset per run:
//   ollama:llava?images=1&tokens=max_tokens      qwen:qwen3-8b?body.enable_thinking=false
import { ConfigError } from '../errors/index.js';

type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

export interface ChatPreset {
  name: string;
  /**
   * OpenAI's reasoning models only accept `max_completion_tokens`; most compatible servers
   * (vLLM, llama.cpp, older Ollama, DeepSeek, Zhipu) only know `max_tokens`.
   */
  maxTokensField: MaxTokensField;
  /** Text-only endpoints get a placeholder (and a warning) instead of each image. */
  acceptsImages: boolean;
  /**
   * Image media types the endpoint decodes; others are converted (to PNG or JPEG) before sending.
   * xAI takes JPEG and PNG only; Ollama's endpoint refuses GIF; llama.cpp's decoder has no WebP.
   */
  imageTypes: readonly string[];
  /** How an image travels in `image_url.url`: a data: URL, or bare base64 (Zhipu refuses data: URLs). */
  imageUrl: 'data-url' | 'base64';
  /** Send `parallel_tool_calls: true`; some servers reject fields they do not know. */
  sendParallelToolCalls: boolean;
  /** Send an assistant turn's `reasoning_content` back with its tool calls (DeepSeek thinking mode requires it). */
  replayReasoning: boolean;
  /**
   * Send every assistant turn's `reasoning_details` back unchanged (OpenRouter: Gemini models
   * answer 400 "Gemini models require OpenRouter reasoning details to be preserved" without them).
   */
  replayReasoningDetails: boolean;
  /** `completion_tokens` excludes reasoning tokens, reported apart in completion_tokens_details (xAI). */
  reasoningTokensApart: boolean;
  /** Extra top-level body fields, e.g. DashScope's `enable_thinking: false` for non-streaming Qwen3 calls. */
  extraBody: Readonly<Record<string, unknown>>;
}

const commonImageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

const compatible = (name: string, overrides: Partial<ChatPreset> = {}): ChatPreset => ({
  name,
  maxTokensField: 'max_tokens',
  acceptsImages: true,
  imageTypes: commonImageTypes,
  imageUrl: 'data-url',
  sendParallelToolCalls: false,
  replayReasoning: false,
  replayReasoningDetails: false,
  reasoningTokensApart: false,
  extraBody: {},
  ...overrides,
});

/** DashScope refuses non-streaming calls of Qwen3 open models unless thinking is off. */
const dashScopeBody = { enable_thinking: false };

export const chatPresets: Readonly<Record<string, ChatPreset>> = {
  openai: compatible('openai', { maxTokensField: 'max_completion_tokens', sendParallelToolCalls: true }),
  ollama: compatible('ollama', { imageTypes: ['image/png', 'image/jpeg', 'image/webp'] }),
  vllm: compatible('vllm'),
  lmstudio: compatible('lmstudio', { imageTypes: ['image/png', 'image/jpeg'] }),
  llamacpp: compatible('llamacpp', { imageTypes: ['image/png', 'image/jpeg', 'image/gif'] }),
  xai: compatible('xai', { imageTypes: ['image/png', 'image/jpeg'], reasoningTokensApart: true }),
  deepseek: compatible('deepseek', { acceptsImages: false, replayReasoning: true }),
  zhipu: compatible('zhipu', { imageTypes: ['image/png', 'image/jpeg'], imageUrl: 'base64' }),
  qwen: compatible('qwen', { imageTypes: ['image/png', 'image/jpeg', 'image/webp'], extraBody: dashScopeBody }),
  dashscope: compatible('dashscope', { imageTypes: ['image/png', 'image/jpeg', 'image/webp'], extraBody: dashScopeBody }),
  openrouter: compatible('openrouter', { replayReasoningDetails: true }),
  together: compatible('together', { imageTypes: ['image/png', 'image/jpeg', 'image/webp'] }),
};

const chatPresetNames = Object.keys(chatPresets);

const optionNames = 'images, parallel, tokens, reasoning, image_url, body.<field>';

function parseFlag(value: string, key: string, spec: string): boolean {
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(`model option ${key}=${value} in "${spec}" must be 1 or 0`);
}

/** `body.<field>=<JSON value>`; text that is not JSON is taken as a string. */
function parseBodyValue(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function applyOption(preset: ChatPreset, key: string, value: string, spec: string): void {
  if (key === 'images') preset.acceptsImages = parseFlag(value, key, spec);
  else if (key === 'parallel') preset.sendParallelToolCalls = parseFlag(value, key, spec);
  else if (key === 'reasoning') preset.replayReasoning = parseFlag(value, key, spec);
  else if (key === 'tokens') {
    if (value !== 'max_tokens' && value !== 'max_completion_tokens') {
      throw new ConfigError(`model option tokens=${value} in "${spec}" must be max_tokens or max_completion_tokens`);
    }
    preset.maxTokensField = value;
  } else if (key === 'image_url') {
    if (value !== 'data-url' && value !== 'base64') throw new ConfigError(`model option image_url=${value} in "${spec}" must be data-url or base64`);
    preset.imageUrl = value;
  } else if (key.startsWith('body.') && key.length > 'body.'.length) {
    preset.extraBody = { ...preset.extraBody, [key.slice('body.'.length)]: parseBodyValue(value) };
  } else {
    throw new ConfigError(`unknown model option "${key}" in "${spec}" (known: ${optionNames})`);
  }
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
  for (const [key, value] of new URLSearchParams(modelWithOptions.slice(queryAt + 1))) applyOption(preset, key, value, spec);
  return { model, preset };
}
