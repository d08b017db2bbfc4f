// The in-process harness (test/support/in-process-servers.ts): its map names every local server
// of mcp_servers.json with the register function that server's tools.ts exports (the one name
// every server folder uses), and a connection sees its env while open and restores it on close.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInProcess, inProcessServers } from '../support/in-process-servers.js';
import { repoRoot } from '../support/shared-assets.js';

const configured = JSON.parse(readFileSync(path.join(repoRoot, 'mcp_servers.json'), 'utf8')) as {
  servers: Record<string, { command?: string; args?: string[] }>;
};

/** key → server folder, for every entry that runs one of our servers/<folder>/index.ts. */
const localFolders = new Map(
  Object.entries(configured.servers).flatMap(([key, spec]) => {
    const entry = spec.args?.find((arg) => /^servers\/[^/]+\/index\.ts$/.test(arg));
    return entry ? [[key, entry.split('/')[1] as string] as const] : [];
  }),
);

describe('the in-process server map', () => {
  it('has exactly the local server keys of mcp_servers.json', () => {
    expect(localFolders.size).toBeGreaterThan(20);
    expect(Object.keys(inProcessServers).sort()).toEqual([...localFolders.keys()].sort());
  });

  it('every server folder is configured and has index.ts and tools.ts', () => {
    const folders = readdirSync(path.join(repoRoot, 'servers'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...new Set(localFolders.values())].sort());
    for (const folder of folders) {
      expect(existsSync(path.join(repoRoot, 'servers', folder, 'index.ts')), `servers/${folder}/index.ts`).toBe(true);
      expect(existsSync(path.join(repoRoot, 'servers', folder, 'tools.ts')), `servers/${folder}/tools.ts`).toBe(true);
    }
  });

  // Read from the sources rather than imported: loading all 29 servers' modules costs seconds, and
  // the type check already proves each imported name exists.
  it("maps each key to the one register<Name>Tools its folder's tools.ts exports", () => {
    const harness = readFileSync(path.join(repoRoot, 'test/support/in-process-servers.ts'), 'utf8');
    for (const [key, folder] of localFolders) {
      const tools = readFileSync(path.join(repoRoot, 'servers', folder, 'tools.ts'), 'utf8');
      const exported = [...tools.matchAll(/^export function (register\w*Tools)\(server: McpServer\b/gm)].map((match) => match[1]);
      expect(exported, `servers/${folder}/tools.ts`).toHaveLength(1);
      const quoted = /^[a-z]\w*$/.test(key) ? key : `'${key}'`;
      expect(harness, key).toContain(`  ${quoted}: async () => (await import('../../servers/${folder}/tools.js')).${exported[0]},\n`);
    }
  });
});

describe('connectInProcess', () => {
  const opened: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of opened.splice(0)) await close();
  });

  it('serves a server by its key: tools listed and called through the MCP client', async () => {
    const math = await connectInProcess('math');
    opened.push(math.close);
    const { tools } = await math.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('add');
    const result = await math.client.callTool({ name: 'add', arguments: { firstNumber: 2, secondNumber: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
  });

  /** A server with one tool that answers with the variables it sees when called. */
  const envEcho = (server: McpServer) =>
    server.registerTool('env', { description: 'The variables the server sees.' }, async () => ({
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            key: process.env.M3_IN_PROCESS_TEST_KEY ?? null,
            gone: process.env.M3_IN_PROCESS_TEST_GONE ?? null,
            retries: process.env.M3_HTTP_RETRIES ?? null,
            guard: process.env.M3_NETWORK_GUARD ?? null,
          }),
        },
      ],
    }));

  it('sets env (over the spawned-server defaults) while open and restores the earlier values on close', async () => {
    process.env.M3_IN_PROCESS_TEST_GONE = 'before';
    const retriesBefore = process.env.M3_HTTP_RETRIES;
    try {
      const connection = await connectInProcess(envEcho, { env: { M3_IN_PROCESS_TEST_KEY: 'k1', M3_IN_PROCESS_TEST_GONE: undefined } });
      const result = (await connection.client.callTool({ name: 'env', arguments: {} })) as { content: Array<{ text: string }> };
      expect(JSON.parse(result.content[0]?.text ?? '')).toEqual({ key: 'k1', gone: null, retries: '0', guard: 'loopback' });
      await connection.close();
      expect(process.env.M3_IN_PROCESS_TEST_KEY).toBeUndefined();
      expect(process.env.M3_IN_PROCESS_TEST_GONE).toBe('before');
      expect(process.env.M3_HTTP_RETRIES).toBe(retriesBefore);
    } finally {
      delete process.env.M3_IN_PROCESS_TEST_GONE;
    }
  });

  const seen = async (connection: { client: Client }) => {
    const result = (await connection.client.callTool({ name: 'env', arguments: {} })) as { content: Array<{ text: string }> };
    return JSON.parse(result.content[0]?.text ?? '') as Record<string, string | null>;
  };

  it('gives each connection its own env when its server is called, and the earlier values back as connections close in any order', async () => {
    const first = await connectInProcess(envEcho, { env: { M3_IN_PROCESS_TEST_KEY: 'one', M3_IN_PROCESS_TEST_GONE: 'first only' } });
    const second = await connectInProcess(envEcho, { env: { M3_IN_PROCESS_TEST_KEY: 'two' } });
    // The newest does not name M3_IN_PROCESS_TEST_GONE: it sees the value from before any connection.
    expect(process.env.M3_IN_PROCESS_TEST_GONE).toBeUndefined();
    const third = await connectInProcess(envEcho, { env: { M3_IN_PROCESS_TEST_KEY: 'three' } });
    expect(process.env.M3_IN_PROCESS_TEST_KEY).toBe('three');
    expect(await seen(first)).toMatchObject({ key: 'one', gone: 'first only' });
    expect(await seen(second)).toMatchObject({ key: 'two', gone: null });
    expect(await seen(first)).toMatchObject({ key: 'one', gone: 'first only' });
    await second.close();
    expect(await seen(third)).toMatchObject({ key: 'three', gone: null });
    // Closing the client alone releases the env too.
    await third.client.close();
    expect(process.env.M3_IN_PROCESS_TEST_KEY).toBe('one');
    expect(process.env.M3_IN_PROCESS_TEST_GONE).toBe('first only');
    await first.close();
    expect(process.env.M3_IN_PROCESS_TEST_KEY).toBeUndefined();
    expect(process.env.M3_IN_PROCESS_TEST_GONE).toBeUndefined();
  });

  it('loads the server modules afresh for each connection by key (module state as in a new process)', async () => {
    const first = await connectInProcess('math');
    const second = await connectInProcess('math');
    opened.push(first.close, second.close);
    expect(first.register).not.toBe(second.register);
    expect(first.register.name).toBe('registerMathTools');
  });

  it('with exactEnv, unsets the variables its mcp_servers.json entry names unless given', async () => {
    process.env.NPS_API_KEY = 'from-the-shell';
    try {
      const parks = await connectInProcess('nationalparks', { exactEnv: true, env: { M3_UPSTREAM_NPS_URL: 'http://127.0.0.1:9' } });
      expect(process.env.NPS_API_KEY).toBeUndefined();
      expect(process.env.M3_UPSTREAM_NPS_URL).toBe('http://127.0.0.1:9');
      await parks.close();
      expect(process.env.NPS_API_KEY).toBe('from-the-shell');
    } finally {
      delete process.env.NPS_API_KEY;
    }
  });

  it("keeps what the process writes to stderr while open as the connection's stderr, unshown", async () => {
    const noisy = await connectInProcess((server) =>
      server.registerTool('shout', { description: 'Writes to stderr.' }, async () => {
        process.stderr.write('diagnostic line\n');
        return { content: [{ type: 'text', text: 'ok' }] };
      }),
    );
    opened.push(noisy.close);
    await noisy.client.callTool({ name: 'shout', arguments: {} });
    expect(noisy.stderr()).toBe('diagnostic line\n');
  });

  it('names an unknown key', async () => {
    await expect(connectInProcess('no-such-server')).rejects.toThrow(/no in-process server "no-such-server"/);
  });
});
