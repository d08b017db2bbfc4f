// What every google-maps tool shares: the key (read at call time, so the server starts and lists
// its tools without it), the base URL of each Google host (overridable for tests and mirrors),
// one HTTP client, and the translation of Google's failure shapes into typed errors:
//   - legacy web services (Geocoding, Directions, ...) answer HTTP 200 with a `status` field:
//     REQUEST_DENIED is a key problem, OVER_QUERY_LIMIT a quota problem, UNKNOWN_ERROR a server
//     problem; ZERO_RESULTS / NOT_FOUND / INVALID_REQUEST are answers and stay in the result,
//     as the reference returned them;
//   - v1 APIs (Places, Routes) answer 4xx with {error:{code,message,status}}; an invalid key is
//     a 400 with reason API_KEY_INVALID, which is infrastructure, not the model's fault.
// Other 4xx answers are ordinary tool errors worded as FastMCP worded the reference's exception.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { createHttpClient, upstreamBaseUrl, type HttpResponse } from '../shared/http-client.js';
import { registerKeyedTool, type ToolExtra } from '../shared/keyed-tool.js';
import { UpstreamClientError, UpstreamError, requireCredential } from '../shared/upstream-error.js';

export const SERVER = 'google-maps';
export const KEY_NAMES = ['GOOGLE_MAPS_API_KEY'] as const;

export const http = createHttpClient({ server: SERVER });

export function apiKey(): string {
  return requireCredential(KEY_NAMES, SERVER);
}

/** Base URL per Google host; each can point at a mirror or a test fake. */
export const base = {
  maps: () => upstreamBaseUrl('M3_UPSTREAM_GOOGLE_MAPS_URL', 'https://maps.googleapis.com'),
  places: () => upstreamBaseUrl('M3_UPSTREAM_GOOGLE_PLACES_URL', 'https://places.googleapis.com'),
  routes: () => upstreamBaseUrl('M3_UPSTREAM_GOOGLE_ROUTES_URL', 'https://routes.googleapis.com'),
  roads: () => upstreamBaseUrl('M3_UPSTREAM_GOOGLE_ROADS_URL', 'https://roads.googleapis.com'),
  geolocation: () => upstreamBaseUrl('M3_UPSTREAM_GOOGLE_GEOLOCATION_URL', 'https://www.googleapis.com'),
};

/** Registers one google-maps tool (guarded, redacted against the key). */
export function defineTool<S extends Record<string, z.ZodType>>(
  server: McpServer,
  tool: { name: string; description: string; shape: S },
  run: (args: z.infer<z.ZodObject<S>>, extra: ToolExtra) => Promise<CallToolResult>,
): void {
  registerKeyedTool(server, KEY_NAMES, tool, run);
}

function errorBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return JSON.stringify({ text: text.slice(0, 500) });
  }
}

/** Runs one Google request and maps its failures (see the header). */
export async function callGoogle<T>(tool: string, endpoint: string, send: () => Promise<HttpResponse<T>>): Promise<T> {
  let response: HttpResponse<T>;
  try {
    response = await send();
  } catch (error) {
    if (!(error instanceof UpstreamClientError)) throw error;
    if (/API_KEY_INVALID|API key not valid|API_KEY_SERVICE_BLOCKED/.test(error.body)) {
      throw new UpstreamError('upstream_auth', `${error.upstream} refused the API key (HTTP ${error.status}): ${errorBody(error.body)}`, { status: error.status, upstream: error.upstream });
    }
    throw new Error(`Error executing tool ${tool}: HTTP ${error.status} at ${endpoint}: ${errorBody(error.body)}`);
  }
  checkLegacyStatus(response.body, new URL(endpoint).hostname);
  return response.body;
}

function checkLegacyStatus(body: unknown, upstream: string): void {
  if (!body || typeof body !== 'object') return;
  const { status, error_message: message } = body as { status?: unknown; error_message?: unknown };
  const detail = typeof message === 'string' && message ? `: ${message}` : '';
  if (status === 'REQUEST_DENIED') throw new UpstreamError('upstream_auth', `${upstream} denied the request (REQUEST_DENIED)${detail}`, { upstream });
  if (status === 'OVER_QUERY_LIMIT' || status === 'OVER_DAILY_LIMIT') {
    throw new UpstreamError('upstream_rate_limited', `${upstream} refused the request: quota exceeded (${status})${detail}`, { upstream });
  }
  if (status === 'UNKNOWN_ERROR') throw new UpstreamError('upstream_server_error', `${upstream} failed to answer (UNKNOWN_ERROR)${detail}`, { upstream });
}

/** GET on a legacy web service with the key as the `key` query parameter. */
export function getWithKey<T = unknown>(tool: string, endpoint: string, params: Record<string, string | number | ReadonlyArray<string>>): Promise<T> {
  const query = { ...params, key: apiKey() };
  return callGoogle(tool, endpoint, () => http.getJson<T>(endpoint, { query }));
}

/** Headers of the v1 APIs: the key and the response field mask both travel as headers. */
export function v1Headers(fieldMask?: string): Record<string, string> {
  return { 'X-Goog-Api-Key': apiKey(), ...(fieldMask ? { 'X-Goog-FieldMask': fieldMask } : {}) };
}
