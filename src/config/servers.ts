// mcp_servers.json: the reference shape `{ "servers": { name: { command, args, env, disabled } } }`
// plus `url` for Streamable HTTP servers and optional per-server timeouts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { registerPassedValues } from '../log/redact.js';
import { BuiltServerResolver, type ServerRuntime } from './built-servers.js';
import type { EnvMap } from './env-file.js';
import { formatIssues } from './zod-issues.js';
import { maxTimerSeconds, secondsToTimerMs, timerSecondsMessage } from './timer-ms.js';

const serverEntrySchema = z
  .object({
    command: z.string().min(1, 'expected a non-empty command').optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    url: z.string().url('expected an http(s) URL').optional(),
    headers: z.record(z.string(), z.string()).default({}),
    disabled: z.boolean().default(false),
    cwd: z.string().optional(),
    startupTimeoutSec: z.number().positive().max(maxTimerSeconds, timerSecondsMessage).optional(),
    callTimeoutSec: z.number().nonnegative().max(maxTimerSeconds, timerSecondsMessage).optional(),
    /** Relative paths in `args` are resolved against the repo root unless this is false. */
    resolveArgs: z.boolean().default(true),
    /** What the server is and where its code lives, for people reading the file and `m3 config check`. */
    description: z.string().optional(),
    _comment: z.string().optional(),
    autoApprove: z.array(z.string()).optional(),
  })
  .loose()
  .refine((entry) => Boolean(entry.command) !== Boolean(entry.url), {
    message: 'expected exactly one of "command" (stdio) or "url" (Streamable HTTP)',
  });

const serversFileSchema = z.object({
  servers: z.record(z.string(), serverEntrySchema).superRefine((servers, context) => {
    for (const name of Object.keys(servers)) {
      if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
        context.addIssue({ code: 'custom', path: [name], message: `server names may use letters, digits, ".", "_" and "-" (got "${name}")` });
      }
    }
  }),
});

export interface ServerSpec {
  name: string;
  transport: 'stdio' | 'http';
  command?: string;
  args: string[];
  env: Record<string, string>;
  url?: string;
  headers: Record<string, string>;
  cwd: string;
  startupTimeoutMs?: number;
  callTimeoutMs?: number;
  description?: string;
  /** Our own server's code: from source through tsx, or compiled (src/config/built-servers.ts). */
  runsFrom?: ServerRuntime;
  /** What the host starts instead of `args`: the compiled entry, when it is fresh. */
  launchArgs?: string[];
}

const variablePattern = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}`; an unset variable without default is an error.
 * `substituted` (when given) learns each variable's value as it is put in.
 */
export function interpolate(value: string, env: EnvMap, where: string, substituted?: Record<string, string>): string {
  return value.replace(variablePattern, (_match, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== '') {
      if (substituted) substituted[name] = found;
      return found;
    }
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`${where}: variable \${${name}} is not set (set it in the environment or .env, or write \${${name}:-default})`);
  });
}

function looksLikeRelativePath(arg: string): boolean {
  return !arg.startsWith('-') && !path.isAbsolute(arg) && /[\\/]/.test(arg) && !arg.includes('://');
}

export interface LoadServersOptions {
  env: EnvMap;
  root: string;
  /** Include disabled servers in the result (for listing). */
  includeDisabled?: boolean;
  /** Start our servers from a fresh dist/ build instead of tsx (default true). */
  preferBuilt?: boolean;
}

/** @internal Exported for its tests. */
export function parseServersConfig(raw: unknown, file: string, options: LoadServersOptions): ServerSpec[] {
  const parsed = serversFileSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(formatIssues(file, parsed.error.issues));
  const specs: ServerSpec[] = [];
  const built = options.preferBuilt === false ? undefined : new BuiltServerResolver(options.root);
  for (const [name, entry] of Object.entries(parsed.data.servers)) {
    if (entry.disabled && !options.includeDisabled) continue;
    const at = (key: string) => `${file}: at $.servers.${name}.${key}`;
    const env = Object.fromEntries(Object.entries(entry.env).map(([key, value]) => [key, interpolate(value, options.env, at(`env.${key}`))]));
    const fromVariables: Record<string, string> = {};
    const args = entry.args.map((arg, index) => {
      const value = interpolate(arg, options.env, at(`args[${index}]`), fromVariables);
      return entry.resolveArgs && looksLikeRelativePath(value) ? path.resolve(options.root, value) : value;
    });
    // A value put into a command line (`--sig ${SERVICE_SIG}`) is passed to the server as surely
    // as an env value: registered the same way (by its variable's name), so the stderr log's
    // command line, crash texts and the demo never show it. Literal arguments are not secrets.
    registerPassedValues(fromVariables);
    const command = entry.command === undefined ? undefined : interpolate(entry.command, options.env, at('command'));
    const runtime = built?.resolve(command, args) ?? {};
    specs.push({
      name,
      transport: entry.url ? 'http' : 'stdio',
      ...(command !== undefined ? { command: command.includes('/') && !path.isAbsolute(command) ? path.resolve(options.root, command) : command } : {}),
      args,
      env,
      ...(entry.url ? { url: interpolate(entry.url, options.env, at('url')) } : {}),
      headers: Object.fromEntries(Object.entries(entry.headers).map(([key, value]) => [key, interpolate(value, options.env, at(`headers.${key}`))])),
      cwd: entry.cwd ? path.resolve(options.root, entry.cwd) : options.root,
      ...(entry.startupTimeoutSec !== undefined ? { startupTimeoutMs: secondsToTimerMs(entry.startupTimeoutSec) } : {}),
      ...(entry.callTimeoutSec !== undefined ? { callTimeoutMs: secondsToTimerMs(entry.callTimeoutSec) } : {}),
      ...(entry.description ? { description: entry.description } : {}),
      ...runtime,
    });
  }
  return specs;
}

export function loadServersConfig(file: string, options: LoadServersOptions): ServerSpec[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the server configuration (${(error as Error).message})`, { cause: error });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseServersConfig(raw, file, options);
}
