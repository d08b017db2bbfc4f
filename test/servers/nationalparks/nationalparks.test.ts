// The nationalparks server as a real child process against a loopback fake of the NPS API:
// GT calls send parkCode/limit with the key in X-Api-Key, answers keep the reference's layouts
// (formatted records, grouping by park, "$" fees, amenity labels, hours lines), its own
// {error, ...} answers stay, and upstream failures are typed without showing the key.
import { describe, expect, it } from 'vitest';
import { groundTruthCalls, loadFixture, missingSharedData, useWebServer } from '../../support/keyed-web-server.js';

const KEY = 'nps-test-key-8d2f44';
const fixture = (name: string) => loadFixture('nationalparks', name);
// Answers are read field by field; each assertion states the shape it expects.
// biome-ignore lint/suspicious/noExplicitAny: test-side view of the JSON text a tool returned
type Parsed = Record<string, any>;

const web = useWebServer('nationalparks', {
  routes: () => [
    { path: '/api/v1/alerts', reply: { body: fixture('alerts') } },
    { path: '/api/v1/campgrounds', reply: { body: fixture('campgrounds') } },
    { path: '/api/v1/visitorcenters', reply: { body: fixture('visitorcenters') } },
    { path: '/api/v1/parks', reply: { body: fixture('parks') } },
    {
      path: '/api/v1/events',
      reply: {
        body: {
          total: '1',
          limit: '10',
          start: '0',
          data: [
            {
              title: 'Ranger Walk',
              parkCode: 'yose',
              parkFullName: 'Yosemite National Park',
              times: [{ timeStart: '10:00 AM', timeEnd: '11:00 AM', sunriseTimeStart: false, sunsetTimeEnd: true }],
              dates: ['2025-06-01', '2025-06-02'],
              infoURL: '',
              url: 'https://www.nps.gov/e1',
            },
          ],
        },
      },
    },
  ],
  env: (url) => ({ NPS_API_KEY: KEY, M3_UPSTREAM_NPS_URL: url, M3_HTTP_TIMEOUT_MS: '5000' }),
});

async function ok(name: string, args: Record<string, unknown>): Promise<Parsed> {
  const answer = await web.call(name, args);
  expect(answer.isError, answer.text).toBe(false);
  return JSON.parse(answer.text) as Parsed;
}

describe('nationalparks: GT calls', () => {
  for (const [tool, path, count] of [
    ['getAlerts', '/api/v1/alerts', 10],
    ['getCampgrounds', '/api/v1/campgrounds', 9],
    ['getVisitorCenters', '/api/v1/visitorcenters', 8],
  ] as const) {
    it(`${tool}: every GT call sends parkCode and limit with the key in X-Api-Key`, async (context) => {
      const calls = groundTruthCalls(`nationalparks/${tool}`);
      if (!calls) return context.skip(missingSharedData);
      expect(calls.length).toBe(count);
      for (const { arguments: args } of calls) {
        await ok(tool, args);
        const sent = web.fake().requestsTo(path).at(-1);
        expect(sent?.headers['x-api-key']).toBe(KEY);
        expect(sent?.query).toEqual({ limit: String(args.limit ?? 10), parkCode: args.parkCode });
      }
    });
  }

  it('getAlerts: formatted alerts grouped by park, categories spelled out, dates in en-US', async () => {
    const result = await ok('getAlerts', { parkCode: 'yose', limit: 50 });
    expect(result.total).toBe(2);
    expect(result.limit).toBe(50);
    expect(result.alerts[0]).toEqual({
      title: 'Tioga Road Closed for the Season',
      description: 'Tioga Road (Highway 120 through the park) is closed.',
      parkCode: 'yose',
      type: 'Park Closure (area inaccessible)',
      url: 'https://www.nps.gov/yose/planyourvisit/conditions.htm',
      lastUpdated: '1/15/2025',
    });
    expect(result.alerts[1]).toMatchObject({ type: 'Caution (potential hazard)', lastUpdated: 'Unknown' });
    expect(Object.keys(result.alertsByPark)).toEqual(['yose']);
  });

  it('getCampgrounds and getVisitorCenters: amenities, "$" fees, hours lines and the address fallback', async () => {
    const camp = (await ok('getCampgrounds', { parkCode: 'yose' })).campgrounds[0];
    expect(camp.amenities).toEqual([
      'Trash/Recycling Collection',
      'Toilets (Flush Toilets - year round)',
      'Internet Connectivity',
      'Showers (None)',
      'Cell Phone Reception',
      'Laundry',
      'Amphitheater',
      'Dump Station',
      'Camp Store',
      'Staff/Volunteer Host Onsite',
      'Potable Water (Yes - year round)',
      'Ice Available For Sale',
      'Firewood For Sale',
      'Food Storage Lockers',
    ]);
    expect(camp.fees).toEqual([{ title: 'Walk-in', cost: '$10.00', description: 'Per person per night.' }]);
    expect(camp.operatingHours[0].standardHours).toContain('Tuesday: Closed');
    expect([camp.totalSites, camp.sitesFirstComeFirstServe, camp.campsiteTypes.other]).toEqual(['61', '0', '0']);
    const center = (await ok('getVisitorCenters', { parkCode: 'yose' })).visitorCenters[0];
    expect(center.operatingHours[0].standardHours).toEqual(['Monday: 9:00AM - 5:00PM', 'Tuesday: 9:00AM - 5:00PM']);
    expect(center.location.address).toMatchObject({ line1: '9035 Village Drive', city: 'Yosemite National Park' });
  });
});

describe('nationalparks: the other tools', () => {
  it('findParks validates state codes as the reference did and formats parks', async () => {
    const invalid = await web.call('findParks', { stateCode: 'CA,XX' });
    expect(JSON.parse(invalid.text)).toMatchObject({ error: 'Invalid state code(s): XX' });
    const parks = await ok('findParks', { stateCode: 'ca', q: 'valley' });
    expect(web.fake().requestsTo('/api/v1/parks').at(-1)?.query).toEqual({ limit: '10', stateCode: 'ca', q: 'valley' });
    expect(parks.parks[0]).toMatchObject({ name: 'Yosemite National Park', code: 'yose', states: ['CA'], activities: ['Hiking', 'Camping'] });
    expect(parks.parks[0].contacts.phoneNumbers[0]).toEqual({ type: 'Voice', number: '2093720200', description: '' });
  });

  it('getParkDetails asks for one park and answers "Park not found" for none; getEvents formats times', async () => {
    const park = await ok('getParkDetails', { parkCode: 'yose' });
    expect(web.fake().requestsTo('/api/v1/parks').at(-1)?.query).toEqual({ parkCode: 'yose', limit: '1' });
    expect(park.entranceFees).toEqual([{ title: 'Private Vehicle', cost: '$35.00', description: 'Private vehicle.' }]);
    expect(park.topics).toEqual(['Granite']);
    web.fake().queueFault('/api/v1/parks', { body: { total: '0', limit: '1', start: '0', data: [] } });
    expect(await ok('getParkDetails', { parkCode: 'zzzz' })).toEqual({ error: 'Park not found', message: 'No park found with park code: zzzz' });
    const events = await ok('getEvents', { parkCode: 'yose', dateStart: '2025-06-01' });
    expect(events.events[0].dateTime).toMatchObject({ dates: '2025-06-01, 2025-06-02', times: '10:00 AM to Sunset' });
    expect(events.events[0].infoUrl).toBe('https://www.nps.gov/e1');
  });
});

describe('nationalparks: failures', () => {
  it('a refused key is auth, 429 a rate limit, 500 a server failure, bad JSON a bad response; the key is never shown', async () => {
    web
      .fake()
      .queueFault('/api/v1/alerts', { status: 403, body: { error: { code: 'API_KEY_INVALID', message: `An invalid api_key was supplied (${KEY}).` } } });
    const denied = await web.call('getAlerts', { parkCode: 'yose' });
    expect(denied.meta).toMatchObject({ code: 'upstream_auth', status: 403 });
    web.fake().queueFault('/api/v1/alerts', { status: 429, headers: { 'retry-after': '60' }, body: { error: { code: 'OVER_RATE_LIMIT' } } });
    expect((await web.call('getAlerts', {})).meta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 60 });
    web.fake().queueFault('/api/v1/alerts', { status: 500, body: {} });
    expect((await web.call('getAlerts', {})).meta?.code).toBe('upstream_server_error');
    web.fake().queueFault('/api/v1/alerts', { body: '{"data": [', headers: { 'content-type': 'application/json' } });
    expect((await web.call('getAlerts', {})).meta?.code).toBe('upstream_bad_response');
    web.fake().queueFault('/api/v1/alerts', { status: 400, body: `bad request for api_key=${KEY}` });
    const bad = await web.call('getAlerts', { parkCode: 'yose' });
    expect([bad.isError, bad.meta]).toEqual([true, undefined]);
    for (const text of web.texts) expect(text).not.toContain(KEY);
    expect(web.server().stderr()).not.toContain(KEY);
  });
});
