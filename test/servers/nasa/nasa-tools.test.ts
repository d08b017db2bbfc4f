// nasa-mcp as a real stdio child against a loopback fake of api.nasa.gov and the Exoplanet
// Archive: every tool answers recorded upstream bodies with exactly the text the reference
// server produced for them (fixtures/reference-outputs.json), sends the reference's requests,
// and answers every ground-truth call.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { stringify } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFake, type FakeReply, type HttpFake } from '../../../servers/shared/http-fake.js';
import { callTool, groundTruthCalls, loadRecordedBody, recordedReply, startInProcessServer } from '../../support/web-server-harness.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const reference = JSON.parse(readFileSync(path.join(fixtures, 'reference-outputs.json'), 'utf8')) as {
  cases: Array<{ tool: string; arguments: Record<string, unknown>; path: string; body: string; text: string }>;
};

/** `name.json` or `name.json#key` (one part of a file holding several bodies). */
function replyFor(body: string): FakeReply {
  const [file = '', key] = body.split('#');
  if (!key) return recordedReply(fixtures, file);
  const part = (loadRecordedBody(fixtures, file) as Record<string, unknown>)[key];
  return { headers: { 'content-type': 'application/json' }, body: stringify(part) ?? '' };
}

let fake: HttpFake;
let client: Client;
const secretKey = 'test-personal-key-0123';

beforeAll(async () => {
  fake = await startHttpFake();
  client = await startInProcessServer('servers/nasa/index.ts', {
    M3_UPSTREAM_NASA_URL: fake.url,
    M3_UPSTREAM_NASA_EXOPLANET_URL: `${fake.url}/exo`,
    NASA_API_KEY: secretKey,
  });
});
afterAll(async () => {
  await client?.close();
  await fake?.close();
});

describe('nasa-mcp answers as the reference server did', () => {
  it('lists the 19 reference tools in the reference order', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([
      'get_astronomy_picture_of_day',
      'get_asteroids_feed',
      'get_asteroid_lookup',
      'browse_asteroids',
      'get_coronal_mass_ejection',
      'get_geomagnetic_storm',
      'get_solar_flare',
      'get_solar_energetic_particle',
      'get_magnetopause_crossing',
      'get_radiation_belt_enhancement',
      'get_hight_speed_stream',
      'get_wsa_enlil_simulation',
      'get_notifications',
      'get_epic_imagery',
      'get_epic_imagery_by_date',
      'get_epic_dates',
      'get_exoplanet_data',
      'get_mars_rover_photos',
      'get_mars_rover_manifest',
    ]);
  });

  for (const entry of reference.cases) {
    it(`${entry.tool} ${JSON.stringify(entry.arguments)} returns the reference text for ${entry.body}`, async () => {
      fake.route({ path: entry.path, reply: replyFor(entry.body) });
      const before = fake.requests.length;
      const result = await callTool(client, entry.tool, entry.arguments);
      expect(result.isError, result.text).toBe(false);
      // EPIC links: the reference printed its own key; ours always shows the public DEMO_KEY.
      expect(result.text).toBe(entry.text);
      expect(result.text).not.toContain(secretKey);
      const sent = fake.requests.slice(before);
      expect(sent.map((request) => request.path)).toEqual([entry.path]);
      expect(sent[0]?.query.api_key).toBe(secretKey);
      expect(sent[0]?.method).toBe('GET');
    });
  }

  it('sends the DONKI dates and the notification type as the reference named them', async () => {
    fake.route({ path: '/DONKI/notifications', reply: recordedReply(fixtures, 'donki-notifications-flr-2024-05-01_10.json') });
    await callTool(client, 'get_notifications', { start_date: '2025-01-01', end_date: '2025-01-10', notification_type: 'FLR' });
    expect(fake.requestsTo('/DONKI/notifications').at(-1)?.query).toEqual({ type: 'FLR', startDate: '2025-01-01', endDate: '2025-01-10', api_key: secretKey });
    await callTool(client, 'get_notifications', {});
    expect(fake.requestsTo('/DONKI/notifications').at(-1)?.query).toEqual({ type: 'all', api_key: secretKey });
  });

  it('keeps DONKI float literals and reads null link lists as empty', async () => {
    fake.route({ path: '/DONKI/CME', reply: recordedReply(fixtures, 'donki-cme-2024-05-14.json') });
    const text = (await callTool(client, 'get_coronal_mass_ejection', { start_date: '2024-05-14', end_date: '2024-05-14' })).text;
    expect(text).toContain('"speed": 502.0,');
    const recorded = loadRecordedBody(fixtures, 'donki-cme-2024-05-14.json') as Array<{ linkedEvents: unknown }>;
    const parsed = JSON.parse(text) as { events: Array<{ related_events: unknown[] }> };
    expect(recorded.some((event) => event.linkedEvents === null)).toBe(true);
    recorded.forEach((event, index) => {
      if (event.linkedEvents === null) expect(parsed.events[index]?.related_events).toEqual([]);
    });
  });

  it('queries the Exoplanet Archive with table, format and where, and shows CSV as text', async () => {
    fake.route({ path: '/exo/cgi-bin/nstedAPI/nph-nstedAPI', reply: recordedReply(fixtures, 'exoplanets.json') });
    const json = await callTool(client, 'get_exoplanet_data', { query: "pl_hostname like 'Kepler%'" });
    expect(json.text).toBe(
      'Found 2 entries:nn  pl_hostname: Kepler-22n  pl_letter: bn  pl_name: Kepler-22 bn  pl_discmethod: Transitn  pl_pnum: 1n  pl_orbper: 289.8623n  pl_radj: 0.214n  st_dist: 190.0n  ... (more fields exist)n----------------------------------------nn  pl_hostname: Nobodyn----------------------------------------',
    );
    expect(fake.requestsTo('/exo/cgi-bin/nstedAPI/nph-nstedAPI').at(-1)?.query).toEqual({
      table: 'exoplanets',
      format: 'json',
      where: "pl_hostname like 'Kepler%'",
    });
    const csv = `pl_name,pl_orbper\n${'Kepler-22 b,289.8623\n'.repeat(120)}`;
    fake.route({ path: '/exo/cgi-bin/nstedAPI/nph-nstedAPI', reply: { headers: { 'content-type': 'text/plain' }, body: csv } });
    const truncated = await callTool(client, 'get_exoplanet_data', { format: 'csv', table: 'cumulative' });
    expect(truncated.text).toBe(`Received CSV data (truncated):n${csv.slice(0, 2000)}n... (response truncated)`);
    expect(fake.requestsTo('/exo/cgi-bin/nstedAPI/nph-nstedAPI').at(-1)?.query).toEqual({ table: 'cumulative', format: 'csv' });
  });

  it('refuses bad rover, camera and collection arguments in the reference words, without a request', async () => {
    const before = fake.requests.length;
    expect(await callTool(client, 'get_mars_rover_photos', { rover_name: 'Perseverance', sol: 1 })).toMatchObject({
      isError: true,
      text: 'Invalid rover name. Available rovers: curiosity, opportunity, spirit',
    });
    expect((await callTool(client, 'get_mars_rover_photos', { rover_name: 'spirit', sol: 1, camera: 'mast' })).text).toBe(
      "Invalid camera 'MAST' for rover 'spirit'. Available cameras: FHAZ, RHAZ, NAVCAM, PANCAM, MINITES",
    );
    expect((await callTool(client, 'get_mars_rover_photos', { rover_name: 'spirit', sol: 1, earth_date: '2004-01-05' })).text).toBe(
      'Error: Specify either sol or earth_date, but not both.',
    );
    expect((await callTool(client, 'get_epic_dates', { collection: 'aerosol' })).text).toBe('Invalid collection. Available options: natural, enhanced.');
    expect(fake.requests.length).toBe(before);
  });
});

const gtCalls = groundTruthCalls('nasa-mcp');

describe.skipIf(!gtCalls)(`nasa-mcp ground-truth calls${gtCalls ? '' : ' (skipped: ../shared/data/m3bench not found)'}`, () => {
  it('answers all 50 GT calls with the reference layouts and the GT dates in the requests', async () => {
    fake.route({ path: '/DONKI/CME', reply: recordedReply(fixtures, 'donki-cme-2024-05-14.json') });
    fake.route({ path: '/DONKI/FLR', reply: recordedReply(fixtures, 'donki-flr-2024-05-09.json') });
    fake.route({ path: '/DONKI/notifications', reply: recordedReply(fixtures, 'donki-notifications-flr-2024-05-01_10.json') });
    expect(gtCalls).toHaveLength(50);
    for (const call of gtCalls ?? []) {
      const before = fake.requests.length;
      const result = await callTool(client, call.tool, call.arguments);
      expect(result.isError, `${call.taskId} ${call.tool}: ${result.text}`).toBe(false);
      if (call.tool === 'get_notifications') expect(result.text).toMatch(/^Notifications found: 42nnID: 20240510-AL-007nType: FLRn/);
      else expect((JSON.parse(result.text) as { count: number }).count).toBe(call.tool === 'get_solar_flare' ? 10 : 8);
      const query = fake.requests[before]?.query ?? {};
      expect(query.startDate).toBe(call.arguments.start_date);
      expect(query.endDate).toBe(call.arguments.end_date);
    }
  });
});
