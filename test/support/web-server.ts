// Starting one of our web-API servers as a real child process over MCP stdio, with its base-URL
// variables pointed at a loopback fake, and reading its answers the way the host does: text,
// image parts, and the upstream-error `_meta` (src/core/tool-result-contract.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSmoke } from '../../servers/shared/smoke.js';
import { startOfflineSmokeFakes } from '../../src/mcp/smoke-tests.js';
import { CALL_CONTEXT_META_KEY, readToolErrorMeta, type CallContext, type ToolErrorMeta } from '../../src/core/tool-result-contract.js';
import { describe, expect, it } from 'vitest';
import { fallbackFixtureProblems } from './reference-tools.js';
import { repoRoot } from './shared-assets.js';

export interface WebToolResult {
  isError: boolean;
  /** All text parts joined with a newline. */
  text: string;
  images: Array<{ data: Buffer; mimeType: string }>;
  errorMeta: ToolErrorMeta | undefined;
  raw: CallToolResult;
}

export interface WebServer {
  client: Client;
  tools: Tool[];
  call(name: string, args: Record<string, unknown>, context?: CallContext): Promise<WebToolResult>;
  close(): Promise<void>;
}

/**
 * Spawns `node --import tsx <entry>` (relative to the repo root) with the test process env
 * (so M3_NETWORK_GUARD=loopback reaches the child), no HTTP retries unless `env` sets them,
 * and `env` on top.
 */
export async function startWebServer(entry: string, env: Record<string, string>): Promise<WebServer> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((pair): pair is [string, string] => pair[1] !== undefined));
  const client = new Client({ name: 'web-server-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', entry],
      cwd: repoRoot,
      env: { ...inherited, M3_HTTP_RETRIES: '0', ...env },
      stderr: 'pipe',
    }),
  );
  const tools = (await client.listTools()).tools;
  async function call(name: string, args: Record<string, unknown>, context?: CallContext): Promise<WebToolResult> {
    const raw = (await client.callTool({ name, arguments: args, ...(context ? { _meta: { [CALL_CONTEXT_META_KEY]: context } } : {}) })) as CallToolResult;
    const text = raw.content
      .filter((part) => part.type === 'text')
      .map((part) => (part as { text: string }).text)
      .join('\n');
    const images = raw.content
      .filter((part) => part.type === 'image')
      .map((part) => ({ data: Buffer.from((part as { data: string }).data, 'base64'), mimeType: (part as { mimeType: string }).mimeType }));
    return { isError: raw.isError === true, text, images, errorMeta: readToolErrorMeta(raw._meta), raw };
  }
  return { client, tools, call, close: () => client.close() };
}

/** The upstream body of a test fixture file `{ "_source": "...", "body": ... }`. */
export function loadFixtureBody<T = unknown>(dir: string, name: string): T {
  const file = path.join(dir, name.endsWith('.json') ? name : `${name}.json`);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { _source?: unknown; body?: unknown };
  if (typeof parsed._source !== 'string' || !('body' in parsed)) throw new Error(`${file}: expected { "_source": string, "body": ... }`);
  return parsed.body as T;
}

/**
 * Runs a server's declared smoke offline, as `m3 servers check --smoke --offline` does
 * (startOfflineSmokeFakes in src/mcp/smoke-tests.ts): its fake started, its base-URL variables
 * pointed at it, the smoke call, its judgement. The network guard of the test run refuses every
 * other host, so a pass proves the answer came from the fake.
 */
export async function runOfflineSmoke(entry: string, smoke: ServerSmoke): Promise<{ passed: boolean; text: string }> {
  if (!smoke.offline) throw new Error(`${entry}: the smoke declares no offline fake`);
  const spec = { name: 'smoke', transport: 'stdio' as const, command: process.execPath, args: [], env: {}, headers: {}, cwd: repoRoot };
  const fakes = await startOfflineSmokeFakes([spec], { smoke });
  try {
    const server = await startWebServer(entry, fakes.specs[0]?.env ?? {});
    try {
      const result = await server.call(smoke.tool, smoke.args);
      return { passed: !result.isError && smoke.accept(result.text), text: result.text };
    } finally {
      await server.close();
    }
  } finally {
    await fakes.close();
  }
}

/**
 * The upstream body of a fixture file as JSON text with every number literal kept ("600.0" stays
 * "600.0"), for fakes of upstreams whose clients tell ints from floats (Python json.loads).
 */
export function loadFixtureText(dir: string, name: string): string {
  const file = path.join(dir, name.endsWith('.json') ? name : `${name}.json`);
  const parsed = parseLossless(readFileSync(file, 'utf8')) as { _source?: unknown; body?: unknown };
  if (typeof parsed._source !== 'string' || !('body' in parsed)) throw new Error(`${file}: expected { "_source": string, "body": ... }`);
  return stringifyLossless(parsed.body) ?? 'null';
}

/** The two checks every web server's test ends with: its curated fallback fixtures and its offline smoke. */
export function describeFixturesAndSmoke(serverKey: string, entry: string, smoke: ServerSmoke, server: () => WebServer): void {
  describe(`${serverKey} fallback fixtures and smoke`, () => {
    it('has well-formed fallback fixtures whose arguments pass the check', () => {
      expect(fallbackFixtureProblems(serverKey, server().tools)).toEqual([]);
    });

    it('passes the smoke offline against its own fake', async () => {
      const outcome = await runOfflineSmoke(entry, smoke);
      expect(outcome.passed, outcome.text).toBe(true);
    });
  });
}
