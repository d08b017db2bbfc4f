// The `weather` server as a real child process over MCP stdio against a loopback fake of
// Zippopotam.us, the Open-Meteo geocoder and the Open-Meteo forecast: the reference's location
// parsing and result picking, its request parameters, its one-sentence answer with Python's
// number printing, and typed failures.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFake, type HttpFake } from '../../../servers/shared/http-fake.js';
import { smoke } from '../../../servers/weather/smoke.js';
import { parseCityState } from '../../../servers/weather/us-states.js';
import { pythonNumberText } from '../../../servers/shared/python-format.js';
import { argumentCheckProblems, catalogTools, distinctArguments, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { describeFixturesAndSmoke, loadFixtureBody, startWebServer, type WebServer } from '../../support/web-server.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const berlin = loadFixtureBody(fixtures, 'geocode-berlin');
const columbia = loadFixtureBody<string>(fixtures, 'forecast-columbia-2023');
const calls = gtCalls('weather');

let fake: HttpFake;
let server: WebServer;

beforeAll(async () => {
  fake = await startHttpFake([
    { path: '/zip/us/90210', reply: { body: loadFixtureBody(fixtures, 'zip-90210') } },
    { path: /^\/zip\/us\/\d{5}$/, reply: { status: 404, body: {} } },
    { path: '/geo/v1/search', reply: { body: berlin } },
    { path: '/meteo/v1/forecast', reply: { body: columbia, headers: { 'content-type': 'application/json; charset=utf-8' } } },
  ]);
  server = await startWebServer('servers/weather/index.ts', {
    M3_UPSTREAM_ZIPPOPOTAM_URL: `${fake.url}/zip`,
    M3_UPSTREAM_OPEN_METEO_GEOCODING_URL: `${fake.url}/geo`,
    M3_UPSTREAM_OPEN_METEO_URL: `${fake.url}/meteo`,
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const lastTo = (route: string) => fake.requestsTo(route).at(-1);

describe('weather tool surface', () => {
  it('lists get_weather with the reference schema and accepts every GT call', (context) => {
    expect(server.tools.map((tool) => tool.name)).toEqual(['get_weather']);
    const catalog = catalogTools('weather');
    if (!catalog || !calls) return context.skip('shared M3-Bench data not found under ../shared/data/m3bench');
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls).toHaveLength(17);
    expect(argumentCheckProblems('weather', server.tools, calls)).toEqual([]);
  });
});

describe('weather location parsing (the reference rules)', () => {
  it('splits "City, ST", "City ST", "City, State" and keeps the reference quirk for two-word cities', () => {
    expect(parseCityState('Washington, DC')).toEqual(['Washington', 'DC']);
    expect(parseCityState('Barnegat Light, NJ')).toEqual(['Barnegat Light', 'NJ']);
    expect(parseCityState('Cambridge, Massachusetts')).toEqual(['Cambridge', 'MA']);
    expect(parseCityState('East Berlin PA')).toEqual(['East Berlin', 'PA']);
    expect(parseCityState('London, UK')).toEqual(['London', undefined]);
    expect(parseCityState('Tokyo, Japan')).toEqual(['Tokyo', undefined]);
    expect(parseCityState('San Francisco')).toEqual(['San', undefined]);
    expect(parseCityState('Paris')).toEqual(['Paris', undefined]);
  });

  it('prints numbers as Python prints json.loads values (null and missing fields print None, see the forecast tests)', () => {
    expect(pythonNumberText('16.0')).toBe('16.0');
    expect(pythonNumberText('16')).toBe('16');
    expect(pythonNumberText('3.0')).toBe('3.0');
    expect(pythonNumberText('1.5e2')).toBe('150.0');
  });
});

describe('weather/get_weather', () => {
  it('answers every GT call and sends the reference geocoding and forecast parameters', async (context) => {
    if (!calls) return context.skip('test_mcp_GT.json not found');
    for (const args of distinctArguments(calls, 'get_weather')) {
      const result = await server.call('get_weather', args);
      expect(result.isError, result.text).toBe(false);
      const [city] = parseCityState(String(args.location));
      expect(lastTo('/geo/v1/search')?.query).toEqual({ name: city, count: '10', language: 'en', format: 'json', country: 'US' });
      const us = args.units === 'us';
      const forecast = lastTo('/meteo/v1/forecast');
      expect(forecast?.query).toMatchObject({
        current_weather: 'True',
        temperature_unit: us ? 'fahrenheit' : 'celsius',
        windspeed_unit: us ? 'mph' : 'kmh',
        precipitation_unit: us ? 'inch' : 'mm',
      });
      expect(result.text).toMatch(us ? /: 30\.3°F, wind 7\.2 mph, code 1\.$/ : /: 30\.3°C, wind 7\.2 km\/h, code 1\.$/);
    }
  });

  it('filters the geocoder results by state and prefers an exact city name', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['Berlin, NJ', 'Current weather in Berlin, NJ: 30.3°F, wind 7.2 mph, code 1.', '39.79123', '-74.92905'],
      ['Berlin, Ohio', 'Current weather in Berlin, OH: 30.3°F, wind 7.2 mph, code 1.', '40.56117', '-81.7943'],
      ['East Berlin PA', 'Current weather in East Berlin, PA: 30.3°F, wind 7.2 mph, code 1.', '39.9376', '-76.97859'],
      ['Berlin', 'Current weather in Berlin: 30.3°F, wind 7.2 mph, code 1.', '52.52437', '13.41053'],
    ];
    for (const [location, text, latitude, longitude] of cases) {
      const result = await server.call('get_weather', { location });
      expect(result.text).toBe(text);
      expect(lastTo('/meteo/v1/forecast')?.query).toMatchObject({ latitude, longitude });
    }
  });

  it('resolves a US ZIP through Zippopotam.us and names it "Place, ST zip"', async () => {
    const result = await server.call('get_weather', { location: '90210-1234', units: 'metric' });
    expect(result.text).toBe('Current weather in Beverly Hills, CA 90210: 30.3°C, wind 7.2 km/h, code 1.');
    expect(lastTo('/meteo/v1/forecast')?.query).toMatchObject({ latitude: '34.0901', longitude: '-118.4065' });
  });

  it('falls through to the name search when Zippopotam.us does not know the ZIP', async () => {
    const before = fake.requestsTo('/geo/v1/search').length;
    await server.call('get_weather', { location: '00000' });
    expect(fake.requestsTo('/zip/us/00000')).toHaveLength(1);
    expect(fake.requestsTo('/geo/v1/search').slice(before)[0]?.query.name).toBe('00000');
  });

  it('prints a float weather code as Python does ("code 3.0") and null or missing fields as None', async () => {
    fake.queueFault('/meteo/v1/forecast', { body: loadFixtureBody<string>(fixtures, 'forecast-float-code-2022') });
    const result = await server.call('get_weather', { location: 'Berlin, NJ', units: 'metric' });
    expect(result.text).toBe('Current weather in Berlin, NJ: 22.5°C, wind 22.8 km/h, code 3.0.');
    fake.queueFault('/meteo/v1/forecast', { body: '{"current_weather":{"temperature":null,"windspeed":16.0,"time":"2022-07-31T17:00"}}' });
    const partial = await server.call('get_weather', { location: 'Berlin, NJ', units: 'metric' });
    expect(partial.text).toBe('Current weather in Berlin, NJ: None°C, wind 16.0 km/h, code None.');
  });

  it('fails as the reference did when the geocoder finds nothing (an ordinary tool error)', async () => {
    fake.queueFault('/geo/v1/search', { body: loadFixtureBody(fixtures, 'geocode-no-match') });
    const result = await server.call('get_weather', { location: 'Tokyo, Japan', units: 'metric' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe("Error executing tool get_weather: Geocoding failed for 'Tokyo, Japan'");
    expect(result.errorMeta).toBeUndefined();
  });

  it('words an Open-Meteo 400 as requests did', async () => {
    fake.queueFault('/meteo/v1/forecast', { status: 400, body: { error: true, reason: 'Latitude must be in range of -90 to 90°. Given: 91.0.' } });
    const result = await server.call('get_weather', { location: 'Berlin, NJ' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^Error executing tool get_weather: 400 Client Error: Bad Request for url: http:\/\/127\.0\.0\.1:\d+\/meteo\/v1\/forecast\?latitude=39\.79123&/,
    );
    expect(result.errorMeta).toBeUndefined();
  });
});

describe('weather upstream failures are typed', () => {
  it('429 with retry-after, 500, malformed JSON, a missing current_weather and a slow answer', async () => {
    fake.queueFault('/geo/v1/search', { status: 429, headers: { 'retry-after': '12' } });
    expect((await server.call('get_weather', { location: 'Berlin, NJ' })).errorMeta).toEqual({
      code: 'upstream_rate_limited',
      status: 429,
      retryAfterSec: 12,
      upstream: '127.0.0.1',
    });
    fake.queueFault('/meteo/v1/forecast', { status: 503 });
    expect((await server.call('get_weather', { location: 'Berlin, NJ' })).errorMeta).toMatchObject({ code: 'upstream_server_error', status: 503 });
    fake.queueFault('/meteo/v1/forecast', { body: '{"current_weather": {"temperature": 3' });
    expect((await server.call('get_weather', { location: 'Berlin, NJ' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/meteo/v1/forecast', { body: { latitude: 39.79, longitude: -74.93 } });
    expect((await server.call('get_weather', { location: 'Berlin, NJ' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/zip/us/90210', { body: { places: [{ 'place name': 'Beverly Hills' }] } });
    expect((await server.call('get_weather', { location: '90210' })).errorMeta?.code).toBe('upstream_bad_response');
    fake.queueFault('/geo/v1/search', slowReply(berlin));
    const slow = await server.callWithShortTimeout('get_weather', { location: 'Berlin, NJ' });
    expect(slow.errorMeta?.code).toBe('upstream_timeout');
    expect(slow.text).toContain(shortTimeoutMessage);
  });
});

describeFixturesAndSmoke('weather', 'servers/weather/index.ts', smoke, () => server);
