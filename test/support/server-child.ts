// The core every web-server test helper builds on: one of our servers as a real child process over
// MCP stdio, its answers read the way the host reads them, the recorded upstream bodies the tests
// serve from their fakes, and the ground-truth calls a server receives.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse as parseLossless } from 'lossless-json';
import { readToolErrorMeta, type ToolErrorMeta } from '../../src/core/tool-result-contract.js';
import { nodeEntryArgs } from './built-entry.js';
import { repoRoot, sharedDataDir } from './shared-assets.js';
import path from 'node:path';

export interface ServerChild {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

/**
 * Spawns `node <entry>` (dist/ when fresh, else the source through tsx) from the repo root with no HTTP retries and the network guard
 * on loopback. `inheritEnv` passes the test process env through (its M3_* settings included);
 * otherwise the child gets only PATH and `env`, so a test can prove what a server needs.
 */
export async function spawnServerChild(entry: string, env: Record<string, string>, options: { inheritEnv?: boolean } = {}): Promise<ServerChild> {
  const base = options.inheritEnv
    ? Object.fromEntries(Object.entries(process.env).filter((pair): pair is [string, string] => pair[1] !== undefined))
    : { PATH: process.env.PATH ?? '' };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: nodeEntryArgs(entry),
    cwd: repoRoot,
    env: { ...base, M3_NETWORK_GUARD: 'loopback', M3_HTTP_RETRIES: '0', ...env },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
  });
  const client = new Client({ name: 'web-server-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => log, close: () => client.close() };
}

export interface ToolAnswer {
  isError: boolean;
  /** All text parts joined with a newline. */
  text: string;
  /** The image parts as the server sent them (base64 data). */
  imageParts: Array<{ type: 'image'; data: string; mimeType: string }>;
  errorMeta: ToolErrorMeta | undefined;
  raw: CallToolResult;
}

export function readToolAnswer(raw: CallToolResult): ToolAnswer {
  const text = raw.content
    .filter((part) => part.type === 'text')
    .map((part) => (part as { text: string }).text)
    .join('\n');
  const imageParts = raw.content.filter((part) => part.type === 'image') as ToolAnswer['imageParts'];
  return { isError: raw.isError === true, text, imageParts, errorMeta: readToolErrorMeta(raw._meta), raw };
}

/**
 * A recorded upstream body file `{ "_source": "...", "body": ... }` (or an object whose other keys
 * are the body), numbers kept as written (643.0 stays 643.0); every file names where its shape
 * comes from in `_source`.
 */
export function readSourcedFixture(file: string): unknown {
  const parsed = parseLossless(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (typeof parsed?._source !== 'string') throw new Error(`${file}: expected { "_source": string, "body": ... } naming where its shape comes from`);
  const { _source: _dropped, ...rest } = parsed;
  return 'body' in rest && Object.keys(rest).length === 1 ? rest.body : rest;
}

export interface GtCall {
  taskId: string;
  /** The `server/tool` name. */
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * Every ground-truth call whose `server/tool` name passes `keep`; undefined without the shared
 * data. `uniqueIds` keeps one entry per task id (the last, as the reference evaluators count).
 */
export function groundTruthCallsWhere(keep: (name: string) => boolean, options: { uniqueIds?: boolean } = {}): GtCall[] | undefined {
  const dir = sharedDataDir();
  if (!dir) return undefined;
  const entries = JSON.parse(readFileSync(path.join(dir, 'test_mcp_GT.json'), 'utf8')) as Array<{
    id: string;
    steps: Array<{ calls: Array<{ name: string; arguments?: Record<string, unknown> }> }>;
  }>;
  const tasks = options.uniqueIds ? [...new Map(entries.map((entry) => [entry.id, entry])).values()] : entries;
  return tasks.flatMap((task) =>
    task.steps.flatMap((step) =>
      step.calls.filter((call) => keep(call.name)).map((call) => ({ taskId: task.id, name: call.name, arguments: call.arguments ?? {} })),
    ),
  );
}
