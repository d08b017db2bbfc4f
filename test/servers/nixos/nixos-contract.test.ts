// The nixos server's contract with the host and the fallback layer: the catalog's schemas, every
// GT call passing our argument check, upstream failures as typed errors, 4xx answers in the
// reference's words, channel discovery that is not cached when the backend is down, the offline
// smoke call, and the curated fallback fixtures.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/nixos/smoke.js';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { repoRoot } from '../../support/shared-assets.js';
import { shortTimeoutEnv, shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import {
  callOnce,
  callTool,
  catalogTools,
  groundTruthCalls,
  rejectedGtCalls,
  schemaDifferences,
  runOfflineSmoke,
  startInProcessServer,
} from '../../support/web-server-harness.js';
import { json, nixosEnv, startNixosFake } from './nixos-fake.js';

let fake: HttpFake;
let client: Client;
let tools: Tool[];

beforeAll(async () => {
  fake = await startNixosFake();
  client = await startInProcessServer('servers/nixos/index.ts', nixosEnv(fake));
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  await fake?.close();
});

const catalog = catalogTools('nixos');

describe.skipIf(!catalog)(`nixos schema parity${catalog ? '' : ' (skipped: ../shared/data/m3bench not found)'}`, () => {
  it('has every catalog tool with the same properties, types, required set and defaults', () => {
    expect(schemaDifferences('nixos', tools)).toEqual([]);
  });

  it('accepts every ground-truth call in our argument check', () => {
    expect(groundTruthCalls('nixos')).toHaveLength(48);
    expect(rejectedGtCalls('nixos', tools)).toEqual([]);
  });
});

const search = { query: 'fastapi', search_type: 'packages', limit: 10, channel: 'stable' };

describe('nixos upstream failures are typed', () => {
  it('search backend 429 with retry-after, 500, 401 and a body that is not JSON', async () => {
    await callTool(client, 'nixos_channels', {}); // channels resolved first, so faults hit the search
    fake.queueFault(/\/_search$/, { status: 429, headers: { 'retry-after': '120' }, body: 'Too Many Requests' });
    expect((await callTool(client, 'nixos_search', search)).meta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 120 });
    fake.queueFault(/\/_search$/, { status: 503, body: 'Service Unavailable' });
    expect((await callTool(client, 'nixos_info', { name: 'x', type: 'package' })).meta).toMatchObject({ code: 'upstream_server_error', status: 503 });
    fake.queueFault(/\/_search$/, { status: 401, body: json({ error: 'security_exception' }).body });
    expect((await callTool(client, 'nixos_search', search)).meta).toMatchObject({ code: 'upstream_auth', status: 401 });
    fake.queueFault(/\/_search$/, { headers: { 'content-type': 'application/json' }, body: '{"hits": ' });
    expect((await callTool(client, 'nixos_search', search)).meta).toMatchObject({ code: 'upstream_bad_response' });
  });

  it('a slow option page → upstream_timeout; nixhub 500 → upstream_server_error', async () => {
    fake.queueFault('/home-manager/options.xhtml', slowReply(''));
    const slow = await callOnce('servers/nixos/index.ts', nixosEnv(fake, shortTimeoutEnv), 'home_manager_info', { name: 'programs.zsh.enable' });
    expect(slow.meta).toMatchObject({ code: 'upstream_timeout' });
    expect(slow.text).toContain(shortTimeoutMessage);
    fake.queueFault('/packages/firefox', { status: 500, body: 'oops' });
    expect((await callTool(client, 'nixhub_package_versions', { package_name: 'firefox' })).meta).toMatchObject({ code: 'upstream_server_error', status: 500 });
  });

  it('a search backend that is down everywhere: typed error, and channels are probed again on the next call', async () => {
    const down = await startHttpFake([{ path: /.*/, reply: { status: 502, body: 'Bad Gateway' } }]);
    const server = await startInProcessServer('servers/nixos/index.ts', nixosEnv(down));
    try {
      expect((await callTool(server, 'nixos_search', search)).meta).toMatchObject({ code: 'upstream_server_error', status: 502 });
      const probes = () => down.requests.filter((request) => request.path.endsWith('/_count') && request.body.includes('match_all')).length;
      const first = probes();
      expect(first).toBe(20);
      await callTool(server, 'nixos_stats', {});
      expect(probes()).toBe(40);
    } finally {
      await server.close();
      await down.close();
    }
  });
});

describe('nixos ordinary answers in the reference words', () => {
  it('a 404 option page is "Failed to fetch docs", a 404 nixhub package is NOT_FOUND, odd names on 500 too', async () => {
    fake.queueFault('/home-manager/options.xhtml', { status: 404, body: 'Not Found' });
    expect(await callTool(client, 'home_manager_search', { query: 'zsh', limit: 3 })).toMatchObject({
      isError: true,
      meta: undefined,
      text: `Error (ERROR): Failed to fetch docs: 404 Client Error: Not Found for url: ${fake.url}/home-manager/options.xhtml`,
    });
    expect((await callTool(client, 'nixhub_find_version', { package_name: 'nosuch', version: '1.0' })).text).toBe(
      "Error (NOT_FOUND): Package 'nosuch' not found in NixHub",
    );
    const odd = 'a-b-c-d-e-f-g-h';
    fake.queueFault(`/packages/${odd}`, { status: 500, body: 'oops' }, 3);
    expect(await callTool(client, 'nixhub_package_versions', { package_name: odd })).toMatchObject({
      isError: true,
      meta: undefined,
      text: `Error (NOT_FOUND): Package '${odd}' not found in NixHub`,
    });
  });

  it('a 404 flake index is the raw requests text (the reference never reached its own 404 message)', async () => {
    fake.queueFault('/backend/latest-43-group-manual/_search', { status: 404, body: 'no index' });
    expect((await callTool(client, 'nixos_flakes_search', { query: 'devshell' })).text).toBe(
      `Error (ERROR): 404 Client Error: Not Found for url: ${fake.url}/backend/latest-43-group-manual/_search`,
    );
    fake.queueFault('/backend/latest-43-group-manual/_count', { status: 404, body: 'no index' });
    expect((await callTool(client, 'nixos_flakes_stats', {})).text).toBe(
      'Error (ERROR): Flake indices not found. Flake search may be temporarily unavailable.',
    );
  });
});

describe('nixos smoke', () => {
  it('passes its smoke call against its own offline fake', async () => {
    const { result, requests } = await runOfflineSmoke('servers/nixos/index.ts', smoke);
    expect(result.isError, result.text).toBe(false);
    expect(smoke.accept(result.text)).toBe(true);
    expect(smoke.accept("Error (NOT_FOUND): Option 'programs.zsh.enable' not found.")).toBe(false);
    expect(requests.map((request) => request.path)).toEqual(['/home-manager/options.xhtml']);
  });
});

describe('nixos curated fallback fixtures', () => {
  const dir = path.join(repoRoot, 'tools/mock_runtime/fixtures/nixos');

  it('cover the four GT tools with every GT argument set and a default, each naming its source', () => {
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['home_manager_info.json', 'home_manager_search.json', 'nixos_info.json', 'nixos_search.json']);
    const gt = groundTruthCalls('nixos');
    for (const file of files) {
      const tool = file.replace(/\.json$/, '');
      const entries = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Array<{ arguments: unknown; result: unknown; source: unknown }>;
      expect(entries.filter((entry) => entry.arguments === '*')).toHaveLength(1);
      for (const entry of entries) {
        expect(typeof entry.result).toBe('string');
        expect(String(entry.source).length).toBeGreaterThan(20);
      }
      if (gt) {
        const wanted = new Set(gt.filter((call) => call.tool === tool).map((call) => JSON.stringify(call.arguments)));
        expect(new Set(entries.filter((entry) => entry.arguments !== '*').map((entry) => JSON.stringify(entry.arguments))), tool).toEqual(wanted);
      }
    }
  });

  it('entries built from the test bodies are what the server answers for them', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['nixos_info', { channel: '25.05', name: 'services.openssh.enable', type: 'option' }],
      ['home_manager_search', { limit: 3, query: 'zsh' }],
      ['home_manager_info', { name: 'programs.zsh.enable' }],
    ];
    for (const [tool, args] of cases) {
      const entries = JSON.parse(readFileSync(path.join(dir, `${tool}.json`), 'utf8')) as Array<{ arguments: unknown; result: string }>;
      const canonical = (value: unknown) => JSON.stringify(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)));
      const entry = entries.find((candidate) => candidate.arguments !== '*' && canonical(candidate.arguments) === canonical(args));
      expect(entry, `${tool} ${JSON.stringify(args)}`).toBeDefined();
      expect((await callTool(client, tool, args)).text, tool).toBe(entry?.result);
    }
  });
});
