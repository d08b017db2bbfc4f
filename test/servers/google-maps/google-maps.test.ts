// The google-maps server as a real child process against a loopback fake of Google's hosts:
// every GT call of the frequent tools answers in the reference's {endpoint, request, response}
// layout, the requests carry the key where each API reads it (query `key` on the web services,
// X-Goog-Api-Key + X-Goog-FieldMask headers on Places v1 / Routes v2), images come back as image
// content saved in the workspace, and failures are typed without ever showing the key.
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../servers/shared/http-fake.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { groundTruthCalls, loadFixture, missingSharedData, useWebServer } from '../../support/keyed-web-server.js';

const KEY = 'gmaps-test-key-7f3a9c';
const fixture = (name: string) => loadFixture('google-maps', name);
let png: Buffer;

async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await call(name, args);
  expect(answer.isError, `${name} ${JSON.stringify(args)} → ${answer.text}`).toBe(false);
  return JSON.parse(answer.text) as Record<string, unknown>;
}

const last = (path: string | RegExp): RecordedRequest => {
  const request = web.fake().requestsTo(path).at(-1);
  if (!request) throw new Error(`no request to ${String(path)}`);
  return request;
};

const web = useWebServer('google-maps', {
  routes: async () => {
    png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    return [
      { path: '/gmaps/maps/api/geocode/json', reply: { body: fixture('geocode') } },
      { path: '/gmaps/maps/api/place/textsearch/json', reply: () => ({ body: fixture('text-search') }) },
      { path: '/gmaps/maps/api/directions/json', reply: { body: fixture('directions') } },
      { path: '/gmaps/maps/api/distancematrix/json', reply: { body: fixture('distance-matrix') } },
      { path: '/gmaps/maps/api/elevation/json', reply: { body: fixture('elevation') } },
      {
        path: '/gmaps/maps/api/timezone/json',
        reply: { body: { dstOffset: 3600, rawOffset: 3600, status: 'OK', timeZoneId: 'Europe/Paris', timeZoneName: 'Central European Summer Time' } },
      },
      { path: '/gmaps/maps/api/staticmap', reply: { body: png, headers: { 'content-type': 'image/png' } } },
      { path: '/gmaps/maps/api/streetview', reply: { body: png, headers: { 'content-type': 'image/png' } } },
      { path: '/places/v1/places:searchNearby', method: 'POST', reply: { body: fixture('nearby') } },
      { path: /^\/places\/v1\/places\/[^/]+$/, reply: { body: fixture('place-details') } },
      {
        path: /^\/places\/v1\/places\/.+\/media$/,
        // The photo URI names Google's real photo host, as the API does; the server reaches it through M3_UPSTREAM_GOOGLE_PHOTOS_URL.
        reply: { body: { name: 'places/p1/photos/ph1/media', photoUri: 'https://lh3.googleusercontent.com/place-photos/ph1=s1600-w400' } },
      },
      { path: '/gphotos/place-photos/ph1=s1600-w400', reply: { body: png } },
      { path: '/routes/directions/v2:computeRoutes', method: 'POST', reply: { body: fixture('routes') } },
      {
        path: /^\/roads\/v1\//,
        reply: { body: { snappedPoints: [{ location: { latitude: 48.85, longitude: 2.35 }, placeId: 'ChIJroad', originalIndex: 0 }] } },
      },
      { path: '/geo/geolocation/v1/geolocate', method: 'POST', reply: { body: { location: { lat: 48.85, lng: 2.35 }, accuracy: 1200 } } },
    ];
  },
  env: (url) => ({
    GOOGLE_MAPS_API_KEY: KEY,
    M3_UPSTREAM_GOOGLE_MAPS_URL: `${url}/gmaps`,
    M3_UPSTREAM_GOOGLE_PLACES_URL: `${url}/places`,
    M3_UPSTREAM_GOOGLE_ROUTES_URL: `${url}/routes`,
    M3_UPSTREAM_GOOGLE_ROADS_URL: `${url}/roads`,
    M3_UPSTREAM_GOOGLE_GEOLOCATION_URL: `${url}/geo`,
    M3_UPSTREAM_GOOGLE_PHOTOS_URL: `${url}/gphotos`,
  }),
});
const call = web.call;

function gt(name: string, context: { skip: (message: string) => void }) {
  const calls = groundTruthCalls(`google-maps/${name}`);
  if (!calls) context.skip(missingSharedData);
  return calls ?? [];
}

describe('google-maps: GT calls of the frequent tools', () => {
  it('geocode: every GT call sends address/region/language and the key as `key`, and echoes the request without it', async (context) => {
    const calls = gt('geocode', context);
    expect(calls.length).toBe(43);
    for (const { arguments: args } of calls) {
      const result = await ok('geocode', args);
      const sent = last('/gmaps/maps/api/geocode/json');
      expect(sent.query).toEqual({ ...args, key: KEY });
      expect(result.endpoint).toBe(`${web.fake().url}/gmaps/maps/api/geocode/json`);
      expect(result.request).toEqual(args);
      expect(result.response).toEqual(fixture('geocode'));
    }
    const text = (await call('geocode', calls[0]?.arguments ?? {})).text;
    expect(text.startsWith('{\n  "endpoint": ')).toBe(true); // FastMCP's indent-2 JSON layout
  });

  it('places_text_search: legacy text search with the circle bias translated and results trimmed to maxResultCount', async (context) => {
    const calls = gt('places_text_search', context);
    expect(calls.length).toBe(44);
    for (const { arguments: args } of calls) {
      const result = await ok('places_text_search', args);
      const query = last('/gmaps/maps/api/place/textsearch/json').query;
      expect(query.query).toBe(args.query);
      expect(query.key).toBe(KEY);
      expect(query.language).toBe(args.languageCode);
      expect(query.region).toBe(args.regionCode);
      const center = (args.locationBias as { circle?: { center?: Record<string, number>; radius?: number } } | undefined)?.circle?.center;
      if (center?.latitude !== undefined) expect(query.location).toBe(`${center.latitude},${center.longitude}`);
      else expect(query.location).toBeUndefined(); // a {lat,lng} centre is ignored, as in the reference
      expect(result.request).not.toHaveProperty('key');
      expect((result.response as { results: unknown[] }).results.length).toBe(Math.min(3, Number(args.maxResultCount)));
    }
    const trimmed = await ok('places_text_search', { query: 'restaurants', maxResultCount: 2 });
    expect((trimmed.response as { results: Array<{ name: string }> }).results.map((place) => place.name)).toEqual([
      "Rose's Luxury",
      'AMBAR Restaurant, Capitol Hill',
    ]);
  });

  it('place_details: Places v1 with the key and the field mask as headers', async (context) => {
    const calls = gt('place_details', context);
    expect(calls.length).toBe(20);
    for (const { arguments: args } of calls) {
      const result = await ok('place_details', args);
      const sent = last(/^\/places\/v1\/places\/[^/]+$/);
      expect(sent.path).toBe(`/places/v1/places/${String(args.place_id)}`);
      expect(sent.headers['x-goog-api-key']).toBe(KEY);
      expect(sent.query).toEqual({});
      const mask =
        (args.fields as string | undefined) ??
        'id,displayName,formattedAddress,location,primaryType,primaryTypeDisplayName,rating,userRatingCount,internationalPhoneNumber,websiteUri,currentOpeningHours,photos.name';
      expect(sent.headers['x-goog-fieldmask']).toBe(mask);
      expect(result.headers).toEqual({ 'X-Goog-FieldMask': mask });
      expect((result.response as { displayName: { text: string } }).displayName.text).toBe('Illinois Natural History Survey (INHS)');
    }
  });

  it('compute_route: Routes v2 POST with the body the reference built and the GT field masks', async (context) => {
    const calls = gt('compute_route', context);
    expect(calls.length).toBe(32);
    for (const { arguments: args } of calls) {
      const result = await ok('compute_route', args);
      const sent = last('/routes/directions/v2:computeRoutes');
      const expected: Record<string, unknown> = { origin: args.origin, destination: args.destination, travelMode: args.travelMode ?? 'DRIVE' };
      if (Array.isArray(args.intermediates) && args.intermediates.length) expected.intermediates = args.intermediates;
      if (args.routingPreference) expected.routingPreference = args.routingPreference;
      if (args.avoidTolls !== undefined) expected.routeModifiers = { avoidTolls: args.avoidTolls };
      if (args.optimizeWaypointOrder !== undefined) expected.optimizeWaypointOrder = args.optimizeWaypointOrder;
      expect(JSON.parse(sent.body)).toEqual(expected);
      expect(result.request).toEqual(expected);
      expect(sent.headers['x-goog-api-key']).toBe(KEY);
      expect(sent.headers['x-goog-fieldmask']).toBe(
        args.fields ?? 'routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline,routes.legs,routes.travelAdvisory',
      );
      expect((result.response as { routes: Array<{ distanceMeters: number }> }).routes[0]?.distanceMeters).toBe(71455);
    }
  });

  it('directions_legacy and distance_matrix: lists joined with "|", departure_time passed through', async (context) => {
    const directions = gt('directions_legacy', context);
    expect(directions.length).toBe(18);
    for (const { arguments: args } of directions) {
      const result = await ok('directions_legacy', args);
      const query = last('/gmaps/maps/api/directions/json').query;
      const expected: Record<string, unknown> = { origin: args.origin, destination: args.destination, mode: args.mode ?? 'driving' };
      if (Array.isArray(args.waypoints)) expected.waypoints = (args.waypoints as string[]).join('|');
      if (args.departure_time) expected.departure_time = args.departure_time;
      expect(query).toEqual({ ...expected, key: KEY });
      expect(result.request).toEqual(expected);
      expect((result.response as { routes: Array<{ legs: unknown[] }> }).routes[0]?.legs).toHaveLength(3);
    }
    const matrix = gt('distance_matrix', context);
    expect(matrix.length).toBe(16);
    for (const { arguments: args } of matrix) {
      const result = await ok('distance_matrix', args);
      const query = last('/gmaps/maps/api/distancematrix/json').query;
      expect(query.origins).toBe((args.origins as string[]).join('|'));
      expect(query.destinations).toBe((args.destinations as string[]).join('|'));
      expect(query.departure_time).toBe(args.departure_time);
      expect(result.request).not.toHaveProperty('key');
    }
  });

  it('elevation_by_locations: GT calls pass the points joined with "|"', async (context) => {
    const calls = gt('elevation_by_locations', context);
    expect(calls.length).toBe(9);
    for (const { arguments: args } of calls) {
      const result = await ok('elevation_by_locations', args);
      expect(last('/gmaps/maps/api/elevation/json').query).toEqual({ locations: (args.locations as string[]).join('|'), key: KEY });
      expect(result.response).toEqual(fixture('elevation'));
    }
  });

  it('places_nearby_search: location + radius become Places v1 locationRestriction; raw locationRestriction GT calls are refused as in the reference', async (context) => {
    const calls = gt('places_nearby_search', context);
    expect(calls.length).toBe(16);
    const [valid, raw] = [calls.filter((item) => 'location' in item.arguments), calls.filter((item) => !('location' in item.arguments))];
    expect([valid.length, raw.length]).toEqual([7, 9]);
    for (const { arguments: args } of valid) {
      const result = await ok('places_nearby_search', args);
      const sent = last('/places/v1/places:searchNearby');
      const body = JSON.parse(sent.body) as Record<string, unknown>;
      expect(body.locationRestriction).toEqual({ circle: { center: args.location, radius: args.radiusMeters } });
      expect(body).not.toHaveProperty('location');
      expect(body.includedTypes).toEqual(args.includedTypes);
      expect(sent.headers['x-goog-api-key']).toBe(KEY);
      expect(sent.headers['x-goog-fieldmask']).toMatch(/^places\.id,places\.displayName,/);
      expect((result.response as { places: unknown[] }).places).toHaveLength(2);
    }
    const before = web.fake().requestsTo('/places/v1/places:searchNearby').length;
    for (const { arguments: args } of raw) {
      const answer = await call('places_nearby_search', args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/location|radiusMeters/);
    }
    expect(web.fake().requestsTo('/places/v1/places:searchNearby').length).toBe(before);
  });
});

describe('google-maps: images', () => {
  it('static_map: every GT call returns the PNG as image content, saves it in the workspace, and names a URL without the key', async (context) => {
    const calls = gt('static_map', context);
    expect(calls.length).toBe(7);
    for (const { arguments: args } of calls) {
      const answer = await call('static_map', args);
      expect(answer.isError, answer.text).toBe(false);
      const result = JSON.parse(answer.text) as { image_url: string; saved_path: string; mime_type: string; bytes: number };
      expect(answer.images).toEqual([{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }]);
      expect(result.mime_type).toBe('image/png');
      expect(result.saved_path.startsWith(web.server().workspace)).toBe(true);
      expect(existsSync(result.saved_path)).toBe(true);
      expect(result.image_url).not.toContain('key=');
      const query = last('/gmaps/maps/api/staticmap').query;
      expect(query).toEqual({ size: '640x640', scale: '2', maptype: 'roadmap', center: args.center, zoom: '10', key: KEY });
    }
  });

  it('street_view_image and place_photo_media return images; the photo is fetched through skipHttpRedirect without the key', async () => {
    const street = await call('street_view_image', { location: '48.8584,2.2945', heading: 90 });
    expect(street.isError, street.text).toBe(false);
    expect(street.images[0]?.mimeType).toBe('image/png');
    expect(last('/gmaps/maps/api/streetview').query).toEqual({ location: '48.8584,2.2945', size: '640x640', heading: '90', key: KEY });

    const photo = await call('place_photo_media', { photo_resource: 'places/ChIJURk/photos/AWU5eFg', maxWidthPx: 400 });
    expect(photo.isError, photo.text).toBe(false);
    expect(photo.images[0]?.mimeType).toBe('image/png');
    const media = last(/\/media$/);
    expect(media.path).toBe('/places/v1/places/ChIJURk/photos/AWU5eFg/media');
    expect(media.query).toEqual({ maxWidthPx: '400', skipHttpRedirect: 'true' });
    expect(media.headers['x-goog-api-key']).toBe(KEY);
    expect(last('/gphotos/place-photos/ph1=s1600-w400').headers['x-goog-api-key']).toBeUndefined();
    expect((await call('place_photo_media', { photo_resource: '../../admin' })).isError).toBe(true);
  });

  it('an answer that is not an image is a typed bad response', async () => {
    web.fake().queueFault('/gmaps/maps/api/staticmap', { body: '<html>oops</html>', headers: { 'content-type': 'text/html' } });
    const answer = await call('static_map', { center: 'Paris' });
    expect(answer.isError).toBe(true);
    expect(answer.meta?.code).toBe('upstream_bad_response');
  });
});

describe('google-maps: the other tools', () => {
  it('reverse_geocode, timezone, elevation_along_path, roads, geolocate_home and ping answer in the same layout', async () => {
    expect((await ok('reverse_geocode', { lat: 48.85, lng: 2.35, language: 'en' })).request).toEqual({ latlng: '48.85,2.35', language: 'en' });
    expect((await ok('timezone', { lat: 48.85, lng: 2.35, timestamp: 1700000000 })).request).toEqual({ location: '48.85,2.35', timestamp: 1700000000 });
    expect((await ok('elevation_along_path', { path: ['36.578581,-118.291994', '36.23998,-116.83171'], samples: 3 })).request).toEqual({
      path: '36.578581,-118.291994|36.23998,-116.83171',
      samples: 3,
    });
    expect(last('/gmaps/maps/api/elevation/json').query.samples).toBe('3');
    expect((await ok('roads_snap_to_roads', { path: ['48.85,2.35', '48.86,2.36'], interpolate: true })).request).toEqual({
      path: '48.85,2.35|48.86,2.36',
      interpolate: 'true',
    });
    expect((await ok('roads_nearest_roads', { points: ['48.85,2.35'] })).endpoint).toBe(`${web.fake().url}/roads/v1/nearestRoads`);
    await ok('roads_speed_limits', { placeIds: ['ChIJa', 'ChIJb'] });
    expect(last('/roads/v1/speedLimits').query).toEqual({ placeId: ['ChIJa', 'ChIJb'], units: 'KPH', key: KEY });
    const located = await ok('geolocate_home', { considerIp: false });
    expect(located.endpoint).toBe(`${web.fake().url}/geo/geolocation/v1/geolocate`);
    expect(last('/geo/geolocation/v1/geolocate').query).toEqual({ key: KEY });
    expect(await ok('ping', {})).toEqual({ ok: true, services: expect.arrayContaining(['geocoding', 'routes_v2', 'static_maps']) });
  });
});

describe('google-maps: failures are typed and never show the key', () => {
  it('legacy statuses: ZERO_RESULTS is an answer, REQUEST_DENIED is auth, OVER_QUERY_LIMIT is a rate limit', async () => {
    web.fake().queueFault('/gmaps/maps/api/geocode/json', { body: fixture('geocode-zero') });
    expect((await ok('geocode', { address: 'nowhere at all' })).response).toEqual({ results: [], status: 'ZERO_RESULTS' });
    web.fake().queueFault('/gmaps/maps/api/geocode/json', { body: fixture('request-denied') });
    const denied = await call('geocode', { address: 'Paris' });
    expect([denied.isError, denied.meta?.code]).toEqual([true, 'upstream_auth']);
    expect(denied.text).toContain('The provided API key is invalid');
    web.fake().queueFault('/gmaps/maps/api/geocode/json', {
      body: { results: [], status: 'OVER_QUERY_LIMIT', error_message: 'You have exceeded your daily request quota for this API.' },
    });
    expect((await call('geocode', { address: 'Paris' })).meta?.code).toBe('upstream_rate_limited');
  });

  it('HTTP faults: 429 with retry-after, 500, malformed JSON, a slow answer', async () => {
    web.fake().queueFault('/gmaps/maps/api/geocode/json', { status: 429, headers: { 'retry-after': '30' }, body: {} });
    const limited = await call('geocode', { address: 'Paris' });
    expect(limited.meta).toMatchObject({ code: 'upstream_rate_limited', status: 429, retryAfterSec: 30, upstream: '127.0.0.1' });
    web
      .fake()
      .queueFault('/routes/directions/v2:computeRoutes', { status: 500, body: { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } } });
    expect((await call('compute_route', { origin: { placeId: 'a' }, destination: { placeId: 'b' } })).meta?.code).toBe('upstream_server_error');
    web.fake().queueFault('/gmaps/maps/api/distancematrix/json', { body: '{"rows": [', headers: { 'content-type': 'application/json' } });
    expect((await call('distance_matrix', { origins: ['a'], destinations: ['b'] })).meta?.code).toBe('upstream_bad_response');
    web.fake().queueFault('/gmaps/maps/api/elevation/json', slowReply(fixture('elevation')));
    const slow = await web.callWithShortTimeout('elevation_by_locations', { locations: ['1,2'] });
    expect(slow.meta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });

  it('v1 errors: an unknown place is an ordinary tool error, an invalid key is auth', async () => {
    web.fake().queueFault(/^\/places\/v1\/places\/[^/]+$/, { status: 404, body: fixture('v1-not-found') });
    const missing = await call('place_details', { place_id: 'ChIJnope' });
    expect([missing.isError, missing.meta]).toEqual([true, undefined]);
    expect(missing.text).toMatch(/^Error executing tool place_details: HTTP 404 at .*\/places\/v1\/places\/ChIJnope: .*Requested entity was not found/);
    web.fake().queueFault('/places/v1/places:searchNearby', { status: 400, body: fixture('v1-key-invalid') });
    const badKey = await call('places_nearby_search', { location: { latitude: 1, longitude: 2 }, radiusMeters: 10 });
    expect(badKey.meta).toMatchObject({ code: 'upstream_auth', status: 400 });
  });

  it('an upstream that echoes the key in its error body or a URL does not get it shown', async () => {
    web.fake().queueFault('/gmaps/maps/api/directions/json', {
      status: 400,
      body: {
        error_message: `Invalid request https://maps.googleapis.com/maps/api/directions/json?origin=a&key=${KEY}&mode=x (key ${KEY})`,
        status: 'INVALID_REQUEST',
      },
    });
    const echoed = await call('directions_legacy', { origin: 'a', destination: 'b' });
    expect(echoed.isError).toBe(true);
    expect(echoed.text).toContain('key=[redacted]');
    expect(echoed.text).not.toContain(KEY);
    web.fake().queueFault('/gmaps/maps/api/geocode/json', { body: { results: [{ formatted_address: `echo ${KEY}` }], status: 'OK' } });
    expect((await call('geocode', { address: 'x' })).text).not.toContain(KEY);
  });

  it('no result and no line of stderr of this server ever contained the key', () => {
    expect(web.texts.length).toBeGreaterThan(200);
    for (const text of web.texts) expect(text).not.toContain(KEY);
    expect(web.server().stderr()).not.toContain(KEY);
  });
});
