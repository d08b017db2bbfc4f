// What every command that starts the MCP host takes from the configuration, in one place:
// the per-call timeout (M3_TOOL_CALL_TIMEOUT) and the variables every server gets
// (M3_ALLOWED_ROOTS, from the environment or .env).
import path from 'node:path';
import type { ProjectConfig } from '../config/index.js';
import { repoRoot } from '../config/paths.js';
import { allowedRootsEnv } from '../mcp/child-env.js';
import type { HostOptions } from '../mcp/host.js';
import { secondsToTimerMs } from '../config/timer-ms.js';

export function hostOptionsFrom(config: ProjectConfig): Pick<HostOptions, 'callTimeoutMs' | 'sharedEnv'> {
  return {
    callTimeoutMs: secondsToTimerMs(config.switches.M3_TOOL_CALL_TIMEOUT),
    sharedEnv: allowedRootsEnv(config.switches.M3_ALLOWED_ROOTS, repoRoot),
  };
}

/** The same options with `dir` added to the folders the servers may read and write (a command's scratch folder). */
export function allowingFolder(options: Pick<HostOptions, 'callTimeoutMs' | 'sharedEnv'>, dir: string): Pick<HostOptions, 'callTimeoutMs' | 'sharedEnv'> {
  const roots = [options.sharedEnv?.M3_ALLOWED_ROOTS, dir].filter((root): root is string => Boolean(root));
  return { ...options, sharedEnv: { ...options.sharedEnv, M3_ALLOWED_ROOTS: roots.join(path.delimiter) } };
}
