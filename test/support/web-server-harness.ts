// Pieces the web-API server tests share: connect one of our servers in process (as a child
// spawned with only the given env would see it: in-process-servers.ts) with its base URLs
// pointed at a loopback fake, call tools (text, error flag, error meta), load recorded
// upstream bodies (`{"_source": ..., "body": ...}`) keeping their number text, and read the
// ground-truth calls a server receives.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { stringify as stringifyLossless } from 'lossless-json';
import { startHttpFake, type FakeReply, type RecordedRequest } from '../../servers/shared/http-fake.js';
import type { ServerSmoke } from '../../servers/shared/smoke.js';
import { ArgumentChecker } from '../../src/mcp/argument-check.js';
import { readToolErrorMeta, type ToolErrorMeta } from '../../src/core/tool-result-contract.js';
import { serverOf } from '../../src/core/canonical-name.js';
import { connectInProcess, serverKeyOf } from './in-process-servers.js';
import { groundTruthCallsWhere, readSourcedFixture } from './server-child.js';
import { sharedDataDir } from './shared-assets.js';

/** The server of `<entry>` with of its configured variables only `env`; closing the client closes it. */
export async function startInProcessServer(entry: string, env: Record<string, string>): Promise<Client> {
  return (await connectInProcess(serverKeyOf(entry), { env, exactEnv: true })).client;
}

export interface CallOutcome {
  text: string;
  isError: boolean;
  meta: ToolErrorMeta | undefined;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  return { text, isError: result.isError === true, meta: readToolErrorMeta(result._meta) };
}

/** One call on a connection of its own (e.g. with the short timeout of slow-upstream.ts), closed after. */
export async function callOnce(entry: string, env: Record<string, string>, name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  const client = await startInProcessServer(entry, env);
  try {
    return await callTool(client, name, args);
  } finally {
    await client.close();
  }
}

/** A recorded body from `<dir>/<name>`, numbers kept as written (643.0 stays 643.0). */
export function loadRecordedBody(dir: string, name: string): unknown {
  return readSourcedFixture(path.join(dir, name));
}

/** A fake reply serving a recorded body as the upstream sends it (JSON text, JSON content type). */
export function recordedReply(dir: string, name: string, status = 200): FakeReply {
  return { status, headers: { 'content-type': 'application/json' }, body: stringifyLossless(loadRecordedBody(dir, name)) ?? '' };
}

export interface GtCall {
  taskId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** Every ground-truth call to `server` (all entries, duplicates included); undefined without the shared data. */
export function groundTruthCalls(server: string): GtCall[] | undefined {
  return groundTruthCallsWhere((name) => serverOf(name) === server)?.map((call) => ({
    taskId: call.taskId,
    tool: call.name.slice(server.length + 1),
    arguments: call.arguments,
  }));
}

type CatalogSchema = { properties: Record<string, { type?: unknown; default?: unknown }>; required: string[] };

/** The input schemas the catalog records for `server`'s tools; undefined without the shared data. */
export function catalogTools(server: string): Record<string, { input_schema: CatalogSchema }> | undefined {
  const dir = sharedDataDir();
  if (!dir) return undefined;
  const catalog = JSON.parse(readFileSync(path.join(dir, 'tools_catalog.json'), 'utf8')) as { servers: Record<string, { tools: never }> };
  return catalog.servers[server]?.tools;
}

/** How the listed tools differ from the catalog (tool names, property names, types, defaults, required set); [] when they agree. */
export function schemaDifferences(server: string, tools: Tool[]): string[] {
  const catalog = catalogTools(server) ?? {};
  const differences: string[] = [];
  const listed = tools.map((tool) => tool.name).sort();
  if (JSON.stringify(listed) !== JSON.stringify(Object.keys(catalog).sort())) differences.push(`tools: listed ${listed.join(', ')}`);
  for (const [name, entry] of Object.entries(catalog)) {
    const schema = tools.find((tool) => tool.name === name)?.inputSchema as Partial<CatalogSchema> | undefined;
    const properties = schema?.properties ?? {};
    if (Object.keys(properties).sort().join() !== Object.keys(entry.input_schema.properties).sort().join())
      differences.push(`${name}: properties ${Object.keys(properties).join(', ')}`);
    for (const [key, expected] of Object.entries(entry.input_schema.properties)) {
      if (properties[key]?.type !== expected.type) differences.push(`${name}.${key}: type ${String(properties[key]?.type)}, catalog ${String(expected.type)}`);
      if (JSON.stringify(properties[key]?.default) !== JSON.stringify(expected.default))
        differences.push(`${name}.${key}: default ${JSON.stringify(properties[key]?.default)}, catalog ${JSON.stringify(expected.default)}`);
    }
    if ([...(schema?.required ?? [])].sort().join() !== [...entry.input_schema.required].sort().join())
      differences.push(`${name}: required ${(schema?.required ?? []).join(', ')}`);
  }
  return differences;
}

/** The GT calls to `server` our argument check (Ajv over the listed schema) rejects, as "task tool: why". */
export function rejectedGtCalls(server: string, tools: Tool[]): string[] {
  const checker = new ArgumentChecker();
  const rejected: string[] = [];
  for (const call of groundTruthCalls(server) ?? []) {
    const inputSchema = tools.find((tool) => tool.name === call.tool)?.inputSchema;
    if (!inputSchema) {
      rejected.push(`${call.taskId} ${call.tool}: no such tool`);
      continue;
    }
    const problem = checker.check(
      { canonicalName: `${server}/${call.tool}`, server, tool: call.tool, functionName: call.tool, description: '', inputSchema },
      call.arguments,
    );
    if (problem) rejected.push(`${call.taskId} ${call.tool}: ${problem}`);
  }
  return rejected;
}

/** Runs a server's smoke call the offline way: its own fake, its base-URL variables pointed there. */
export async function runOfflineSmoke(entry: string, smoke: ServerSmoke): Promise<{ result: CallOutcome; requests: RecordedRequest[] }> {
  const fake = await startHttpFake(smoke.offline?.routes ?? []);
  const env = Object.fromEntries(Object.entries(smoke.offline?.env ?? {}).map(([name, prefix]) => [name, `${fake.url}${prefix}`]));
  const server = await startInProcessServer(entry, env);
  try {
    return { result: await callTool(server, smoke.tool, smoke.args), requests: fake.requests };
  } finally {
    await server.close();
    await fake.close();
  }
}
