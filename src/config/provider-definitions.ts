// One row per provider name usable in `provider:model`: its driver, where it lives (base URL and
// the variables that override it), which key variables it reads, and, for OpenAI-compatible
// servers, its wire quirks and image rules. Everything else is derived from this table: the
// endpoint resolution of src/config/providers.ts, the registry's provider table
// (src/llm/provider-table.ts), the chat presets (src/llm/presets.ts), `m3 config check`'s provider
// list (provider-status.ts) and the mock LLM's destination rules, and the README's provider
// table is checked against it (test/config/provider-definitions.test.ts).
// Adding a provider is one row here (and its README row).

/** Which driver serves a provider. */
export type DriverKind = 'replay' | 'chat' | 'responses' | 'anthropic' | 'gemini';

export interface EndpointDefinition {
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

type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

/** How to talk Chat Completions to one OpenAI-compatible server. */
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

export interface ProviderDefinition {
  kind: DriverKind;
  /** One line for listings. */
  summary: string;
  /** Where it lives and which key it reads; replay has none. */
  endpoint?: EndpointDefinition;
  /** Another row whose endpoint this name shares (`openai-responses` → `openai`, `google` → `gemini`). */
  endpointOf?: string;
  /** Wire quirks of an OpenAI-compatible server, over the defaults below (kind `chat` only). */
  chat?: Partial<Omit<ChatPreset, 'name'>>;
}

function hosted(label: string, prefix: string, defaultBaseUrl: string, keyVariables = [`${prefix}_API_KEY`]): EndpointDefinition {
  return { label, defaultBaseUrl, baseUrlVariables: [`${prefix}_BASE_URL`], keyVariables, keyRequired: true };
}

function local(label: string, prefix: string, defaultBaseUrl: string): EndpointDefinition {
  return { label, defaultBaseUrl, baseUrlVariables: [`${prefix}_BASE_URL`], keyVariables: [`${prefix}_API_KEY`], keyRequired: false };
}

/** The defaults every OpenAI-compatible row starts from. */
export const chatDefaults: Omit<ChatPreset, 'name'> = {
  maxTokensField: 'max_tokens',
  acceptsImages: true,
  imageTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  imageUrl: 'data-url',
  sendParallelToolCalls: false,
  replayReasoning: false,
  replayReasoningDetails: false,
  reasoningTokensApart: false,
  extraBody: {},
};

const pngJpeg = ['image/png', 'image/jpeg'];
const pngJpegWebp = ['image/png', 'image/jpeg', 'image/webp'];
/** DashScope refuses non-streaming calls of Qwen3 open models unless thinking is off. */
const dashScopeBody = { enable_thinking: false };
const dashScopeUrl = 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1';

export const providerDefinitions = {
  replay: { kind: 'replay', summary: 'replays ground truth or a prediction file (replay:gt, replay:noisy, replay:file=...)' },
  openai: {
    kind: 'chat',
    summary: 'OpenAI Chat Completions',
    endpoint: hosted('OpenAI', 'OPENAI', 'https://api.openai.com/v1'),
    chat: { maxTokensField: 'max_completion_tokens', sendParallelToolCalls: true },
  },
  'openai-responses': { kind: 'responses', summary: 'OpenAI Responses API', endpointOf: 'openai' },
  anthropic: { kind: 'anthropic', summary: 'Anthropic Messages API', endpoint: hosted('Anthropic', 'ANTHROPIC', 'https://api.anthropic.com') },
  gemini: {
    kind: 'gemini',
    summary: 'Google Gemini API',
    endpoint: hosted('Google Gemini', 'GEMINI', 'https://generativelanguage.googleapis.com', ['GEMINI_API_KEY', 'GOOGLE_API_KEY']),
  },
  google: { kind: 'gemini', summary: 'alias of gemini', endpointOf: 'gemini' },
  ollama: {
    kind: 'chat',
    summary: 'Ollama (OpenAI-compatible, local)',
    endpoint: local('Ollama', 'OLLAMA', 'http://127.0.0.1:11434/v1'),
    chat: { imageTypes: pngJpegWebp },
  },
  vllm: { kind: 'chat', summary: 'vLLM (OpenAI-compatible, local)', endpoint: local('vLLM', 'VLLM', 'http://127.0.0.1:8000/v1'), chat: {} },
  lmstudio: {
    kind: 'chat',
    summary: 'LM Studio (OpenAI-compatible, local)',
    endpoint: local('LM Studio', 'LMSTUDIO', 'http://127.0.0.1:1234/v1'),
    chat: { imageTypes: pngJpeg },
  },
  llamacpp: {
    kind: 'chat',
    summary: 'llama.cpp server (OpenAI-compatible, local)',
    endpoint: local('llama.cpp server', 'LLAMACPP', 'http://127.0.0.1:8080/v1'),
    chat: { imageTypes: ['image/png', 'image/jpeg', 'image/gif'] },
  },
  xai: {
    kind: 'chat',
    summary: 'xAI (OpenAI-compatible)',
    endpoint: hosted('xAI', 'XAI', 'https://api.x.ai/v1'),
    chat: { imageTypes: pngJpeg, reasoningTokensApart: true },
  },
  deepseek: {
    kind: 'chat',
    summary: 'DeepSeek (OpenAI-compatible)',
    endpoint: hosted('DeepSeek', 'DEEPSEEK', 'https://api.deepseek.com'),
    chat: { acceptsImages: false, replayReasoning: true },
  },
  zhipu: {
    kind: 'chat',
    summary: 'Zhipu / Z.ai (OpenAI-compatible)',
    endpoint: hosted('Zhipu (Z.ai)', 'ZHIPU', 'https://open.bigmodel.cn/api/paas/v4'),
    chat: { imageTypes: pngJpeg, imageUrl: 'base64' },
  },
  qwen: {
    kind: 'chat',
    summary: 'Qwen on DashScope (OpenAI-compatible)',
    endpoint: { ...hosted('Qwen (DashScope)', 'QWEN', dashScopeUrl, ['DASHSCOPE_API_KEY']), baseUrlVariables: ['QWEN_BASE_URL', 'DASHSCOPE_BASE_URL'] },
    chat: { imageTypes: pngJpegWebp, extraBody: dashScopeBody },
  },
  dashscope: {
    kind: 'chat',
    summary: 'DashScope (OpenAI-compatible)',
    endpoint: { ...hosted('DashScope', 'DASHSCOPE', dashScopeUrl), baseUrlVariables: ['DASHSCOPE_BASE_URL', 'QWEN_BASE_URL'] },
    chat: { imageTypes: pngJpegWebp, extraBody: dashScopeBody },
  },
  openrouter: {
    kind: 'chat',
    summary: 'OpenRouter (OpenAI-compatible)',
    endpoint: hosted('OpenRouter', 'OPENROUTER', 'https://openrouter.ai/api/v1'),
    chat: { replayReasoningDetails: true },
  },
  together: {
    kind: 'chat',
    summary: 'Together AI (OpenAI-compatible)',
    endpoint: hosted('Together AI', 'TOGETHER', 'https://api.together.xyz/v1'),
    chat: { imageTypes: pngJpegWebp },
  },
} as const satisfies Record<string, ProviderDefinition>;

export type ProviderName = keyof typeof providerDefinitions;
