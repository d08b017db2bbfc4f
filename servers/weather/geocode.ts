// Where a `location` is, as the reference resolves it (the reference project's servers/weather_mcp.py): a US ZIP through
// Zippopotam.us (a 404 there falls through to the name search), else "City[, ST]" through the
// Open-Meteo geocoder (the reference's `country=US` is sent as it sent it; Open-Meteo's own
// parameter is `countryCode`, so results are worldwide), filtered by state and preferring an
// exact city-name match.
import { z } from 'zod';
import { upstreamBaseUrl, type HttpClient } from '../shared/http-client.js';
import { asReferenceClientError } from '../shared/reference-errors.js';
import { UpstreamClientError } from '../shared/upstream-error.js';
import { parseCityState, stateAbbreviation, stateName } from './us-states.js';

export interface ResolvedPlace {
  latitude: number;
  longitude: number;
  /** How the answer names the place: "Place, ST 12345" for a ZIP, "City, ST" or "City" otherwise. */
  name: string;
}

const zipPattern = /^(\d{5})(?:-\d{4})?$/;

const zipSchema = z
  .object({
    'place name': z.string().nullish(),
    places: z
      .array(
        z
          .object({ 'place name': z.string().nullish(), latitude: z.coerce.number(), longitude: z.coerce.number(), 'state abbreviation': z.string().nullish() })
          .loose(),
      )
      .nullish(),
  })
  .loose();

const geocodeResultSchema = z.object({ name: z.string().nullish(), latitude: z.number(), longitude: z.number(), admin1: z.string().nullish() }).loose();
const geocodeSchema = z.object({ results: z.array(geocodeResultSchema).nullish() }).loose();
type GeocodeResult = z.infer<typeof geocodeResultSchema>;

async function geocodeZip(http: HttpClient, text: string): Promise<ResolvedPlace | undefined> {
  const zip = zipPattern.exec(text.trim())?.[1];
  if (!zip) return undefined;
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_ZIPPOPOTAM_URL', 'https://api.zippopotam.us')}/us/${zip}`);
  const notFound = (error: unknown) => {
    if (error instanceof UpstreamClientError && error.status === 404) return undefined;
    throw error;
  };
  const response = await asReferenceClientError('get_weather', url.href, () =>
    http.getJson(url.href, { schema: zipSchema, what: 'ZIP lookup' }).catch(notFound),
  );
  if (!response) return undefined;
  const parsed = response.body;
  const first = parsed.places?.[0];
  if (!first) return undefined;
  const place = first['place name'] || parsed['place name'] || zip;
  return { latitude: first.latitude, longitude: first.longitude, name: `${place}, ${first['state abbreviation'] ?? ''} ${zip}`.trim() };
}

const suffixWords = /\b(township|city|village|borough)\b/g;
const normalizeName = (name: string | null | undefined) => (name ?? '').toLowerCase().replace(suffixWords, '').trim();

function pickResult(results: GeocodeResult[], city: string, state: string | undefined): GeocodeResult | undefined {
  let candidates = results;
  if (state) {
    const full = (stateName(state) ?? '').toLowerCase();
    const inState = results.filter((result) => (result.admin1 ?? '').toLowerCase() === full);
    if (inState.length > 0) candidates = inState;
  }
  if (city) {
    const wanted = normalizeName(city);
    const exact = candidates.find((result) => normalizeName(result.name) === wanted);
    if (exact) return exact;
  }
  return candidates[0];
}

/** Latitude, longitude and display name of a ZIP code or "City[, ST]"; throws when nothing matches. */
export async function resolvePlace(http: HttpClient, location: string): Promise<ResolvedPlace> {
  const zipHit = await geocodeZip(http, location);
  if (zipHit) return zipHit;
  const [city, state] = parseCityState(location);
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_OPEN_METEO_GEOCODING_URL', 'https://geocoding-api.open-meteo.com')}/v1/search`);
  for (const [key, value] of Object.entries({ name: city, count: '10', language: 'en', format: 'json', country: 'US' })) url.searchParams.set(key, value);
  const response = await asReferenceClientError('get_weather', url.href, () => http.getJson(url.href, { schema: geocodeSchema, what: 'geocoding' }));
  const results = response.body.results ?? [];
  const pick = pickResult(results, city, state);
  if (!pick) throw new Error(`Error executing tool get_weather: Geocoding failed for '${location}'`);
  const abbreviation = stateAbbreviation(pick.admin1 ?? '');
  const name = pick.name || city;
  return { latitude: pick.latitude, longitude: pick.longitude, name: abbreviation ? `${name}, ${abbreviation}` : name };
}
