// `--tool-surface reference` end to end at the host: every configured server of the repository
// runs (in process, through the host's connectServer option: the tool lists are the point here;
// test/servers/ starts each kind of server as a real child), and the host offers, for every server of the ground truth,
// exactly the reference catalog's tools with its descriptions and input schemas, entry by entry,
// and nothing of the servers the reference does not have (the email and calendar mocks).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/config/index.js';
import { McpHost } from '../../src/mcp/host.js';
import { hashToolSurface } from '../../src/mcp/tools-hash.js';
import { loadReferenceSurface } from '../../src/mcp/tool-surface.js';
import { findPoseModel } from '../../servers/yolo/pose-model.js';
import { inProcessHost } from '../support/in-process-host.js';
import { sharedDataDir } from '../support/shared-assets.js';

const dataDir = sharedDataDir();
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Catalog tools no server of ours lists (docs/servers.md "Local servers and tools"): the pose
 * tool is listed only when a pose model has been pulled (media/vision-models.json).
 */
const notServed = findPoseModel() ? [] : ['dinox-mcp/detect-human-pose-keypoints'];

describe.skipIf(!dataDir)('McpHost under the reference tool surface', { timeout: 600_000 }, () => {
  let host: McpHost;
  let full: McpHost;
  const inProcess = inProcessHost({ local: true });
  const catalogFile = path.join(dataDir as string, 'tools_catalog.json');

  beforeAll(async () => {
    const servers = loadProjectConfig({ env: {} }).servers;
    const connectServer = inProcess.connectServer;
    host = await McpHost.start(servers, { startupTimeoutMs: 300_000, logger: silent, toolSurface: loadReferenceSurface(catalogFile), connectServer });
    full = await McpHost.start(
      servers.filter((server) => server.name === 'email'),
      { startupTimeoutMs: 300_000, logger: silent, connectServer },
    );
    // Every server ran in process (none fell back to a child).
    expect(inProcess.connected.sort()).toEqual([...servers.map((server) => server.name), 'email'].sort());
  }, 600_000);

  afterAll(async () => {
    await host?.close();
    await full?.close();
  });

  it('offers exactly the catalog entry of every ground-truth server (names, descriptions, schemas)', () => {
    const catalog = JSON.parse(readFileSync(catalogFile, 'utf8')) as {
      servers: Record<string, { tools: Record<string, { description: string; input_schema: Record<string, unknown> }> }>;
    };
    const gt = JSON.parse(readFileSync(path.join(dataDir as string, 'test_mcp_GT.json'), 'utf8')) as Array<{
      steps: Array<{ calls: Array<{ name: string }> }>;
    }>;
    const gtServers = [...new Set(gt.flatMap((task) => task.steps.flatMap((step) => step.calls.map((call) => call.name.split('/')[0] ?? ''))))].sort();
    expect(gtServers).toHaveLength(27);
    expect(host.status().filter((server) => server.state !== 'ready')).toEqual([]);
    for (const server of gtServers) {
      const expected = Object.entries(catalog.servers[server]?.tools ?? {})
        .filter(([tool]) => !notServed.includes(`${server}/${tool}`))
        .map(([tool, entry]) => ({ tool, description: entry.description, inputSchema: entry.input_schema }));
      const offered = host.tools.filter((tool) => tool.server === server).map(({ tool, description, inputSchema }) => ({ tool, description, inputSchema }));
      expect({ server, offered }).toEqual({ server, offered: expected });
    }
    const offeredNames = host.tools.map((tool) => tool.canonicalName);
    for (const name of notServed) expect(offeredNames).not.toContain(name);
  });

  it('offers nothing of servers the reference does not have, counts and hashes what it offers', () => {
    expect(host.tools.filter((tool) => tool.server === 'email' || tool.server === 'calendar')).toEqual([]);
    expect(full.tools.length).toBeGreaterThan(0);
    const email = host.status().find((server) => server.name === 'email');
    expect(email).toMatchObject({ state: 'ready', toolCount: 0 });
    const byServer = new Map<string, typeof host.tools>();
    for (const tool of host.tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
    const ready = host.status().filter((server) => server.state === 'ready');
    expect(host.toolsHash()).toBe(
      hashToolSurface(
        ready.map((server) => ({
          name: server.name,
          tools: (byServer.get(server.name) ?? []).map((tool) => ({ name: tool.tool, description: tool.description, inputSchema: tool.inputSchema })),
        })),
      ),
    );
    expect(host.surface).toMatchObject({ name: 'reference', catalogFile });
  });
});
