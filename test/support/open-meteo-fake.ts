// A loopback fake of Open-Meteo (geocoder and forecast, synthetic bodies in its shapes) for
// end-to-end runs of our `weather` server, and the environment that points the server at it.
import { afterAll, beforeAll } from 'vitest';
import { startHttpFake, type HttpFake } from '../../servers/shared/http-fake.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from './mock-llm/index.js';

function startOpenMeteoFake(): Promise<HttpFake> {
  return startHttpFake([
    {
      path: '/geo/v1/search',
      reply: { body: { results: [{ name: 'San Francisco', latitude: 37.77493, longitude: -122.41942, admin1: 'California', country_code: 'US' }] } },
    },
    { path: '/meteo/v1/forecast', reply: { body: '{"current_weather":{"temperature":58.3,"windspeed":9.4,"weathercode":3}}' } },
  ]);
}

/** The weather server's upstream switches, aimed at the fake; the provider retries off. */
export function openMeteoEnv(fake: HttpFake): Record<string, string> {
  return {
    M3_UPSTREAM_OPEN_METEO_URL: `${fake.url}/meteo`,
    M3_UPSTREAM_OPEN_METEO_GEOCODING_URL: `${fake.url}/geo`,
    M3_UPSTREAM_ZIPPOPOTAM_URL: `${fake.url}/zip`,
    M3_LLM_MAX_RETRIES: '0',
  };
}

/** The fake and a mock LLM answering with `respond`, started before the file's tests and closed after. */
export function useOpenMeteoAndMockLlm(respond: (request: RecordedRequest) => MockTurn): { fake: () => HttpFake; mock: () => MockLlm } {
  let fake: HttpFake | undefined;
  let mock: MockLlm | undefined;
  beforeAll(async () => {
    fake = await startOpenMeteoFake();
    mock = await startMockLlm({ respond });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await fake?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the Open-Meteo fake and the mock LLM start before the tests');
    return value;
  };
  return { fake: () => started(fake), mock: () => started(mock) };
}
