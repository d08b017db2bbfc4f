// The reference google-air server's four tools (the reference project's servers/google_air_mcp.py) over the Air Quality
// API v1. Lookups POST JSON with the key as the `key` query parameter and answer with the
// upstream JSON as the reference did (FastMCP's indent-2 layout). Two requests are sent where
// the API reads them, unlike the reference: forecast's `hours` becomes a `period` from now, and
// history's startTime/endTime go inside `period` (top-level fields the API does not accept).
// Paged answers (forecast, history: nextPageToken) are followed and merged into one. The heat-map
// tile is a PNG: saved into the task workspace and returned as image content.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { callGoogle } from '../shared/google-call.js';
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { registerKeyedTool, type ToolExtra } from '../shared/keyed-tool.js';
import { fastMcpJsonResult } from '../shared/python-format.js';
import { requireCredential } from '../shared/upstream-error.js';
import { saveWorkspaceImage } from '../shared/workspace-image.js';

const SERVER = 'google-air';
/** The reference read GOOGLE_MAPS_API_KEY; a plain GOOGLE_API_KEY is taken when that is unset. */
const KEY_NAMES = ['GOOGLE_MAPS_API_KEY', 'GOOGLE_API_KEY'] as const;
const http = createHttpClient({ server: SERVER });
const maxPages = 10;

const base = () => `${upstreamBaseUrl('M3_UPSTREAM_GOOGLE_AIR_QUALITY_URL', 'https://airquality.googleapis.com')}/v1`;
const key = () => requireCredential(KEY_NAMES, SERVER);

type Json = Record<string, unknown>;

async function lookup(tool: string, path: string, body: Json, listField?: string): Promise<Json> {
  const endpoint = `${base()}${path}`;
  const send = (request: Json) => callGoogle(tool, endpoint, () => http.getJson<Json>(endpoint, { method: 'POST', json: request, query: { key: key() } }));
  const first = (await send(body)) ?? {};
  if (!listField) return first;
  const merged: Json = { ...first, [listField]: [...((first[listField] as unknown[] | undefined) ?? [])] };
  let token = first.nextPageToken;
  for (let page = 1; typeof token === 'string' && token !== '' && page < maxPages; page += 1) {
    const next = (await send({ ...body, pageToken: token })) ?? {};
    (merged[listField] as unknown[]).push(...((next[listField] as unknown[] | undefined) ?? []));
    token = next.nextPageToken;
  }
  delete merged.nextPageToken;
  return merged;
}

const location = (lat: number, lng: number) => ({ latitude: lat, longitude: lng });

export function registerGoogleAirTools(server: McpServer): void {
  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'current_conditions',
      description:
        'Retrieve current air-quality conditions at a specific latitude and longitude.\nArgs:\n  lat (float): Latitude of the location.\n  lng (float): Longitude of the location.\nReturns:\n  data (Dict[str, Any]): JSON payload from Google Air Quality API with AQI and pollutants.',
      shape: { lat: z.number(), lng: z.number() },
    },
    async ({ lat, lng }) => fastMcpJsonResult(await lookup('current_conditions', '/currentConditions:lookup', { location: location(lat, lng) })),
  );

  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'forecast',
      description:
        'Retrieve air-quality forecasts for a location for a configurable number of hours.\nArgs:\n  lat (float): Latitude of the forecast location.\n  lng (float): Longitude of the forecast location.\n  hours (Optional[int]): Number of forecast hours to request (1–96).\nReturns:\n  data (Dict[str, Any]): JSON payload with forecasted pollutant levels and AQI indexes.',
      shape: { lat: z.number(), lng: z.number(), hours: z.number().int().nullish() },
    },
    async ({ lat, lng, hours }) => {
      const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
      const end = new Date(start.getTime() + Math.min(Math.max(hours || 24, 1), 96) * 3_600_000);
      const body = { location: location(lat, lng), period: { startTime: start.toISOString(), endTime: end.toISOString() } };
      return fastMcpJsonResult(await lookup('forecast', '/forecast:lookup', body, 'hourlyForecasts'));
    },
  );

  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'history',
      description:
        'Retrieve historical air-quality records for a location over a time range.\nArgs:\n  lat (float): Latitude of the query location.\n  lng (float): Longitude of the query location.\n  startTime (str): Start time in ISO-8601 format.\n  endTime (str): End time in ISO-8601 format.\nReturns:\n  data (Dict[str, Any]): JSON with past AQI and pollutant data for the interval.',
      shape: { lat: z.number(), lng: z.number(), startTime: z.string(), endTime: z.string() },
    },
    async ({ lat, lng, startTime, endTime }) =>
      fastMcpJsonResult(await lookup('history', '/history:lookup', { location: location(lat, lng), period: { startTime, endTime } }, 'hoursInfo')),
  );

  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'heatmap_tile',
      description:
        'Retrieve a heat-map tile representing air-quality levels for a map tile coordinate (a PNG, saved into the task workspace and returned as an image).\nArgs:\n  z (int): Zoom level of the map tile.\n  x (int): Tile X coordinate.\n  y (int): Tile Y coordinate.\n  indexType (str): AQI index type to visualize.\nReturns:\n  data (Dict[str, Any]): JSON with tile metadata (saved path, type, size), plus the image.',
      shape: { z: z.number().int(), x: z.number().int(), y: z.number().int(), indexType: z.string().default('UNIVERSAL_AQI') },
    },
    async ({ z: zoom, x, y, indexType }, extra: ToolExtra) => {
      const endpoint = `${base()}/mapTypes/${encodeURIComponent(indexType)}/heatmapTiles/${zoom}/${x}/${y}`;
      const bytes = await callGoogle('heatmap_tile', endpoint, () => http.getBytes(endpoint, { query: { key: key() }, maxBytes: 5 * 1024 * 1024 }));
      const saved = await saveWorkspaceImage(extra, `heatmap_${indexType}_${zoom}_${x}_${y}`, bytes, new URL(endpoint).hostname);
      const payload = { endpoint, tile: { z: zoom, x, y, indexType }, content_type: saved.mimeType, saved_path: saved.file, bytes: saved.bytes };
      return fastMcpJsonResult(payload, [{ data: saved.data, mimeType: saved.mimeType }]);
    },
  );
}
