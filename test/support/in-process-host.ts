// Servers of an McpHost inside the test process: a ConnectServer (src/mcp/server-session.ts) that
// answers a spec with one end of the MCP SDK's in-memory transport pair and a fresh server on the
// other, so a test of tool, agent or host logic starts no child process. Everything after the
// transport (tool lists, checked calls, timeouts and cancellation, the rpc log) takes the host's
// usual path. Two kinds are served:
// - fixture servers (fixture-servers/fixture-spec.ts), known by command and entry file; each sees only
//   its spec's own env (a child would also get the base variables and the shared env: the tests
//   of that keep real children). The fixtures whose point is their process (crashing, noisy,
//   gate, tasks) are not served;
// - with `local: true`, our servers under their mcp_servers.json key (in-process-servers.ts's
//   map); they read the test process's env, as in-process-servers.ts explains.
// Any other spec gets undefined and starts as configured.
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerSpec } from '../../src/config/servers.js';
import type { ConnectServer } from '../../src/mcp/server-session.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createEchoFixture } from './fixture-servers/echo-tools.js';
import { fixtureNames, type FixtureName } from './fixture-servers/fixture-spec.js';
import { createFlakyWebFixture } from './fixture-servers/flaky-web-tools.js';
import { createImageFixture } from './fixture-servers/image-tools.js';
import { createMetaFixture } from './fixture-servers/meta-tools.js';
import { createPagedFixture } from './fixture-servers/paged-tools.js';
import { createSlowFixture } from './fixture-servers/slow-tools.js';
import { inProcessServers } from './in-process-servers.js';

interface FixtureServer {
  connect(transport: Transport): Promise<void>;
}

type Factory = (env: Record<string, string>, log: (line: string) => void) => FixtureServer;

const factories: Partial<Record<FixtureName, Factory>> = {
  echo: () => createEchoFixture(),
  slow: (_env, log) => createSlowFixture(log),
  image: () => createImageFixture(),
  meta: () => createMetaFixture(),
  paged: (env) => createPagedFixture(env),
  'flaky-web': (env) => createFlakyWebFixture(env),
};

const fixtureDirSuffix = path.join('test', 'support', 'fixture-servers');

/**
 * The fixture a spec runs, if any: node (as fixtureSpec starts it) with the fixture's entry,
 * source or dist/ twin, as the last argument. A spec with another command (a test's missing
 * binary) is not a fixture, whatever its arguments.
 */
function fixtureOf(spec: ServerSpec): FixtureName | undefined {
  if (spec.command !== process.execPath && spec.command !== 'node') return undefined;
  const entry = (spec.launchArgs ?? spec.args).at(-1);
  if (!entry || !path.dirname(entry).endsWith(fixtureDirSuffix)) return undefined;
  const name = path.basename(entry).replace(/\.(ts|js)$/, '');
  return fixtureNames.find((candidate) => candidate === name);
}

export interface InProcessHost {
  /** For McpHost.start's `connectServer` option. */
  connectServer: ConnectServer;
  /** The lines an in-process server logged (what its stdio twin writes to stderr), by server name. */
  linesOf(server: string): string[];
  /** Names of the servers this connected in process, one entry per session (a restart adds one). */
  readonly connected: string[];
}

/** A fresh server of ours for an mcp_servers.json key, if `name` is one. */
async function localServer(name: string): Promise<FixtureServer | undefined> {
  const load = inProcessServers[name];
  if (!load) return undefined;
  const server = new McpServer({ name, version: '0.0.0-test' });
  (await load())(server);
  return server;
}

export function inProcessHost(options: { local?: boolean } = {}): InProcessHost {
  const lines = new Map<string, string[]>();
  const connected: string[] = [];
  const connectServer: ConnectServer = async (spec) => {
    const fixture = fixtureOf(spec);
    const log = (line: string) => {
      const list = lines.get(spec.name) ?? [];
      list.push(line);
      lines.set(spec.name, list);
    };
    const factory = fixture && factories[fixture];
    const server = factory ? factory(spec.env, log) : !fixture && options.local ? await localServer(spec.name) : undefined;
    if (!server) return undefined;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // connect() installs the server's message handler before its first await, so the client's
    // first request (sent after this returns) is never lost.
    void server.connect(serverSide);
    connected.push(spec.name);
    return clientSide;
  };
  return { connectServer, linesOf: (server) => [...(lines.get(server) ?? [])], connected };
}
