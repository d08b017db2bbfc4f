// Starting one of our web-API servers with its base-URL variables pointed at a loopback fake, in
// this process over the SDK's in-memory transport (in-process-servers.ts; a web server's stdio
// process is tested in workspace-only.test.ts), and reading its answers the way the host does: text,
// image parts, and the upstream-error `_meta` (src/core/tool-result-contract.ts).
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { stringify as stringifyLossless } from 'lossless-json';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSmoke } from '../../servers/shared/smoke.js';
import { startOfflineSmokeFakes } from '../../src/mcp/smoke-tests.js';
import { CALL_CONTEXT_META_KEY, type CallContext, type ToolErrorMeta } from '../../src/core/tool-result-contract.js';
import { describe, expect, it } from 'vitest';
import { fallbackFixtureProblems } from './reference-tools.js';
import { repoRoot } from './shared-assets.js';
import { connectInProcess, serverKeyOf } from './in-process-servers.js';
import { readSourcedFixture, readToolAnswer } from './server-child.js';
import { shortTimeoutEnv } from './slow-upstream.js';

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
  /** The same call on a second connection of the same server and env with the short timeout (slow-upstream.ts). */
  callWithShortTimeout(name: string, args: Record<string, unknown>, context?: CallContext): Promise<WebToolResult>;
  close(): Promise<void>;
}

/** Connects the server of `<entry>` (relative to the repo root) in process, with the test process env and `env` on top. */
export async function startWebServer(entry: string, env: Record<string, string>): Promise<WebServer> {
  const child = await connectInProcess(serverKeyOf(entry), { env });
  const tools = (await child.client.listTools()).tools;
  async function call(name: string, args: Record<string, unknown>, context?: CallContext): Promise<WebToolResult> {
    const raw = (await child.client.callTool({ name, arguments: args, ...(context ? { _meta: { [CALL_CONTEXT_META_KEY]: context } } : {}) })) as CallToolResult;
    const answer = readToolAnswer(raw);
    const images = answer.imageParts.map((part) => ({ data: Buffer.from(part.data, 'base64'), mimeType: part.mimeType }));
    return { isError: answer.isError, text: answer.text, images, errorMeta: answer.errorMeta, raw };
  }
  async function callWithShortTimeout(name: string, args: Record<string, unknown>, context?: CallContext): Promise<WebToolResult> {
    const quick = await startWebServer(entry, { ...env, ...shortTimeoutEnv });
    try {
      return await quick.call(name, args, context);
    } finally {
      await quick.close();
    }
  }
  return { client: child.client, tools, call, callWithShortTimeout, close: child.close };
}

/** The upstream body of a test fixture file `{ "_source": "...", "body": ... }`. */
export function loadFixtureBody<T = unknown>(dir: string, name: string): T {
  return JSON.parse(loadFixtureText(dir, name)) as T;
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
  return stringifyLossless(readSourcedFixture(path.join(dir, name.endsWith('.json') ? name : `${name}.json`))) ?? 'null';
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
