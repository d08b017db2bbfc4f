// `url` servers: McpHost over Streamable HTTP against a real MCP server on 127.0.0.1,
// next to a stdio server in the same catalog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerSpec } from '../../src/config/servers.js';
import { McpHost } from '../../src/mcp/host.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { startHttpFixture, type HttpFixture } from '../support/fixture-servers/http-fixture.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function httpSpec(name: string, url: string, headers: Record<string, string> = {}): ServerSpec {
  return { name, transport: 'http', url, args: [], env: {}, headers, cwd: process.cwd() };
}

describe('Streamable HTTP servers', { timeout: 240_000 }, () => {
  let fixture: HttpFixture;
  let host: McpHost;

  beforeAll(async () => {
    fixture = await startHttpFixture({ token: 'fixture-token-123' });
    host = await McpHost.start(
      [
        httpSpec('remote', fixture.url, { Authorization: 'Bearer fixture-token-123' }),
        httpSpec('locked', fixture.url, { Authorization: 'Bearer wrong-token' }),
        fixtureSpec('echo'),
      ],
      { startupTimeoutMs: 90_000, logger: silent },
    );
  });

  afterAll(async () => {
    await host?.close();
    await fixture?.close();
  });

  it('lists and calls tools of an HTTP server with its configured headers', async () => {
    const remote = host.status().find((server) => server.name === 'remote');
    expect(remote).toMatchObject({ transport: 'http', state: 'ready', toolCount: 2 });
    expect(host.findByCanonical('remote/add')?.functionName).toBe('remote__add');
    const before = fixture.requests();
    const outcome = await host.callTool('remote/add', { a: 2, b: 3 });
    expect(outcome).toMatchObject({ isError: false, text: '5' });
    expect(fixture.requests()).toBeGreaterThan(before);
    expect((await host.callTool('remote/echo', { text: 'hi' })).text).toBe('http:hi');
    expect((await host.callTool('echo/echo', { text: 'stdio' })).text).toBe('stdio');
  });

  it('marks an HTTP server that refuses the client as failed, with the reason', () => {
    const locked = host.status().find((server) => server.name === 'locked');
    expect(locked?.state).toBe('failed');
    expect(locked?.error).toContain('server "locked" failed to start');
    expect(locked?.error).toMatch(/401|unauthorized/i);
    expect(host.tools.some((tool) => tool.server === 'locked')).toBe(false);
  });

  it('reports server_unavailable when the HTTP server has gone away', async () => {
    const gone = await startHttpFixture();
    const lonely = await McpHost.start([httpSpec('gone', gone.url)], { startupTimeoutMs: 30_000, logger: silent });
    try {
      expect((await lonely.callTool('gone/add', { a: 1, b: 1 })).text).toBe('2');
      await gone.close();
      const outcome = await lonely.callTool('gone/add', { a: 1, b: 1 }, { timeoutMs: 5000 });
      expect(outcome.isError).toBe(true);
      expect(outcome.errorCode).toBe('server_unavailable');
      expect(outcome.text).toContain('gone/add: server unreachable');
    } finally {
      await lonely.close();
    }
  });
});
