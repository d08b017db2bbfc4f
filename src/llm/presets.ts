// OpenAI-compatible presets: how to talk Chat Completions to each server, from the wire quirks
// in the rows of the one provider table (src/config/provider-definitions.ts).
// A model spec may override a preset per run:
//   ollama:llava?images=1&tokens=max_tokens      qwen:qwen3-8b?body.enable_thinking=false
import { type ChatPreset, chatDefaults, type ProviderDefinition, providerDefinitions } from '../config/provider-definitions.js';
import { ConfigError } from '../errors/index.js';

/** One preset per OpenAI-compatible row of the provider table: the defaults, then its quirks. */
export const chatPresets: Readonly<Record<string, ChatPreset>> = Object.fromEntries(
  Object.entries(providerDefinitions as Record<string, ProviderDefinition>).flatMap(([name, row]) =>
    row.kind === 'chat' ? [[name, { name, ...chatDefaults, ...row.chat }]] : [],
  ),
);

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
