// Where each model provider lives and which key it needs. This is the only code that maps
// environment variable names to endpoints: drivers receive the merged env map through their
// DriverContext and ask here, so no driver (or SDK default) ever reads process.env itself.
import { ConfigError } from '../errors/index.js';
import type { EnvMap } from './env-file.js';

interface EndpointDefinition {
  /** Human name for messages, e.g. "DeepSeek". */
  label: string;
  defaultBaseUrl: string;
  /** Variables that override the base URL; the first one set wins. */
  baseUrlVariables: readonly string[];
  /** Variables that hold the API key; the first one set wins. */
  keyVariables: readonly string[];
  /** Local servers (ollama, vllm, ...) work without a key. */
  keyRequired: boolean;
}

function hosted(label: string, prefix: string, defaultBaseUrl: string, keyVariables = [`${prefix}_API_KEY`]): EndpointDefinition {
  return { label, defaultBaseUrl, baseUrlVariables: [`${prefix}_BASE_URL`], keyVariables, keyRequired: true };
}

function local(label: string, prefix: string, defaultBaseUrl: string): EndpointDefinition {
  return { label, defaultBaseUrl, baseUrlVariables: [`${prefix}_BASE_URL`], keyVariables: [`${prefix}_API_KEY`], keyRequired: false };
}

/**
 * Every provider name usable in `provider:model`, with its endpoint defaults.
 * @internal Exported for its tests.
 */
export const endpointDefinitions = {
  openai: hosted('OpenAI', 'OPENAI', 'https://api.openai.com/v1'),
  anthropic: hosted('Anthropic', 'ANTHROPIC', 'https://api.anthropic.com'),
  gemini: hosted('Google Gemini', 'GEMINI', 'https://generativelanguage.googleapis.com', ['GEMINI_API_KEY', 'GOOGLE_API_KEY']),
  ollama: local('Ollama', 'OLLAMA', 'http://127.0.0.1:11434/v1'),
  vllm: local('vLLM', 'VLLM', 'http://127.0.0.1:8000/v1'),
  lmstudio: local('LM Studio', 'LMSTUDIO', 'http://127.0.0.1:1234/v1'),
  llamacpp: local('llama.cpp server', 'LLAMACPP', 'http://127.0.0.1:8080/v1'),
  xai: hosted('xAI', 'XAI', 'https://api.x.ai/v1'),
  deepseek: hosted('DeepSeek', 'DEEPSEEK', 'https://api.deepseek.com'),
  zhipu: hosted('Zhipu (Z.ai)', 'ZHIPU', 'https://open.bigmodel.cn/api/paas/v4'),
  qwen: {
    ...hosted('Qwen (DashScope)', 'QWEN', 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', ['DASHSCOPE_API_KEY']),
    baseUrlVariables: ['QWEN_BASE_URL', 'DASHSCOPE_BASE_URL'],
  },
  dashscope: {
    ...hosted('DashScope', 'DASHSCOPE', 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1'),
    baseUrlVariables: ['DASHSCOPE_BASE_URL', 'QWEN_BASE_URL'],
  },
  openrouter: hosted('OpenRouter', 'OPENROUTER', 'https://openrouter.ai/api/v1'),
  together: hosted('Together AI', 'TOGETHER', 'https://api.together.xyz/v1'),
} as const satisfies Record<string, EndpointDefinition>;

export type EndpointName = keyof typeof endpointDefinitions;

export interface ResolvedEndpoint {
  name: string;
  label: string;
  baseUrl: string;
  /** Where the base URL came from: a variable name, or "default". */
  baseUrlSource: string;
  apiKey: string | undefined;
  /** The variable the key was read from (or the one to set when it is missing). */
  keyVariable: string;
  keyRequired: boolean;
}

export function isEndpointName(name: string): name is EndpointName {
  return Object.hasOwn(endpointDefinitions, name);
}

function firstSet(env: EnvMap, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function checkedUrl(value: string, source: string, spec: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${spec}: ${source}=${JSON.stringify(value)} is not a URL (expected e.g. http://127.0.0.1:11434/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${spec}: ${source}=${JSON.stringify(value)} must start with http:// or https://`);
  }
  return value.replace(/\/+$/, '');
}

/** Every provider key set in the env map, whatever its length: each is a secret to mask. */
export function providerKeyValues(env: EnvMap): string[] {
  const names = new Set(Object.values(endpointDefinitions).flatMap((definition: EndpointDefinition) => definition.keyVariables));
  return [...names].flatMap((name) => {
    const value = env[name]?.trim();
    return value ? [value] : [];
  });
}

/** Text naming the key variables, for messages: "GEMINI_API_KEY (or GOOGLE_API_KEY)". */
function keyVariablesText(name: EndpointName): string {
  const [first, ...rest] = endpointDefinitions[name].keyVariables;
  return rest.length > 0 ? `${first} (or ${rest.join(', ')})` : (first ?? '');
}

/**
 * Resolves base URL and key for `name` from the env map. A keyed provider without a key fails
 * here, at driver creation, with the variable to set, instead of on the first request.
 */
export function resolveEndpoint(name: EndpointName, env: EnvMap, spec: string = name): ResolvedEndpoint {
  const definition: EndpointDefinition = endpointDefinitions[name];
  const override = firstSet(env, definition.baseUrlVariables);
  const baseUrl = checkedUrl(override?.value ?? definition.defaultBaseUrl, override?.name ?? 'default base URL', spec);
  const key = firstSet(env, definition.keyVariables);
  if (definition.keyRequired && !key) {
    throw new ConfigError(`${spec}: no API key for ${definition.label}: set ${keyVariablesText(name)} in .env or the environment (see .env.example)`);
  }
  return {
    name,
    label: definition.label,
    baseUrl,
    baseUrlSource: override?.name ?? 'default',
    apiKey: key?.value,
    keyVariable: key?.name ?? definition.keyVariables[0] ?? '',
    keyRequired: definition.keyRequired,
  };
}

/** Hint appended to auth and request errors so users know which variables to check. */
export function endpointHint(endpoint: ResolvedEndpoint): string {
  const baseUrlVariable = endpointDefinitions[endpoint.name as EndpointName]?.baseUrlVariables[0] ?? 'the base URL';
  const keyText = endpoint.keyRequired ? `check ${endpoint.keyVariable}` : `set ${endpoint.keyVariable} if your server requires a key`;
  return `${keyText}; base URL ${endpoint.baseUrl} (${endpoint.baseUrlSource === 'default' ? `override with ${baseUrlVariable}` : `from ${endpoint.baseUrlSource}`})`;
}
