// Current conditions from the Open-Meteo forecast API, with the request parameters the reference
// sends and the numbers printed the way Python printed what `json.loads` made of them: a JSON
// number written with a fraction or exponent is a float ("16.0", "3.0"), one without is an int
// ("16"), null or a missing field is "None" (servers/shared/python-format.ts).
import { parseJsonText } from '../shared/http-body.js';
import { upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { isJsonNumber, pythonFloatRepr, pythonNumberText } from '../shared/python-format.js';
import { asReferenceClientError } from '../shared/reference-errors.js';
import { UpstreamError } from '../shared/upstream-error.js';

export type Units = 'us' | 'metric';

export interface CurrentWeather {
  temperature: string;
  windspeed: string;
  weathercode: string;
}

function printed(value: unknown): string {
  if (value === undefined || value === null) return 'None';
  if (isJsonNumber(value)) return pythonNumberText(value.value);
  return String(value);
}

export async function fetchCurrentWeather(http: HttpClient, latitude: number, longitude: number, units: Units): Promise<CurrentWeather> {
  const us = units === 'us';
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_OPEN_METEO_URL', 'https://api.open-meteo.com')}/v1/forecast`);
  const params = {
    latitude: pythonFloatRepr(latitude),
    longitude: pythonFloatRepr(longitude),
    current_weather: 'True',
    temperature_unit: us ? 'fahrenheit' : 'celsius',
    windspeed_unit: us ? 'mph' : 'kmh',
    precipitation_unit: us ? 'inch' : 'mm',
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const response = await asReferenceClientError('get_weather', url.href, () => http.getText(url.href, { headers: { accept: 'application/json' } }));
  const parsed = parseJsonText({ text: response.body, upstream: url.hostname, status: response.status }, { lossless: true });
  const current = (parsed as { current_weather?: unknown } | null)?.current_weather;
  // The reference printed "None" for everything when current_weather was absent; an answer
  // without it is a broken upstream response, so it fails as one instead.
  if (!current || typeof current !== 'object' || Array.isArray(current)) {
    throw new UpstreamError('upstream_bad_response', `${url.hostname}: the forecast response has no current_weather object`, { upstream: url.hostname });
  }
  const fields = current as Record<string, unknown>;
  return { temperature: printed(fields.temperature), windspeed: printed(fields.windspeed), weathercode: printed(fields.weathercode) };
}
