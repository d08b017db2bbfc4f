// `provider:model` specs → drivers. Vendor modules are imported lazily so a replay run
// never loads an SDK it does not use.
import { ConfigError } from '../errors/index.js';
import type { EnvMap } from '../config/env-file.js';
import type { GtTask } from '../tasks/schemas.js';
import type { ModelDriver } from './types.js';

export interface DriverContext {
  /** The merged environment (.env + process env); config-level code reads keys from it, drivers never do. */
  env: EnvMap;
  /** Ground truth by task id, for replay drivers. */
  groundTruth?: ReadonlyMap<string, GtTask>;
  /** Per-request timeout in ms, for SDK clients (the harness also enforces it). */
  timeoutMs: number;
}

export type DriverFactory = (model: string, context: DriverContext) => Promise<ModelDriver>;

export interface ModelSpec {
  provider: string;
  model: string;
}

const factories = new Map<string, DriverFactory>([
  ['replay', async (model, context) => (await import('./replay/driver.js')).createReplayDriver(model, context)],
]);

/** Vendor modules register themselves here (see src/llm/providers.ts). */
export function registerProvider(name: string, factory: DriverFactory): void {
  factories.set(name, factory);
}

export function knownProviders(): string[] {
  return [...factories.keys()].sort();
}

export function parseModelSpec(spec: string): ModelSpec {
  const index = spec.indexOf(':');
  if (index <= 0 || index === spec.length - 1) {
    throw new ConfigError(
      `model "${spec}" is not of the form provider:model (known providers: ${knownProviders().join(', ')}; e.g. replay:gt, openai:gpt-4o)`,
    );
  }
  return { provider: spec.slice(0, index).toLowerCase(), model: spec.slice(index + 1) };
}

export async function createDriver(spec: string, context: DriverContext): Promise<ModelDriver> {
  await import('./providers.js');
  const { provider, model } = parseModelSpec(spec);
  const factory = factories.get(provider);
  if (!factory) {
    throw new ConfigError(`unknown model provider "${provider}" in "${spec}" (known: ${knownProviders().join(', ')})`);
  }
  return factory(model, context);
}

/** A file-system-safe label for a model spec: `openai:gpt-4o` → `gpt-4o`, `replay:gt` → `replay-gt`. */
export function modelLabel(spec: string): string {
  const { provider, model } = parseModelSpec(spec);
  const base = provider === 'replay' ? `replay-${model}` : (model.split('/').pop() ?? model);
  return base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || provider;
}
