// `provider:model` specs → drivers, through the static provider table. Vendor modules are
// imported lazily so a replay run never loads an SDK it does not use.
import { ConfigError } from '../errors/index.js';
import { guessProvider, knownProviders, providerEntry, type ProviderEntry } from './provider-table.js';
import type { DriverContext, ModelDriver } from './types.js';

export interface ModelSpec {
  provider: string;
  model: string;
}

export function parseModelSpec(spec: string): ModelSpec {
  const index = spec.indexOf(':');
  if (index <= 0 || index === spec.length - 1) {
    const guess = index < 0 ? guessProvider(spec.trim()) : undefined;
    throw new ConfigError(
      `model "${spec}" is not of the form provider:model: every model needs its provider${guess ? ` (did you mean ${guess}:${spec.trim()}?)` : ''}; known providers: ${knownProviders.join(', ')} (e.g. replay:gt, openai:gpt-4o)`,
    );
  }
  return { provider: spec.slice(0, index).toLowerCase(), model: spec.slice(index + 1) };
}

async function createFromEntry(name: string, entry: ProviderEntry, model: string, context: DriverContext): Promise<ModelDriver> {
  switch (entry.kind) {
    case 'replay':
      return (await import('./replay/driver.js')).createReplayDriver(model, context);
    case 'chat':
      if (!entry.endpoint) break;
      return (await import('./openai/driver.js')).createOpenAiDriver(entry.endpoint, model, context);
    case 'responses':
      return (await import('./openai/responses-driver.js')).createOpenAiResponsesDriver(model, context);
    case 'anthropic':
      return (await import('./anthropic/driver.js')).createAnthropicDriver(model, context);
    case 'gemini':
      return (await import('./gemini/driver.js')).createGeminiDriver(model, context);
  }
  throw new ConfigError(`provider "${name}" has no endpoint definition`);
}

export async function createDriver(spec: string, context: DriverContext): Promise<ModelDriver> {
  const { provider, model } = parseModelSpec(spec);
  const entry = providerEntry(provider);
  if (!entry) {
    throw new ConfigError(`unknown model provider "${provider}" in "${spec}" (known: ${knownProviders.join(', ')})`);
  }
  return createFromEntry(provider, entry, model, context);
}

/** A file-system-safe label for a model spec: `openai:gpt-4o` → `gpt-4o`, `replay:gt` → `replay-gt`. */
export function modelLabel(spec: string): string {
  const { provider, model } = parseModelSpec(spec);
  const base = provider === 'replay' ? `replay-${model}` : (model.split('/').pop() ?? model);
  return base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || provider;
}
