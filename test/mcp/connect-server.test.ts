// McpHost's connectServer option (src/mcp/server-session.ts): a server given an injected
// transport takes the host's usual path after it. A failed injection is a failed start with its
// reason; a dropped connection is a crash the host restarts from, asking for a fresh transport;
// a spec the option answers with undefined starts as configured (a real child).
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSpec } from '../../src/config/servers.js';
import { McpHost } from '../../src/mcp/host.js';
import { createEchoFixture } from '../support/fixture-servers/echo-tools.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
let host: McpHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** Injects an in-process echo server for `name` and keeps each server-side transport. */
function echoInjector(name: string) {
  const serverSides: Transport[] = [];
  const connectServer = async (spec: ServerSpec) => {
    if (spec.name !== name) return undefined;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createEchoFixture().connect(serverSide);
    serverSides.push(serverSide);
    return clientSide;
  };
  return { connectServer, serverSides };
}

describe('McpHost connectServer', { timeout: 240_000 }, () => {
  it('serves an injected server and starts a spec it answers with undefined as configured', async () => {
    const injector = echoInjector('inside');
    host = await McpHost.start([fixtureSpec('echo', { name: 'inside' }), fixtureSpec('echo', { name: 'outside' })], {
      requireAll: true,
      startupTimeoutMs: 90_000,
      logger: silent,
      rpcLogEntries: 10,
      connectServer: injector.connectServer,
    });
    expect(injector.serverSides).toHaveLength(1);
    const [inside, outside] = host.status();
    expect(inside).toMatchObject({ name: 'inside', state: 'ready', toolCount: outside?.toolCount });
    expect(inside?.pid).toBeUndefined();
    expect(outside?.pid).toBeTypeOf('number');
    expect(inside?.toolsHash).toBe(outside?.toolsHash);
    expect(inside?.stderrTail?.some((line) => line.includes('connected through an injected transport'))).toBe(true);
    expect((await host.callTool('inside/echo', { text: 'in process' })).text).toBe('in process');
    expect((await host.callTool('inside/echo', { text: 7 })).text).toMatch(/^\[Tool error\] .*Input validation error/);
    expect(
      host
        .inspect('inside')
        ?.rpcLog?.list()
        .some((entry) => entry.method === 'tools/call'),
    ).toBe(true);
  });

  it('records a failed injection as a failed start with its reason; the other servers keep working', async () => {
    const injector = echoInjector('fine');
    host = await McpHost.start([fixtureSpec('echo', { name: 'fine' }), fixtureSpec('echo', { name: 'broken' })], {
      startupTimeoutMs: 90_000,
      logger: silent,
      connectServer: async (spec) => {
        if (spec.name === 'broken') throw new Error('no such in-process server');
        return injector.connectServer(spec);
      },
    });
    const byName = Object.fromEntries(host.status().map((server) => [server.name, server]));
    expect(byName.broken).toMatchObject({ state: 'failed' });
    expect(byName.broken?.error).toContain('server "broken" failed to start: no such in-process server');
    expect((await host.callTool('fine/echo', { text: 'still here' })).text).toBe('still here');
  });

  it('takes a dropped connection for a crash and restarts through a fresh injected transport', async () => {
    const injector = echoInjector('inside');
    host = await McpHost.start([fixtureSpec('echo', { name: 'inside' })], {
      requireAll: true,
      logger: silent,
      restart: { initialDelayMs: 10, maxDelayMs: 10, waitMs: 60_000 },
      connectServer: injector.connectServer,
    });
    await injector.serverSides[0]?.close();
    // The next call waits for the restart (the wait bound is far away) and is answered by the new server.
    await expect.poll(() => host?.status()[0]?.restarts, { timeout: 30_000 }).toBe(1);
    expect((await host.callTool('inside/echo', { text: 'again' })).text).toBe('again');
    expect(injector.serverSides).toHaveLength(2);
    expect(host.status()[0]).toMatchObject({ state: 'ready', restarts: 1 });
  });
});
