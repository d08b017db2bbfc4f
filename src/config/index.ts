// One place that reads the environment: .env + process env → switches and server specs. It is
// also where secrets enter, so every secret is registered for redaction here: provider keys,
// credential-named variables, and every value the server configuration passes to a server.
import { registerPassedValues, registerSecret, registerSecretsFromEnv } from '../log/redact.js';
import { loadEnvironment, type EnvMap } from './env-file.js';
import { fromRepo, repoRoot } from './paths.js';
import { providerKeyValues } from './providers.js';
import { loadServersConfig, type ServerSpec } from './servers.js';
import { parseSwitches, type Switches } from './switches.js';

export interface ProjectConfig {
  env: EnvMap;
  switches: Switches;
  serversFile: string;
  servers: ServerSpec[];
}

export interface LoadConfigOptions {
  serversFile?: string;
  env?: EnvMap;
  includeDisabled?: boolean;
}

export function loadProjectConfig(options: LoadConfigOptions = {}): ProjectConfig {
  const env = options.env ?? loadEnvironment();
  const switches = parseSwitches(env);
  const serversFile = options.serversFile ?? fromRepo('mcp_servers.json');
  const servers = loadServersConfig(serversFile, { env, root: repoRoot, includeDisabled: options.includeDisabled ?? false });
  registerSecretsFromEnv(env);
  for (const key of providerKeyValues(env)) registerSecret(key);
  for (const server of servers) registerPassedValues({ ...server.env, ...server.headers });
  return { env, switches, serversFile, servers };
}
export type { ServerSpec } from './servers.js';
