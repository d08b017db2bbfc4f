// The google-air server as a real child process against a loopback fake of the Air Quality API:
// all GT current_conditions calls POST the location with the key as `key` and answer with the
// upstream JSON in FastMCP's layout; history pages are merged; GT heatmap tiles come back as
// PNG image content saved in the workspace; failures are typed and never show the key.
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { groundTruthCalls, loadFixture, missingSharedData, useWebServer } from '../../support/keyed-web-server.js';

const KEY = 'air-quality-test-key-0c1e';
const fixture = (name: string) => loadFixture('google-air', name);
let tile: Buffer;

const web = useWebServer('google-air', {
  routes: async () => {
    tile = await sharp({ create: { width: 256, height: 256, channels: 4, background: { r: 255, g: 128, b: 0, alpha: 0.5 } } })
      .png()
      .toBuffer();
    return [
      { path: '/v1/currentConditions:lookup', method: 'POST', reply: { body: fixture('current') } },
      { path: '/v1/forecast:lookup', method: 'POST', reply: { body: fixture('forecast') } },
      {
        path: '/v1/history:lookup',
        method: 'POST',
        reply: (request) => ({ body: fixture((JSON.parse(request.body) as { pageToken?: string }).pageToken ? 'history-page2' : 'history-page1') }),
      },
      { path: /^\/v1\/mapTypes\/[^/]+\/heatmapTiles\/\d+\/\d+\/\d+$/, reply: { body: tile, headers: { 'content-type': 'image/png' } } },
    ];
  },
  env: (url) => ({ GOOGLE_MAPS_API_KEY: KEY, M3_UPSTREAM_GOOGLE_AIR_QUALITY_URL: url }),
});
const call = web.call;

describe('google-air', () => {
  it('current_conditions: every GT call POSTs {location} with the key as `key` and returns the upstream JSON', async (context) => {
    const calls = groundTruthCalls('google-air/current_conditions');
    if (!calls) return context.skip(missingSharedData);
    expect(calls.length).toBe(22);
    for (const { arguments: args } of calls) {
      const answer = await call('current_conditions', args);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toBe(JSON.stringify(fixture('current'), null, 2));
      const sent = web.fake().requestsTo('/v1/currentConditions:lookup').at(-1);
      expect(sent?.query).toEqual({ key: KEY });
      expect(JSON.parse(sent?.body ?? '{}')).toEqual({ location: { latitude: args.lat, longitude: args.lng } });
    }
  });

  it('heatmap_tile: every GT call returns the PNG tile as image content and saves it in the workspace', async (context) => {
    const calls = groundTruthCalls('google-air/heatmap_tile');
    if (!calls) return context.skip(missingSharedData);
    expect(calls.length).toBe(7);
    for (const { arguments: args } of calls) {
      const answer = await call('heatmap_tile', args);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.images).toEqual([{ type: 'image', data: tile.toString('base64'), mimeType: 'image/png' }]);
      const meta = JSON.parse(answer.text) as { tile: unknown; saved_path: string; content_type: string };
      expect(meta.tile).toEqual({ z: args.z, x: args.x, y: args.y, indexType: args.indexType });
      expect(meta.content_type).toBe('image/png');
      expect(meta.saved_path.startsWith(web.server().workspace) && existsSync(meta.saved_path)).toBe(true);
      const sent = web
        .fake()
        .requestsTo(/heatmapTiles/)
        .at(-1);
      expect([sent?.path, sent?.query]).toEqual([
        `/v1/mapTypes/${String(args.indexType)}/heatmapTiles/${String(args.z)}/${String(args.x)}/${String(args.y)}`,
        { key: KEY },
      ]);
    }
    expect((await call('heatmap_tile', { z: 2, x: 0, y: 1 })).text).toContain('"indexType": "UNIVERSAL_AQI"');
  });

  it('history follows nextPageToken and merges the hours; forecast sends a period from now', async () => {
    const history = await call('history', { lat: 48.85, lng: 2.35, startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-01T03:00:00Z' });
    const merged = JSON.parse(history.text) as { hoursInfo: Array<{ dateTime: string }>; nextPageToken?: string; regionCode: string };
    expect(merged.hoursInfo.map((hour) => hour.dateTime)).toEqual(['2024-01-01T00:00:00Z', '2024-01-01T01:00:00Z', '2024-01-01T02:00:00Z']);
    expect(merged.nextPageToken).toBeUndefined();
    const pages = web
      .fake()
      .requestsTo('/v1/history:lookup')
      .map((request) => JSON.parse(request.body) as Record<string, unknown>);
    expect(pages).toEqual([
      { location: { latitude: 48.85, longitude: 2.35 }, period: { startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-01T03:00:00Z' } },
      {
        location: { latitude: 48.85, longitude: 2.35 },
        period: { startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-01T03:00:00Z' },
        pageToken: 'page-2-token',
      },
    ]);
    const forecast = await call('forecast', { lat: 52.09, lng: 5.12, hours: 6 });
    expect(JSON.parse(forecast.text)).toEqual(fixture('forecast'));
    const period = (JSON.parse(web.fake().requestsTo('/v1/forecast:lookup').at(-1)?.body ?? '{}') as { period: { startTime: string; endTime: string } }).period;
    expect(Date.parse(period.endTime) - Date.parse(period.startTime)).toBe(6 * 3_600_000);
  });

  it('failures: bad key is auth, 429 carries retry-after, 500 is a server error, a bad location an ordinary error', async () => {
    web.fake().queueFault('/v1/currentConditions:lookup', {
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ reason: 'API_KEY_INVALID' }],
        },
      },
    });
    expect((await call('current_conditions', { lat: 1, lng: 2 })).meta?.code).toBe('upstream_auth');
    web.fake().queueFault('/v1/currentConditions:lookup', { status: 429, headers: { 'retry-after': '20' }, body: {} });
    expect((await call('current_conditions', { lat: 1, lng: 2 })).meta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 20 });
    web.fake().queueFault('/v1/currentConditions:lookup', { status: 500, body: {} });
    expect((await call('current_conditions', { lat: 1, lng: 2 })).meta?.code).toBe('upstream_server_error');
    web.fake().queueFault('/v1/currentConditions:lookup', {
      status: 400,
      body: { error: { code: 400, message: `Information is unavailable for this location (key=${KEY}).`, status: 'INVALID_ARGUMENT' } },
    });
    const ocean = await call('current_conditions', { lat: 0, lng: -30 });
    expect([ocean.isError, ocean.meta]).toEqual([true, undefined]);
    expect(ocean.text).toMatch(/^Error executing tool current_conditions: HTTP 400 at .*Information is unavailable/);
    web.fake().queueFault(/heatmapTiles/, slowReply(tile));
    const slow = await web.callWithShortTimeout('heatmap_tile', { z: 1, x: 0, y: 0 });
    expect(slow.meta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });

  it('no result and no stderr line contained the key', () => {
    for (const text of web.texts) expect(text).not.toContain(KEY);
    expect(web.server().stderr()).not.toContain(KEY);
  });
});
