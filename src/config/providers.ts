// Where each model provider lives and which key it needs, resolved from the environment. The
// definitions are rows of src/config/provider-definitions.ts; this is the only code that maps
// environment variable names to endpoints: drivers receive the merged env map through their
// DriverContext and ask here, so no driver (or SDK default) ever reads process.env itself.
import { ConfigError } from '../errors/index.js';
import type { EnvMap } from './env-file.js';
import { type EndpointDefinition, type ProviderDefinition, providerDefinitions } from './provider-definitions.js';

type Rows = typeof providerDefinitions;
type EndpointRows = { [K in keyof Rows as Rows[K] extends { endpoint: EndpointDefinition } ? K : never]: EndpointDefinition };

/**
 * Every provider with an endpoint of its own, from the one provider table (provider-definitions.ts).
 * @internal Exported for its tests.
 */
export const endpointDefinitions = Object.fromEntries(
  Object.entries(providerDefinitions as Record<string, ProviderDefinition>).flatMap(([name, row]) => (row.endpoint ? [[name, row.endpoint]] : [])),
) as EndpointRows;

export type EndpointName = keyof EndpointRows;

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
