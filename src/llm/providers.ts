// Registers the vendor drivers with the registry. Each vendor folder owns its SDK wiring and is
// imported only when a spec names it, so a replay run never loads an SDK.
//   openai:<model> and the OpenAI-compatible presets (ollama:, vllm:, deepseek:, ...) → openai/
//   openai-responses:<model> (OpenAI Responses API) → openai/responses-driver.ts
//   anthropic:<model> → anthropic/        gemini:<model> (alias google:) → gemini/
import { isEndpointName } from '../config/providers.js';
import { chatPresetNames } from './presets.js';
import { registerProvider, type DriverContext } from './registry.js';

for (const name of chatPresetNames) {
  if (!isEndpointName(name)) continue;
  registerProvider(name, async (model, context) => (await import('./openai/driver.js')).createOpenAiDriver(name, model, context));
}

registerProvider('openai-responses', async (model, context) => (await import('./openai/responses-driver.js')).createOpenAiResponsesDriver(model, context));

registerProvider('anthropic', async (model, context) => (await import('./anthropic/driver.js')).createAnthropicDriver(model, context));

const createGemini = async (model: string, context: DriverContext) =>
  (await import('./gemini/driver.js')).createGeminiDriver(model, context);
registerProvider('gemini', createGemini);
registerProvider('google', createGemini);
