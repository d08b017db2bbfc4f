// The google-maps tools on the Roads API and the Geolocation API, plus the `ping` health check.
// Same answer layout as the other tools ({endpoint, request, response}; the key never echoed).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { fastMcpJsonResult } from '../shared/python-format.js';
import { callGoogle } from '../shared/google-call.js';
import { apiKey, base, defineTool, getWithKey, http } from './google-api.js';

const services = [
  'geocoding',
  'places_v1',
  'routes_v2',
  'distance_matrix',
  'directions_legacy',
  'timezone',
  'elevation',
  'roads',
  'geolocation',
  'static_maps',
  'street_view',
];

async function roads(tool: string, path: string, request: Record<string, string | string[]>) {
  const endpoint = `${base.roads()}${path}`;
  return fastMcpJsonResult({ endpoint, request, response: await getWithKey(tool, endpoint, request) });
}

export function registerRoadsTools(server: McpServer): void {
  defineTool(
    server,
    {
      name: 'roads_snap_to_roads',
      description:
        'Snap GPS points to the road network using the Roads API.\nArgs:\n  path (List[str]): Coordinate strings such as "lat,lng".\n  interpolate (bool): Whether to add interpolated points along the road.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and snapped points.',
      shape: { path: z.array(z.string()), interpolate: z.boolean().default(false) },
    },
    ({ path, interpolate }) => roads('roads_snap_to_roads', '/v1/snapToRoads', { path: path.join('|'), ...(interpolate ? { interpolate: 'true' } : {}) }),
  );

  defineTool(
    server,
    {
      name: 'roads_nearest_roads',
      description:
        'Find nearest road segments for input points using the Roads API.\nArgs:\n  points (List[str]): Coordinate strings such as "lat,lng".\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and snapped road segments.',
      shape: { points: z.array(z.string()) },
    },
    ({ points }) => roads('roads_nearest_roads', '/v1/nearestRoads', { points: points.join('|') }),
  );

  defineTool(
    server,
    {
      name: 'roads_speed_limits',
      description:
        'Retrieve posted speed limits along road segments by place IDs or path.\nArgs:\n  placeIds (Optional[List[str]]): One or more road segment place IDs.\n  path (Optional[List[str]]): Coordinate path strings as an alternative to placeIds.\n  units (str): Speed units "KPH" or "MPH".\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request parameters, and speed limit results.',
      shape: { placeIds: z.array(z.string()).nullish(), path: z.array(z.string()).nullish(), units: z.string().default('KPH') },
    },
    ({ placeIds, path, units }) =>
      roads('roads_speed_limits', '/v1/speedLimits', {
        ...(placeIds?.length ? { placeId: placeIds } : {}),
        ...(path?.length ? { path: path.join('|') } : {}),
        units,
      }),
  );

  defineTool(
    server,
    {
      name: 'geolocate_home',
      description:
        'Estimate device location from cell tower, Wi-Fi, and IP signals using Geolocation API.\nArgs:\n  cellTowers (Optional[List[Dict[str, Any]]]): Optional list of cell tower observations.\n  wifiAccessPoints (Optional[List[Dict[str, Any]]]): Optional list of Wi-Fi access point observations.\n  considerIp (bool): Whether to allow IP-based fallback geolocation.\nReturns:\n  data (Dict[str, Any]): JSON with endpoint, request body, and geolocation result.',
      shape: {
        cellTowers: z.array(z.record(z.string(), z.unknown())).nullish(),
        wifiAccessPoints: z.array(z.record(z.string(), z.unknown())).nullish(),
        considerIp: z.boolean().default(true),
      },
    },
    async ({ cellTowers, wifiAccessPoints, considerIp }) => {
      // The reference's endpoint carried ?key=...; the answer names it without the key.
      const endpoint = `${base.geolocation()}/geolocation/v1/geolocate`;
      const request: Record<string, unknown> = {
        considerIp,
        ...(cellTowers?.length ? { cellTowers } : {}),
        ...(wifiAccessPoints?.length ? { wifiAccessPoints } : {}),
      };
      const response = await callGoogle('geolocate_home', endpoint, () => http.getJson(endpoint, { method: 'POST', json: request, query: { key: apiKey() } }));
      return fastMcpJsonResult({ endpoint, request, response });
    },
  );

  // `ping` needs no key: it only says the server is up (registered through the same helper
  // for one uniform result path).
  defineTool(
    server,
    {
      name: 'ping',
      description:
        'Perform a basic health check of the Google Maps MCP server.\nReturns:\n  data (Dict[str, Any]): JSON with ok flag and list of enabled service names.',
      shape: {},
    },
    async () => fastMcpJsonResult({ ok: true, services }),
  );
}
