// What every google-maps tool shares: the key (read at call time, so the server starts and lists
// its tools without it), the base URL of each Google host (overridable for tests and mirrors),
// one HTTP client, and Google's failure shapes mapped to typed errors (shared/google-call.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { callGoogle } from '../shared/google-call.js';
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { registerKeyedTool, type ToolExtra } from '../shared/keyed-tool.js';
import { requireCredential } from '../shared/upstream-error.js';

const SERVER = 'google-maps';
const KEY_NAMES = ['GOOGLE_MAPS_API_KEY'] as const;

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

/** GET on a legacy web service with the key as the `key` query parameter. */
export function getWithKey<T = unknown>(tool: string, endpoint: string, params: Record<string, string | number | ReadonlyArray<string>>): Promise<T> {
  const query = { ...params, key: apiKey() };
  return callGoogle(tool, endpoint, () => http.getJson<T>(endpoint, { query }));
}

/** Headers of the v1 APIs: the key and the response field mask both travel as headers. */
export function v1Headers(fieldMask?: string): Record<string, string> {
  return { 'X-Goog-Api-Key': apiKey(), ...(fieldMask ? { 'X-Goog-FieldMask': fieldMask } : {}) };
}
