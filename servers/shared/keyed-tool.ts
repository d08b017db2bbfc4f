// Tools of keyed web servers. They must never show a credential: not in a result, not in an error message,
// not in stderr. Upstreams sometimes echo the key (an error body quoting the request URL, a
// `key=` query parameter in a link), so every result of a keyed tool passes through here on its
// way out: the exact values of the server's credential variables are replaced everywhere, and
// in error results any URL query parameter that usually carries a secret is masked as well.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { guarded } from './tool-result.js';
import { UpstreamError } from './upstream-error.js';

const REDACTED = '[redacted]';

/** Query parameters that carry credentials in the APIs our servers call. */
const secretParameter = /([?&](?:key|api_key|apikey|app_key|app_id|client_id|client_secret|access_token|refresh_token)=)[^&\s"'<>\\]+/gi;

/** The values of the named variables that are set (shorter than 4 characters they would mask ordinary text). */
function secretValues(names: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  return names.map((name) => env[name]?.trim() ?? '').filter((value) => value.length >= 4);
}

/** Replaces every secret value (raw and URL-encoded) by a marker; with `maskParameters`, also secret-looking query parameters. */
function redactText(text: string, secrets: readonly string[], maskParameters = false): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  return maskParameters ? out.replace(secretParameter, `$1${REDACTED}`) : out;
}

/** The same result with every text part redacted. */
function redactResult(result: CallToolResult, secrets: readonly string[]): CallToolResult {
  const maskParameters = result.isError === true;
  return {
    ...result,
    content: result.content.map((part) => (part.type === 'text' ? { ...part, text: redactText(part.text, secrets, maskParameters) } : part)),
  };
}

/**
 * `guarded` for a tool of a keyed server: typed upstream failures become error results, and the
 * result is redacted against the server's credential variables before it leaves the process.
 */
async function guardedKeyed(credentialNames: readonly string[], body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  return redactResult(await guarded(body), secretValues(credentialNames));
}

type Shape = Record<string, z.ZodType>;
/** The `extra` of a tool handler, as far as our servers read it (the host's call context). */
export type ToolExtra = { _meta?: unknown };

/** Registers a tool of a keyed server: its body runs through `guardedKeyed`. */
export function registerKeyedTool<S extends Shape>(
  server: McpServer,
  credentialNames: readonly string[],
  tool: { name: string; description: string; shape: S },
  run: (args: z.infer<z.ZodObject<S>>, extra: ToolExtra) => Promise<CallToolResult>,
): void {
  const handler = (args: z.infer<z.ZodObject<S>>, extra: ToolExtra) => guardedKeyed(credentialNames, () => run(args, extra));
  // The SDK's overloads cannot follow a generic shape; the handler's types are checked above.
  server.registerTool(tool.name, { description: tool.description, inputSchema: tool.shape }, handler as never);
}

/**
 * Several credentials that are all needed (an id and a secret): their values by name, or one
 * typed missing_credentials failure naming every unset variable (`requireCredential` takes
 * alternatives, this takes a set).
 */
export function requireCredentials<N extends string>(names: readonly N[], server: string, env: NodeJS.ProcessEnv = process.env): Record<N, string> {
  const missing = names.filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    throw new UpstreamError(
      'missing_credentials',
      `${server}: no API key: set ${missing.join(', ')} in the "env" of the "${server}" entry of mcp_servers.json`,
    );
  }
  return Object.fromEntries(names.map((name) => [name, env[name]?.trim() ?? ''])) as Record<N, string>;
}
