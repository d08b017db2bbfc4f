// One place that reads the environment: .env + process env → switches and server specs.
import { loadEnvironment, type EnvMap } from './env-file.js';
import { fromRepo, repoRoot } from './paths.js';
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
  return { env, switches, serversFile, servers };
}

export type { Switches } from './switches.js';
export type { ServerSpec } from './servers.js';
export type { EnvMap } from './env-file.js';
