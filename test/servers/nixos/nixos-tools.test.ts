// The nixos server as a real stdio child against a loopback fake of its four upstreams: every
// one of its 18 tools answers exactly as the reference mcp-nixos server did for the same bodies
// (fixtures/reference-outputs.json, computed with the reference code and BeautifulSoup), sends
// the reference's requests (backend auth, query bodies, channel probes), and answers every
// ground-truth call.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFake } from '../../../servers/shared/http-fake.js';
import { callTool, groundTruthCalls, startInProcessServer } from '../../support/web-server-harness.js';
import { fixtures, nixosEnv, startNixosFake } from './nixos-fake.js';

const reference = JSON.parse(readFileSync(path.join(fixtures, 'reference-outputs.json'), 'utf8')) as {
  cases: Array<{ tool: string; arguments: Record<string, unknown>; text: string }>;
};
const publicAuthorization = `Basic ${Buffer.from('aWVSALXpZv:X8gPHnzL52wFEekuxsfQ9cSh').toString('base64')}`;

let fake: HttpFake;
let client: Client;

beforeAll(async () => {
  fake = await startNixosFake();
  client = await startInProcessServer('servers/nixos/index.ts', nixosEnv(fake));
});
afterAll(async () => {
  await client?.close();
  await fake?.close();
});

describe('nixos answers as the reference mcp-nixos server did', () => {
  it('lists the 18 reference tools in the reference order', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'nixos_search',
      'nixos_info',
      'nixos_channels',
      'nixos_stats',
      'home_manager_search',
      'home_manager_info',
      'home_manager_stats',
      'home_manager_list_options',
      'home_manager_options_by_prefix',
      'darwin_search',
      'darwin_info',
      'darwin_stats',
      'darwin_list_options',
      'darwin_options_by_prefix',
      'nixos_flakes_stats',
      'nixos_flakes_search',
      'nixhub_package_versions',
      'nixhub_find_version',
    ]);
  });

  for (const entry of reference.cases) {
    it(`${entry.tool} ${JSON.stringify(entry.arguments)}`, async () => {
      const result = await callTool(client, entry.tool, entry.arguments);
      expect(result.text).toBe(entry.text);
      // The reference's "Error (...)" texts are ordinary tool errors here; everything else is a result.
      expect(result.isError).toBe(entry.text.startsWith('Error ('));
      expect(result.meta).toBeUndefined();
    });
  }

  it('probed the 20 channel indices once, with the public frontend credentials, and cached the result', async () => {
    const probes = fake.requests.filter((request) => request.path.endsWith('/_count') && request.body.includes('match_all'));
    expect(probes.map((request) => request.path.split('/')[2]).sort()).toEqual(
      [43, 44, 45, 46]
        .flatMap((generation) => ['unstable', '25.05', '25.11', '26.05', '30.05'].map((version) => `latest-${generation}-nixos-${version}`))
        .sort(),
    );
    expect(probes.every((request) => request.method === 'POST' && request.headers.authorization === publicAuthorization)).toBe(true);
    expect(JSON.parse(probes[0]?.body ?? '{}')).toEqual({ query: { match_all: {} } });
  });

  it('sends the reference query for a package search to the resolved stable index', async () => {
    const before = fake.requests.length;
    await callTool(client, 'nixos_search', { query: 'fastapi', search_type: 'packages', limit: 10, channel: 'stable' });
    const [search] = fake.requests.slice(before);
    // stable = the highest version with documents (25.11), as the reference resolves it.
    expect(search?.path).toBe('/backend/latest-44-nixos-25.11/_search');
    expect(search?.headers.authorization).toBe(publicAuthorization);
    expect(JSON.parse(search?.body ?? '{}')).toEqual({
      query: {
        bool: {
          must: [{ term: { type: 'package' } }],
          should: [{ match: { package_pname: { query: 'fastapi', boost: 3 } } }, { match: { package_description: 'fastapi' } }],
          minimum_should_match: 1,
        },
      },
      size: 10,
    });
  });

  it('looks an option up by exact name in the version channel', async () => {
    const before = fake.requests.length;
    await callTool(client, 'nixos_info', { name: 'services.openssh.enable', type: 'option', channel: '25.05' });
    const [search] = fake.requests.slice(before);
    // 25.05 maps to the generation with more documents (44: 120,000 against 45: 90,000).
    expect(search?.path).toBe('/backend/latest-44-nixos-25.05/_search');
    expect(JSON.parse(search?.body ?? '{}')).toEqual({
      query: { bool: { must: [{ term: { type: 'option' } }, { term: { option_name: 'services.openssh.enable' } }] } },
      size: 1,
    });
  });
});

const gtCalls = groundTruthCalls('nixos');

describe.skipIf(!gtCalls)(`nixos ground-truth calls${gtCalls ? '' : ' (skipped: ../shared/data/m3bench not found)'}`, () => {
  it('answers all 48 GT calls in the reference layouts', async () => {
    expect(gtCalls).toHaveLength(48);
    for (const call of gtCalls ?? []) {
      const result = await callTool(client, call.tool, call.arguments);
      expect(result.isError, `${call.taskId} ${call.tool} ${JSON.stringify(call.arguments)}: ${result.text}`).toBe(false);
      if (call.tool === 'nixos_search') expect(result.text).toMatch(new RegExp(`^(Found \\d+ packages|No packages found) matching '${call.arguments.query}'`));
      if (call.tool === 'nixos_info')
        expect(result.text).toMatch(/^Option: services\.openssh\.enable\nType: boolean\nDescription: Whether to enable the OpenSSH/);
      if (call.tool === 'home_manager_search') {
        expect(result.text.split('\n').filter((line) => line.startsWith('• '))).toEqual([
          '• home.shell.enableZshIntegration',
          '• programs.aliae.enableZshIntegration',
          '• programs.atuin.enableZshIntegration',
        ]);
      }
      if (call.tool === 'home_manager_info')
        expect(result.text).toBe('Option: programs.zsh.enable\nType: boolean\nDescription: Whether to enable Z shell (Zsh).');
    }
  });
});
