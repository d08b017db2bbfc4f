// Every provider name usable in `provider:model`, and which driver serves it, derived from the
// one provider table (src/config/provider-definitions.ts). A static table,
// so listing providers (error messages, the model-spec parser) never depends on which
// vendor modules happen to be loaded; each driver module is imported only when a spec names it.
import type { EndpointName } from '../config/providers.js';
import { type DriverKind, type ProviderDefinition, type ProviderName, providerDefinitions } from '../config/provider-definitions.js';

export interface ProviderEntry {
  kind: DriverKind;
  /** Endpoint and key definition (src/config/providers.ts); replay has none. */
  endpoint?: EndpointName;
  /** One line for listings. */
  summary: string;
}

function entryOf(name: string, row: ProviderDefinition): ProviderEntry {
  const endpoint = (row.endpointOf ?? (row.endpoint ? name : undefined)) as EndpointName | undefined;
  return { kind: row.kind, summary: row.summary, ...(endpoint ? { endpoint } : {}) };
}

/**
 * @internal Exported for its tests.
 */
export const providerTable = Object.fromEntries(
  Object.entries(providerDefinitions as Record<string, ProviderDefinition>).map(([name, row]) => [name, entryOf(name, row)]),
) as Record<ProviderName, ProviderEntry>;

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
