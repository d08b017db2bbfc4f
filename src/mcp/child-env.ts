// The environment of a stdio server child. The reference gave every server the whole parent
// environment (API keys of every provider included); here a child sees only a small base plus
// what its own `mcp_servers.json` entry (or the host, for all servers) sets. A server that needs
// a key says so in its entry: `"env": {"SERPAPI_KEY": "${SERPAPI_KEY}"}`.
//
// Base variables copied from the parent when set:
//   PATH, HOME            finding executables (node, python, uv) and per-user caches
//   LANG, LC_ALL, LC_CTYPE text encoding of the child's I/O
//   TZ                    reproducible local times
//   TMPDIR, TEMP, TMP     where tsx, Python and libraries put temporary files
//   SYSTEMROOT, WINDIR    required by many Windows programs
//   M3_NETWORK_GUARD      "loopback" keeps our web-API servers off the network (set by the
//                         test suite; servers/shared/http-client.ts reads it)
//   M3_ALLOWED_ROOTS      extra folders our servers may read and write besides media/
//                         (servers/shared/allowed-roots.ts); a list of paths, no secret
// NODE_OPTIONS is deliberately *not* copied: it can preload the harness's own loaders,
// debuggers or coverage hooks into every server. Set it in a server's `env` if one needs it.
//
// Note: `StdioClientTransport` itself always adds the SDK's default list (HOME, LOGNAME, PATH,
// SHELL, TERM, USER on POSIX) from `process.env` underneath the env we pass. None of those
// carries credentials, so the isolation above still holds.

import path from 'node:path';

const baseEnvNames = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'WINDIR',
  'M3_NETWORK_GUARD',
  'M3_ALLOWED_ROOTS',
] as const;

export interface ChildEnvSources {
  /** Where the base variables are read from (normally process.env). */
  parentEnv: Record<string, string | undefined>;
  /** Set by the host for every stdio server (e.g. M3_ALLOWED_ROOTS for a run's workspace). */
  sharedEnv?: Record<string, string>;
  /** The server's own configured `env`; wins over everything else. */
  serverEnv: Record<string, string>;
}

/** The folders of an M3_ALLOWED_ROOTS value, each made absolute against the repo root. */
export function parseAllowedRoots(value: string, root: string): string[] {
  return value
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => path.resolve(root, entry));
}

/**
 * The host's shared env entry for M3_ALLOWED_ROOTS as the configuration sees it (`.env`
 * included), with absolute folders, so a server started in another cwd confines to the same
 * folders. Empty when the switch is unset.
 */
export function allowedRootsEnv(value: string, root: string): Record<string, string> {
  const roots = parseAllowedRoots(value, root);
  return roots.length === 0 ? {} : { M3_ALLOWED_ROOTS: roots.join(path.delimiter) };
}

export function createChildEnv(sources: ChildEnvSources): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of baseEnvNames) {
    const value = sources.parentEnv[name];
    // Exported shell functions (`() { ...`) are a known injection vector; the SDK skips them too.
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return { ...env, ...(sources.sharedEnv ?? {}), ...sources.serverEnv };
}
