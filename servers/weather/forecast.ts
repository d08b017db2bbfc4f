// Current conditions from the Open-Meteo forecast API, with the request parameters the reference
// sends and the numbers printed the way Python prints what `json.loads` made of them: a JSON
// number written with a fraction or exponent is a float ("16.0", "3.0"), one without is an int
// ("16"), null or a missing field is "None". JSON.parse loses that difference, so the literals are
// read from the body text.
import { upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { asReferenceClientError } from '../shared/reference-errors.js';
import { UpstreamError } from '../shared/upstream-error.js';

export type Units = 'us' | 'metric';

export interface CurrentWeather {
  temperature: string;
  windspeed: string;
  weathercode: string;
}

/** `str(float(x))` for the coordinates the reference sends. */
export function pythonFloatText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** How Python prints a JSON number literal after json.loads. */
export function pythonNumberText(literal: string | undefined): string {
  if (literal === undefined || literal === 'null') return 'None';
  return /[.eE]/.test(literal) ? pythonFloatText(Number(literal)) : String(BigInt(literal));
}

function fieldLiteral(objectText: string, field: string): string | undefined {
  return new RegExp(`"${field}"\\s*:\\s*(null|-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`).exec(objectText)?.[1];
}

export async function fetchCurrentWeather(http: HttpClient, latitude: number, longitude: number, units: Units): Promise<CurrentWeather> {
  const us = units === 'us';
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_OPEN_METEO_URL', 'https://api.open-meteo.com')}/v1/forecast`);
  const params = {
    latitude: pythonFloatText(latitude),
    longitude: pythonFloatText(longitude),
    current_weather: 'True',
    temperature_unit: us ? 'fahrenheit' : 'celsius',
    windspeed_unit: us ? 'mph' : 'kmh',
    precipitation_unit: us ? 'inch' : 'mm',
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const response = await asReferenceClientError('get_weather', url.href, () => http.getText(url.href, { headers: { accept: 'application/json' } }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    throw new UpstreamError('upstream_bad_response', `${url.hostname} answered with a body that is not JSON: ${response.body.slice(0, 120)}`, { upstream: url.hostname });
  }
  const current = (parsed as { current_weather?: unknown } | null)?.current_weather;
  // The reference printed "None" for everything when current_weather was absent; an answer
  // without it is a broken upstream response, so it fails as one instead.
  if (!current || typeof current !== 'object') {
    throw new UpstreamError('upstream_bad_response', `${url.hostname}: the forecast response has no current_weather object`, { upstream: url.hostname });
  }
  const objectText = /"current_weather"\s*:\s*\{([^{}]*)\}/.exec(response.body)?.[1] ?? '';
  return {
    temperature: pythonNumberText(fieldLiteral(objectText, 'temperature')),
    windspeed: pythonNumberText(fieldLiteral(objectText, 'windspeed')),
    weathercode: pythonNumberText(fieldLiteral(objectText, 'weathercode')),
  };
}
