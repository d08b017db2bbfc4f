// The google-maps tools on the classic web services of maps.googleapis.com (Geocoding, Places
// Text Search, Directions, Distance Matrix, Time Zone, Elevation). Each answers as the reference
// did: {endpoint, request, response} with the upstream JSON unchanged, except that the `key`
// parameter the reference echoed inside `request` is left out (it is a secret).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { fastMcpJsonResult } from '../shared/python-format.js';
import { base, defineTool, getWithKey } from './google-api.js';

type Params = Record<string, string | number>;

async function legacy(tool: string, path: string, params: Params) {
  const endpoint = `${base.maps()}${path}`;
  const response = await getWithKey(tool, endpoint, params);
  return { endpoint, request: params, response };
}

/** `locationBias.circle` → the legacy `location`/`radius` parameters, as the reference translated it. */
function circleBias(locationBias: Record<string, unknown> | null | undefined): Params {
  const circle = locationBias?.circle;
  if (!circle || typeof circle !== 'object') return {};
  const { center, radius } = circle as { center?: { latitude?: unknown; longitude?: unknown }; radius?: unknown };
  const params: Params = {};
  // Only {latitude, longitude} centres translate (a {lat, lng} centre is ignored, as there).
  if (center && center.latitude != null && center.longitude != null) params.location = `${center.latitude},${center.longitude}`;
  if (radius !== undefined && Number.isFinite(Number(radius))) params.radius = Math.trunc(Number(radius));
  return params;
}

export function registerLegacyTools(server: McpServer): void {
  defineTool(
    server,
    {
      name: 'geocode',
      description:
        'Forward geocode a human-readable address using Google Geocoding API.\nArgs:\n  address (str): Free-text address to geocode.\n  region (Optional[str]): Region bias such as "us".\n  language (Optional[str]): Response language code such as "en".\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and API response.',
      shape: { address: z.string(), region: z.string().nullish(), language: z.string().nullish() },
    },
    async ({ address, region, language }) =>
      fastMcpJsonResult(await legacy('geocode', '/maps/api/geocode/json', { address, ...(region ? { region } : {}), ...(language ? { language } : {}) })),
  );

  defineTool(
    server,
    {
      name: 'reverse_geocode',
      description:
        'Reverse geocode coordinates into addresses using Google Geocoding API.\nArgs:\n  lat (float): Latitude of the location.\n  lng (float): Longitude of the location.\n  language (Optional[str]): Response language code such as "en".\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and API response.',
      shape: { lat: z.number(), lng: z.number(), language: z.string().nullish() },
    },
    async ({ lat, lng, language }) =>
      fastMcpJsonResult(await legacy('reverse_geocode', '/maps/api/geocode/json', { latlng: `${lat},${lng}`, ...(language ? { language } : {}) })),
  );

  defineTool(
    server,
    {
      name: 'places_text_search',
      description:
        'Search for places using a free-text query via Google Places Text Search.\nArgs:\n  query (str): Text query describing the place.\n  languageCode (Optional[str]): Response language code.\n  regionCode (Optional[str]): Region bias code.\n  locationBias (Optional[Dict[str, Any]]): Optional circle bias for location preference.\n  maxResultCount (int): Maximum number of results to keep client-side.\n  fields (Optional[str]): Unused field mask parameter for signature parity.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and trimmed Places response.',
      shape: {
        query: z.string(),
        languageCode: z.string().nullish(),
        regionCode: z.string().nullish(),
        locationBias: z.record(z.string(), z.unknown()).nullish(),
        maxResultCount: z.number().int().default(10),
        fields: z.string().nullish(),
      },
    },
    async ({ query, languageCode, regionCode, locationBias, maxResultCount }) => {
      const params: Params = {
        query,
        ...(languageCode ? { language: languageCode } : {}),
        ...(regionCode ? { region: regionCode } : {}),
        ...circleBias(locationBias),
      };
      const answer = await legacy('places_text_search', '/maps/api/place/textsearch/json', params);
      const response = answer.response as { results?: unknown };
      // Trimmed client-side to maxResultCount, as the reference did (the legacy API has no such parameter).
      if (response && Array.isArray(response.results)) response.results = response.results.slice(0, Math.trunc(maxResultCount));
      return fastMcpJsonResult(answer);
    },
  );

  defineTool(
    server,
    {
      name: 'directions_legacy',
      description:
        'Get directions between two locations using the legacy Directions API.\nArgs:\n  origin (str): Origin address or "lat,lng" string.\n  destination (str): Destination address or "lat,lng" string.\n  mode (str): Travel mode string such as "driving".\n  waypoints (Optional[List[str]]): Optional waypoint addresses.\n  departure_time (Optional[str]): Optional departure time parameter.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and directions response.',
      shape: {
        origin: z.string(),
        destination: z.string(),
        mode: z.string().default('driving'),
        waypoints: z.array(z.string()).nullish(),
        departure_time: z.string().nullish(),
      },
    },
    async ({ origin, destination, mode, waypoints, departure_time }) => {
      const params: Params = {
        origin,
        destination,
        mode,
        ...(waypoints?.length ? { waypoints: waypoints.join('|') } : {}),
        ...(departure_time ? { departure_time } : {}),
      };
      return fastMcpJsonResult(await legacy('directions_legacy', '/maps/api/directions/json', params));
    },
  );

  defineTool(
    server,
    {
      name: 'distance_matrix',
      description:
        'Compute travel times and distances using the legacy Distance Matrix API.\nArgs:\n  origins (List[str]): Origin addresses or "lat,lng" strings.\n  destinations (List[str]): Destination addresses or "lat,lng" strings.\n  mode (str): Travel mode such as "driving".\n  departure_time (Optional[str]): Optional departure time parameter.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and matrix response.',
      shape: { origins: z.array(z.string()), destinations: z.array(z.string()), mode: z.string().default('driving'), departure_time: z.string().nullish() },
    },
    async ({ origins, destinations, mode, departure_time }) => {
      const params: Params = { origins: origins.join('|'), destinations: destinations.join('|'), mode, ...(departure_time ? { departure_time } : {}) };
      return fastMcpJsonResult(await legacy('distance_matrix', '/maps/api/distancematrix/json', params));
    },
  );

  defineTool(
    server,
    {
      name: 'timezone',
      description:
        'Retrieve time zone information for a coordinate using the Time Zone API.\nArgs:\n  lat (float): Latitude of the location.\n  lng (float): Longitude of the location.\n  timestamp (Optional[int]): Unix epoch seconds for DST calculation.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and time zone response.',
      shape: { lat: z.number(), lng: z.number(), timestamp: z.number().int().nullish() },
    },
    async ({ lat, lng, timestamp }) =>
      fastMcpJsonResult(
        await legacy('timezone', '/maps/api/timezone/json', { location: `${lat},${lng}`, timestamp: timestamp ?? Math.floor(Date.now() / 1000) }),
      ),
  );

  defineTool(
    server,
    {
      name: 'elevation_by_locations',
      description:
        'Retrieve elevation for one or more discrete locations.\nArgs:\n  locations (List[str]): Coordinate strings such as "lat,lng".\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and elevation results.',
      shape: { locations: z.array(z.string()) },
    },
    async ({ locations }) => fastMcpJsonResult(await legacy('elevation_by_locations', '/maps/api/elevation/json', { locations: locations.join('|') })),
  );

  defineTool(
    server,
    {
      name: 'elevation_along_path',
      description:
        'Retrieve elevation sampled along a path.\nArgs:\n  path (List[str]): Path coordinates as "lat,lng" strings.\n  samples (int): Number of evenly spaced samples to return.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and elevation samples.',
      shape: { path: z.array(z.string()), samples: z.number().int() },
    },
    async ({ path, samples }) => fastMcpJsonResult(await legacy('elevation_along_path', '/maps/api/elevation/json', { path: path.join('|'), samples })),
  );
}
