// startOfflineSmokeFakes: the fake of each declared smoke is started and the server's base-URL
// variables point at it (over the configured values); servers without an offline fake are left
// as they are; the fakes answer the declared routes and close.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSpec } from '../../src/config/index.js';
import { smokeTests, startOfflineSmokeFakes, type OfflineSmokeFakes } from '../../src/mcp/smoke-tests.js';

const spec = (name: string, env: Record<string, string> = {}): ServerSpec => ({
  name,
  transport: 'stdio',
  command: 'node',
  args: [],
  env,
  headers: {},
  cwd: '/',
});

let fakes: OfflineSmokeFakes | undefined;
afterEach(async () => {
  await fakes?.close();
  fakes = undefined;
});

describe('offline smoke fakes', () => {
  it('declares an offline fake for every web server in the smoke table', () => {
    const web = ['wiki', 'weather', 'openlibrary_mcp', 'okx', 'metmuseum-mcp', 'car-price', 'yahoo-finance', 'hugeicons-mcp'];
    for (const name of web) expect(smokeTests[name]?.offline, name).toBeDefined();
    expect(smokeTests.math?.offline).toBeUndefined();
  });

  it('points the declared variables at a started fake and leaves other servers alone', async () => {
    const math = spec('math', { KEEP: '1' });
    fakes = await startOfflineSmokeFakes([math, spec('weather', { M3_UPSTREAM_OPEN_METEO_URL: 'https://mirror.example', OTHER: 'x' })]);
    expect(fakes.faked).toEqual(['weather']);
    expect(fakes.specs[0]).toBe(math);
    const env = fakes.specs[1]?.env ?? {};
    expect(env.OTHER).toBe('x');
    expect(env.M3_UPSTREAM_OPEN_METEO_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/meteo$/);
    expect(env.M3_UPSTREAM_ZIPPOPOTAM_URL).toBe(env.M3_UPSTREAM_OPEN_METEO_URL?.replace(/\/meteo$/, '/zip'));
    const answer = await fetch(`${env.M3_UPSTREAM_ZIPPOPOTAM_URL}/us/90210`);
    expect(((await answer.json()) as { places: Array<{ 'place name': string }> }).places[0]?.['place name']).toBe('Beverly Hills');
  });

  it('closes its fakes', async () => {
    const started = await startOfflineSmokeFakes([spec('okx')]);
    const url = started.specs[0]?.env.M3_UPSTREAM_OKX_URL ?? '';
    await started.close();
    await expect(fetch(`${url}/api/v5/market/ticker`)).rejects.toThrow();
  });
});
