// What `m3 config check` says about each model provider, from the one provider table
// (provider-definitions.ts): its driver, the variables naming its base URL and its key, and
// whether each is set in the merged environment. Values are never part of it: a key is a
// secret, and a base URL may carry credentials.
import type { EnvMap } from './env-file.js';
import { type EndpointDefinition, type ProviderDefinition, providerDefinitions } from './provider-definitions.js';

interface VariableStatus {
  name: string;
  set: boolean;
}

export interface ProviderStatus {
  name: string;
  driver: ProviderDefinition['kind'];
  summary: string;
  /** The row whose endpoint this one uses (`openai-responses` → `openai`); absent for its own or none. */
  endpointOf?: string;
  /** Absent for a provider without an endpoint (replay). */
  endpoint?: {
    defaultBaseUrl: string;
    baseUrlVariables: VariableStatus[];
    keyVariables: VariableStatus[];
    keyRequired: boolean;
    /** A key is required and none of its variables is set: a run with this provider stops at once. */
    missingKey: boolean;
  };
}

const isSet = (env: EnvMap, name: string): VariableStatus => ({ name, set: (env[name]?.trim() ?? '') !== '' });

function endpointStatus(endpoint: EndpointDefinition, env: EnvMap): NonNullable<ProviderStatus['endpoint']> {
  const keyVariables = endpoint.keyVariables.map((name) => isSet(env, name));
  return {
    defaultBaseUrl: endpoint.defaultBaseUrl,
    baseUrlVariables: endpoint.baseUrlVariables.map((name) => isSet(env, name)),
    keyVariables,
    keyRequired: endpoint.keyRequired,
    missingKey: endpoint.keyRequired && !keyVariables.some((variable) => variable.set),
  };
}

/** Every row of the provider table, in its order, with the set/unset state of its variables. */
export function describeProviders(env: EnvMap): ProviderStatus[] {
  const rows = providerDefinitions as Record<string, ProviderDefinition>;
  return Object.entries(rows).map(([name, row]) => {
    const endpoint = row.endpoint ?? (row.endpointOf ? rows[row.endpointOf]?.endpoint : undefined);
    return {
      name,
      driver: row.kind,
      summary: row.summary,
      ...(row.endpointOf ? { endpointOf: row.endpointOf } : {}),
      ...(endpoint ? { endpoint: endpointStatus(endpoint, env) } : {}),
    };
  });
}

const listed = (variables: readonly VariableStatus[]) => variables.map((variable) => `${variable.name} (${variable.set ? 'set' : 'not set'})`).join(', ');

/** One line per provider for the terminal: name, driver, base URL and key variables with their state. */
export function formatProviderLines(providers: readonly ProviderStatus[]): string[] {
  return providers.map((provider) => {
    const head = `  ${provider.name.padEnd(17)} ${provider.driver.padEnd(9)}`;
    const endpoint = provider.endpoint;
    if (!endpoint) return `${head} ${provider.summary}`;
    const shared = provider.endpointOf ? ` (endpoint of ${provider.endpointOf})` : '';
    const key = endpoint.keyRequired ? 'key required' : 'key optional';
    return `${head} base URL ${listed(endpoint.baseUrlVariables)} else ${endpoint.defaultBaseUrl}; ${key}: ${listed(endpoint.keyVariables)}${shared}`;
  });
}
