// nasa-mcp's contract with the host and the fallback layer: the catalog's schemas, every GT call
// passing our argument check, upstream failures as typed errors (read from `_meta`), "no events"
// and 4xx answers in the reference's words as ordinary results, and the offline smoke call.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/nasa/smoke.js';
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
  recordedReply,
  runOfflineSmoke,
  startInProcessServer,
} from '../../support/web-server-harness.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
let fake: HttpFake;
let client: Client;
let tools: Tool[];
const flareDay = { start_date: '2025-01-03', end_date: '2025-01-03' };
const nasaEnv = (upstream: HttpFake) => ({ M3_UPSTREAM_NASA_URL: upstream.url, M3_UPSTREAM_NASA_EXOPLANET_URL: upstream.url });

beforeAll(async () => {
  fake = await startHttpFake([{ path: '/DONKI/FLR', reply: recordedReply(fixtures, 'donki-flr-2024-05-09.json') }]);
  client = await startInProcessServer('servers/nasa/index.ts', nasaEnv(fake));
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  await fake?.close();
});

const catalog = catalogTools('nasa-mcp');

describe.skipIf(!catalog)(`nasa-mcp schema parity${catalog ? '' : ' (skipped: ../shared/data/m3bench not found)'}`, () => {
  it('has every catalog tool with the same properties, types, required set and defaults', () => {
    expect(schemaDifferences('nasa-mcp', tools)).toEqual([]);
  });

  it('accepts every ground-truth call in our argument check', () => {
    expect(groundTruthCalls('nasa-mcp')).toHaveLength(50);
    expect(rejectedGtCalls('nasa-mcp', tools)).toEqual([]);
  });
});

describe('nasa-mcp upstream failures are typed', () => {
  it('429 with retry-after → upstream_rate_limited carrying the wait', async () => {
    fake.queueFault('/DONKI/FLR', {
      ...recordedReply(fixtures, 'over-rate-limit-429.json', 429),
      headers: { 'content-type': 'application/json', 'retry-after': '3600' },
    });
    const result = await callTool(client, 'get_solar_flare', flareDay);
    expect(result).toMatchObject({ isError: true, meta: { code: 'upstream_rate_limited', status: 429, retryAfterSec: 3600, upstream: '127.0.0.1' } });
  });

  it('500 → upstream_server_error; 403 (invalid key) → upstream_auth', async () => {
    fake.queueFault('/DONKI/FLR', { status: 500, body: 'Internal Server Error' });
    expect((await callTool(client, 'get_solar_flare', flareDay)).meta).toMatchObject({ code: 'upstream_server_error', status: 500 });
    fake.queueFault('/DONKI/notifications', recordedReply(fixtures, 'api-key-invalid-403.json', 403));
    expect((await callTool(client, 'get_notifications', { notification_type: 'FLR' })).meta).toMatchObject({ code: 'upstream_auth', status: 403 });
  });

  it('a body that is not JSON, or HTML instead of JSON → upstream_bad_response', async () => {
    fake.queueFault('/DONKI/CME', { headers: { 'content-type': 'application/json' }, body: '[{"activityID": ' });
    expect((await callTool(client, 'get_coronal_mass_ejection', flareDay)).meta).toMatchObject({ code: 'upstream_bad_response' });
    fake.queueFault('/DONKI/CME', { headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' });
    const html = await callTool(client, 'get_coronal_mass_ejection', flareDay);
    expect(html.meta).toMatchObject({ code: 'upstream_bad_response' });
    expect(html.text).toContain("content type 'text/html'");
  });

  it('JSON of the wrong shape → upstream_bad_response in the reference words', async () => {
    fake.queueFault('/DONKI/notifications', { body: { unexpected: true } });
    const result = await callTool(client, 'get_notifications', {});
    expect(result).toMatchObject({ isError: true, text: 'Received unexpected data format from Notifications API.', meta: { code: 'upstream_bad_response' } });
  });

  it('a slow answer → upstream_timeout; an unreachable host → upstream_network', async () => {
    fake.queueFault('/DONKI/FLR', slowReply([]));
    const slow = await callOnce('servers/nasa/index.ts', { ...nasaEnv(fake), ...shortTimeoutEnv }, 'get_solar_flare', flareDay);
    expect(slow.meta).toMatchObject({ code: 'upstream_timeout' });
    expect(slow.text).toContain(shortTimeoutMessage);
    const closed = await startHttpFake();
    const unreachable = closed.url;
    await closed.close();
    const offline = await startInProcessServer('servers/nasa/index.ts', { M3_UPSTREAM_NASA_URL: unreachable });
    try {
      expect((await callTool(offline, 'get_solar_flare', flareDay)).meta).toMatchObject({ code: 'upstream_network' });
    } finally {
      await offline.close();
    }
  });
});

describe('nasa-mcp ordinary answers the reference gave for no data and for 4xx', () => {
  it('an empty DONKI list is the reference text, not an error', async () => {
    fake.queueFault('/DONKI/CME', { body: [] });
    expect(await callTool(client, 'get_coronal_mass_ejection', flareDay)).toMatchObject({
      isError: false,
      text: '{\n  "error": "Could not retrieve CME data (connection error)."\n}',
    });
    fake.queueFault('/DONKI/notifications', { body: [] });
    expect((await callTool(client, 'get_notifications', {})).text).toBe('No notifications found for the specified period and type (NASA returned empty list).');
    fake.queueFault('/DONKI/SEP', { headers: { 'content-type': 'application/json' }, body: '' });
    expect(await callTool(client, 'get_solar_energetic_particle', flareDay)).toMatchObject({
      isError: false,
      text: 'Could not retrieve SEP data due to a connection error.',
    });
  });

  it('a 400 is an ordinary tool error with the body as the reference printed it (no infrastructure code)', async () => {
    fake.queueFault('/planetary/apod', recordedReply(fixtures, 'apod-400.json', 400));
    const text = await callTool(client, 'get_astronomy_picture_of_day', { date: '1995-06-15' });
    expect(text).toMatchObject({
      isError: true,
      meta: undefined,
      text: "API Error: HTTP error: 400 - Details: {'code': 400, 'msg': 'Date must be between Jun 16, 1995 and Dec 13, 2021.', 'service_version': 'v1'}",
    });
    fake.queueFault('/DONKI/FLR', recordedReply(fixtures, 'apod-400.json', 400));
    const json = await callTool(client, 'get_solar_flare', { start_date: 'yesterday' });
    expect(json).toMatchObject({ isError: true, meta: undefined });
    expect(JSON.parse(json.text)).toEqual({
      error: 'HTTP error: 400',
      details: { code: 400, msg: 'Date must be between Jun 16, 1995 and Dec 13, 2021.', service_version: 'v1' },
    });
  });
});

describe('nasa-mcp smoke', () => {
  it('passes its smoke call against its own offline fake', async () => {
    const { result, requests } = await runOfflineSmoke('servers/nasa/index.ts', smoke);
    expect(result.isError, result.text).toBe(false);
    expect(smoke.accept(result.text)).toBe(true);
    expect(smoke.accept('{"error": "Could not retrieve FLR data (connection error)."}')).toBe(false);
    expect(requests.find((request) => request.path === '/DONKI/FLR')?.query).toMatchObject({
      startDate: '2025-01-03',
      endDate: '2025-01-03',
      api_key: 'DEMO_KEY',
    });
  });
});

describe('nasa-mcp curated fallback fixtures', () => {
  const dir = path.join(repoRoot, 'tools/mock_runtime/fixtures/nasa-mcp');
  const recordedFor: Record<string, [string, string]> = {
    get_coronal_mass_ejection: ['/DONKI/CME', 'donki-cme-2024-05-14.json'],
    get_solar_flare: ['/DONKI/FLR', 'donki-flr-2024-05-09.json'],
    get_notifications: ['/DONKI/notifications', 'donki-notifications-flr-2024-05-01_10.json'],
  };

  it('cover the three GT tools with the exact GT arguments and a default, each naming its source', () => {
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['get_coronal_mass_ejection.json', 'get_notifications.json', 'get_solar_flare.json']);
    const gt = groundTruthCalls('nasa-mcp');
    for (const file of files) {
      const tool = file.replace(/\.json$/, '');
      const entries = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Array<{ arguments: unknown; result: unknown; source: unknown }>;
      expect(tools.some((candidate) => candidate.name === tool)).toBe(true);
      expect(entries.filter((entry) => entry.arguments === '*')).toHaveLength(1);
      for (const entry of entries) {
        expect(typeof entry.result, `${file}`).toBe('string');
        expect(String(entry.source).length, `${file} source`).toBeGreaterThan(20);
      }
      if (gt) {
        const wanted = new Set(gt.filter((call) => call.tool === tool).map((call) => JSON.stringify(call.arguments)));
        const covered = new Set(entries.filter((entry) => entry.arguments !== '*').map((entry) => JSON.stringify(entry.arguments)));
        expect(covered, tool).toEqual(wanted);
      }
    }
  });

  it('default entries are exactly what the server answers for the recorded bodies they name', async () => {
    for (const [tool, [route, body]] of Object.entries(recordedFor)) {
      const entries = JSON.parse(readFileSync(path.join(dir, `${tool}.json`), 'utf8')) as Array<{ arguments: unknown; result: string; source: string }>;
      const fallback = entries.find((entry) => entry.arguments === '*');
      expect(fallback?.source).toContain(body);
      fake.route({ path: route, reply: recordedReply(fixtures, body) });
      const args =
        tool === 'get_notifications'
          ? { notification_type: 'FLR' }
          : tool === 'get_solar_flare'
            ? { start_date: '2024-05-09', end_date: '2024-05-09' }
            : { start_date: '2024-05-14', end_date: '2024-05-14' };
      expect((await callTool(client, tool, args)).text, tool).toBe(fallback?.result);
    }
    fake.route({ path: '/DONKI/FLR', reply: recordedReply(fixtures, 'donki-flr-2024-05-09.json') });
  });
});
