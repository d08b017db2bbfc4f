// The google-maps tools on Places API (New) v1 and Routes API v2. Both take the key and the
// response field mask as headers (X-Goog-Api-Key, X-Goog-FieldMask); the answer keeps the
// reference's layout {endpoint, headers: {X-Goog-FieldMask}, request?, response}.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { fastMcpJsonResult } from '../shared/python-format.js';
import { callGoogle } from '../shared/google-call.js';
import { base, defineTool, http, v1Headers } from './google-api.js';

const placeFields = [
  'id',
  'displayName',
  'formattedAddress',
  'location',
  'primaryType',
  'primaryTypeDisplayName',
  'rating',
  'userRatingCount',
  'internationalPhoneNumber',
  'websiteUri',
  'currentOpeningHours',
  'photos.name',
];
const defaultPlaceFields = placeFields.join(',');
const defaultNearbyFields = placeFields.map((field) => `places.${field}`).join(',');
const defaultRouteFields = ['routes.distanceMeters', 'routes.duration', 'routes.polyline.encodedPolyline', 'routes.legs', 'routes.travelAdvisory'].join(',');

const json = z.record(z.string(), z.unknown());

export function registerV1Tools(server: McpServer): void {
  defineTool(
    server,
    {
      name: 'places_nearby_search',
      description:
        'Search nearby places using Places API (New) v1.\nArgs:\n  location (Dict[str, float]): Latitude and longitude dictionary.\n  radiusMeters (int): Search radius in meters.\n  includedTypes (Optional[List[str]]): Optional place type filters.\n  languageCode (Optional[str]): Response language code.\n  regionCode (Optional[str]): Region bias.\n  fields (Optional[str]): Optional field mask override for response.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, field mask, request body, and API response.',
      // `location` and `radiusMeters` stay required as in the reference (FastMCP rejected calls
      // without them, e.g. the GT calls that pass a raw `locationRestriction` instead).
      shape: {
        location: json,
        radiusMeters: z.number().int(),
        includedTypes: z.array(z.string()).nullish(),
        languageCode: z.string().nullish(),
        regionCode: z.string().nullish(),
        fields: z.string().nullish(),
      },
    },
    async ({ location, radiusMeters, includedTypes, languageCode, regionCode, fields }) => {
      const endpoint = `${base.places()}/v1/places:searchNearby`;
      // Places (New) takes the circle as locationRestriction; the reference sent `location` and
      // `radiusMeters` at the top level, which the API rejects as unknown fields (the GT's own
      // answers for those calls report the lookup failing), so the circle is sent where the API reads it.
      const request: Record<string, unknown> = {
        locationRestriction: { circle: { center: location, radius: Math.trunc(radiusMeters) } },
        ...(includedTypes?.length ? { includedTypes } : {}),
        ...(languageCode ? { languageCode } : {}),
        ...(regionCode ? { regionCode } : {}),
      };
      const fieldMask = fields || defaultNearbyFields;
      const response = await callGoogle('places_nearby_search', endpoint, () =>
        http.getJson(endpoint, { method: 'POST', json: request, headers: v1Headers(fieldMask) }),
      );
      return fastMcpJsonResult({ endpoint, headers: { 'X-Goog-FieldMask': fieldMask }, request, response });
    },
  );

  defineTool(
    server,
    {
      name: 'place_details',
      description:
        'Fetch place details by place ID using Places API (New) v1.\nArgs:\n  place_id (str): Google Place ID.\n  fields (Optional[str]): Optional field mask override.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, field mask, and place details response.',
      shape: { place_id: z.string(), fields: z.string().nullish() },
    },
    async ({ place_id, fields }) => {
      const endpoint = `${base.places()}/v1/places/${encodeURIComponent(place_id)}`;
      const fieldMask = fields || defaultPlaceFields;
      const response = await callGoogle('place_details', endpoint, () => http.getJson(endpoint, { headers: v1Headers(fieldMask) }));
      return fastMcpJsonResult({ endpoint, headers: { 'X-Goog-FieldMask': fieldMask }, response });
    },
  );

  defineTool(
    server,
    {
      name: 'compute_route',
      description:
        'Compute a route between origin and destination using Routes API v2.\nArgs:\n  origin (Dict[str, Any]): Origin location using placeId or latLng structure.\n  destination (Dict[str, Any]): Destination location using placeId or latLng.\n  travelMode (str): Travel mode such as DRIVE or WALK.\n  routingPreference (Optional[str]): Optional routing preference.\n  avoidTolls (Optional[bool]): Whether to avoid toll roads.\n  optimizeWaypointOrder (Optional[bool]): Whether to optimize waypoint order.\n  intermediates (Optional[List[Dict[str, Any]]]): Optional waypoints.\n  fields (Optional[str]): Optional field mask override for response.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, field mask, request body, and route response.',
      shape: {
        origin: json,
        destination: json,
        travelMode: z.string().default('DRIVE'),
        routingPreference: z.string().nullish(),
        avoidTolls: z.boolean().nullish(),
        optimizeWaypointOrder: z.boolean().nullish(),
        intermediates: z.array(json).nullish(),
        fields: z.string().nullish(),
      },
    },
    async (args) => {
      const endpoint = `${base.routes()}/directions/v2:computeRoutes`;
      // Waypoints go to the API as given ({placeId}, {location:{latLng}}, ...), as in the reference.
      const request: Record<string, unknown> = { origin: args.origin, destination: args.destination, travelMode: args.travelMode };
      if (args.intermediates?.length) request.intermediates = args.intermediates;
      if (args.routingPreference) request.routingPreference = args.routingPreference;
      if (args.avoidTolls != null) request.routeModifiers = { avoidTolls: args.avoidTolls };
      if (args.optimizeWaypointOrder != null) request.optimizeWaypointOrder = args.optimizeWaypointOrder;
      const fieldMask = args.fields || defaultRouteFields;
      const response = await callGoogle('compute_route', endpoint, () =>
        http.getJson(endpoint, { method: 'POST', json: request, headers: v1Headers(fieldMask) }),
      );
      return fastMcpJsonResult({ endpoint, headers: { 'X-Goog-FieldMask': fieldMask }, request, response });
    },
  );
}
