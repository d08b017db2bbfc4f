// Fixture servers inside the test process: a ConnectServer (src/mcp/server-session.ts) for
// McpHost that answers a fixture's spec (fixture-spec.ts) with one end of the MCP SDK's in-memory
// transport pair and a fresh fixture server on the other, so a test of tool, agent or host logic
// starts no child process. Everything after the transport (tool lists, checked calls, timeouts
// and cancellation, the rpc log) takes the host's usual path. Specs of other commands, and the
// fixtures whose point is their process (crashing, noisy, gate, tasks), get undefined: they start
// as configured. Each server sees only its spec's own env (a child would also get the base
// variables and the shared env; the tests of that keep real children).
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerSpec } from '../../../src/config/servers.js';
import type { ConnectServer } from '../../../src/mcp/server-session.js';
import { createEchoFixture } from './echo-tools.js';
import { fixtureNames, type FixtureName } from './fixture-spec.js';
import { createFlakyWebFixture } from './flaky-web-tools.js';
import { createImageFixture } from './image-tools.js';
import { createMetaFixture } from './meta-tools.js';
import { createPagedFixture } from './paged-tools.js';
import { createSlowFixture } from './slow-tools.js';

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

/** The fixture a spec runs (its entry, source or dist/ twin, is the last argument), if any. */
function fixtureOf(spec: ServerSpec): FixtureName | undefined {
  const entry = (spec.launchArgs ?? spec.args).at(-1);
  if (!entry || !path.dirname(entry).endsWith(fixtureDirSuffix)) return undefined;
  const name = path.basename(entry).replace(/\.(ts|js)$/, '');
  return fixtureNames.find((candidate) => candidate === name);
}

export interface InProcessFixtures {
  /** For McpHost.start's `connectServer` option. */
  connectServer: ConnectServer;
  /** The lines an in-process server logged (what its stdio twin writes to stderr), by server name. */
  linesOf(server: string): string[];
  /** Names of the servers this connected in process, one entry per session (a restart adds one). */
  readonly connected: string[];
}

export function inProcessFixtures(): InProcessFixtures {
  const lines = new Map<string, string[]>();
  const connected: string[] = [];
  const connectServer: ConnectServer = (spec) => {
    const fixture = fixtureOf(spec);
    const factory = fixture && factories[fixture];
    if (!factory) return undefined;
    const log = (line: string) => {
      const list = lines.get(spec.name) ?? [];
      list.push(line);
      lines.set(spec.name, list);
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // connect() installs the server's message handler before its first await, so the client's
    // first request (sent after this returns) is never lost.
    void factory(spec.env, log).connect(serverSide);
    connected.push(spec.name);
    return clientSide;
  };
  return { connectServer, linesOf: (server) => [...(lines.get(server) ?? [])], connected };
}
