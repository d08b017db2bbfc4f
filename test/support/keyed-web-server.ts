// Running one of our web-API servers in a test: connected in process (in-process-servers.ts) with
// of its configured variables only the env a test gives (keys, base URLs pointed at a loopback
// fake), its stderr captured so tests can scan it for secrets, calls that carry the host's call context (task id, workspace), and the
// ground-truth arguments of a tool read from the shared data.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import { startHttpFake, type FakeRoute, type HttpFake } from '../../servers/shared/http-fake.js';
import { stringify as stringifyLossless } from 'lossless-json';
import { CALL_CONTEXT_META_KEY, type ToolErrorMeta } from '../../src/core/tool-result-contract.js';
import { connectInProcess, serverKeyOf } from './in-process-servers.js';
import { type GtCall, groundTruthCallsWhere, readSourcedFixture, readToolAnswer } from './server-child.js';
import { repoRoot } from './shared-assets.js';
import { shortTimeoutEnv } from './slow-upstream.js';

export interface WebServerProcess {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  /** A per-file folder inside the server's allowed roots, used as the task workspace. */
  workspace: string;
  close: () => Promise<void>;
}

export interface WebCall {
  isError: boolean;
  text: string;
  images: Array<{ data: string; mimeType: string }>;
  meta: ToolErrorMeta | undefined;
  raw: CallToolResult;
}

/** Connects the server of `servers/<folder>/index.ts` with, of its configured variables, exactly `env`. */
export async function startWebServer(folder: string, env: Record<string, string>): Promise<WebServerProcess> {
  const workspace = mkdtempSync(path.join(tmpdir(), `m3-${folder}-`));
  const server = await connectInProcess(serverKeyOf(`servers/${folder}/index.ts`), { env: { M3_ALLOWED_ROOTS: workspace, ...env }, exactEnv: true });
  return { client: server.client, stderr: server.stderr, close: server.close, workspace };
}

/** Calls a tool with the host's call context, so outputs go into the process's workspace. */
export async function callWebTool(server: WebServerProcess, name: string, args: Record<string, unknown>, taskId = 'test-task'): Promise<WebCall> {
  const raw = (await server.client.callTool({
    name,
    arguments: args,
    _meta: { [CALL_CONTEXT_META_KEY]: { taskId, workspace: server.workspace } },
  })) as CallToolResult;
  const answer = readToolAnswer(raw);
  return { isError: answer.isError, text: answer.text, images: answer.imageParts, meta: answer.errorMeta, raw };
}

/** Every GT call of `server/tool` over the unique task ids (last entry wins, as the reference evaluators count). */
export function groundTruthCalls(canonicalName: string): GtCall[] | undefined {
  return groundTruthCallsWhere((name) => name === canonicalName, { uniqueIds: true });
}

export const missingSharedData = 'shared data not found under ../shared/data/m3bench (test_mcp_GT.json)';

/**
 * Reads an upstream body of a server test (`test/servers/<folder>/fixtures/<name>.json`). Each
 * file names where its shape comes from in `_source`, which is dropped here; a body that is not
 * an object sits under `body`.
 */
export function loadFixture<T = unknown>(folder: string, name: string): T {
  return JSON.parse(stringifyLossless(readSourcedFixture(path.join(repoRoot, 'test/servers', folder, 'fixtures', `${name}.json`))) ?? 'null') as T;
}

export interface WebServerHarness {
  fake: () => HttpFake;
  server: () => WebServerProcess;
  /** Calls a tool (with the call context) and keeps its text for the secrets scan. */
  call: (name: string, args: Record<string, unknown>) => Promise<WebCall>;
  /** `call` on a second connection of the server with the same env and the short timeout (slow-upstream.ts). */
  callWithShortTimeout: (name: string, args: Record<string, unknown>) => Promise<WebCall>;
  /** Every text the server returned through `call` and `callWithShortTimeout`. */
  texts: string[];
}

/**
 * One loopback fake and one server child for a whole test file: started in beforeAll (the env
 * may name the fake's URL), closed in afterAll.
 */
export function useWebServer(
  folder: string,
  setup: { routes: () => FakeRoute[] | Promise<FakeRoute[]>; env: (fakeUrl: string) => Record<string, string> },
): WebServerHarness {
  let fake: HttpFake | undefined;
  let server: WebServerProcess | undefined;
  const texts: string[] = [];
  beforeAll(async () => {
    fake = await startHttpFake(await setup.routes());
    server = await startWebServer(folder, setup.env(fake.url));
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (!value) throw new Error(`${folder}: the ${what} did not start`);
    return value;
  };
  return {
    fake: () => need(fake, 'fake'),
    server: () => need(server, 'server'),
    texts,
    call: async (name, args) => {
      const answer = await callWebTool(need(server, 'server'), name, args);
      texts.push(answer.text);
      return answer;
    },
    callWithShortTimeout: async (name, args) => {
      const quick = await startWebServer(folder, { ...setup.env(need(fake, 'fake').url), ...shortTimeoutEnv });
      try {
        const answer = await callWebTool(quick, name, args);
        texts.push(answer.text);
        return answer;
      } finally {
        await quick.close();
      }
    },
  };
}
