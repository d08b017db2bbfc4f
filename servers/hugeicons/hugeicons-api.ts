// The Hugeicons web APIs the reference hugeicons-mcp server (servers/hugeicons/src) calls: the
// icon index (hugeicons.com/api/icons → {icons}), the search service (search.hugeicons.com
// /search?q= → {query, fuzzy_enabled, total, results}) and the glyph API (api.hugeicons.com/v1
// /icon/{name}/glyphs and /glyph?style= → {success, message, data}). The reference's agnost
// telemetry is not sent. Base URLs: M3_UPSTREAM_HUGEICONS_URL, M3_UPSTREAM_HUGEICONS_SEARCH_URL,
// M3_UPSTREAM_HUGEICONS_API_URL.
import { z } from 'zod';
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { UpstreamClientError, UpstreamError } from '../shared/upstream-error.js';

const http = createHttpClient({ server: 'hugeicons-mcp' });

const iconSchema = z
  .object({ id: z.unknown(), name: z.unknown(), tags: z.unknown(), category: z.unknown(), featured: z.unknown(), version: z.unknown() })
  .loose();
const indexSchema = z.object({ icons: z.array(iconSchema) }).loose();
const searchSchema = z.object({ results: z.array(iconSchema) }).loose();
const glyphsSchema = z.object({ success: z.boolean(), message: z.string().nullish(), data: z.unknown() }).loose();

let iconIndex: unknown[] | undefined;

/** The full icon index, fetched once per process as the reference cached it. */
export async function loadIcons(): Promise<unknown[]> {
  if (iconIndex) return iconIndex;
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_HUGEICONS_URL', 'https://hugeicons.com')}/api/icons`);
  try {
    iconIndex = (await http.getJson(url.href, { maxBytes: 64 * 1024 * 1024, schema: indexSchema, what: 'icon index' })).body.icons;
  } catch (error) {
    if (error instanceof UpstreamClientError) throw new Error('Failed to load icons data');
    throw error;
  }
  return iconIndex;
}

/** Search results reduced to the index fields, in the reference's key order. */
export async function searchIcons(query: string): Promise<unknown[]> {
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_HUGEICONS_SEARCH_URL', 'https://search.hugeicons.com')}/search`);
  url.searchParams.set('q', query);
  const body = (await http.getJson(url.href, { schema: searchSchema, what: 'search' })).body;
  return body.results.map((result) => ({
    id: result.id,
    name: result.name,
    tags: result.tags,
    category: result.category,
    featured: result.featured,
    version: result.version,
  }));
}

/** A glyph request; its failures worded as the reference's glyph helpers threw them. */
async function glyphRequest(path: string, query: Record<string, string>, notFound: string, fallback: string): Promise<unknown> {
  const url = new URL(`${upstreamBaseUrl('M3_UPSTREAM_HUGEICONS_API_URL', 'https://api.hugeicons.com/v1')}${path}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  let answer: z.output<typeof glyphsSchema>;
  try {
    answer = (await http.getJson(url.href, { schema: glyphsSchema, what: 'glyph' })).body;
  } catch (error) {
    if (error instanceof UpstreamClientError) throw new Error(error.status === 404 ? notFound : `${fallback}: Request failed with status code ${error.status}`);
    throw error;
  }
  // The reference threw on success=false and its own catch re-wrapped that message.
  if (!answer.success) throw new Error(`${fallback}: ${answer.message || fallback}`);
  return answer.data;
}

export async function allGlyphs(iconName: string): Promise<unknown> {
  const data = await glyphRequest(`/icon/${encodeURIComponent(iconName)}/glyphs`, {}, `Icon '${iconName}' not found`, 'Failed to fetch glyphs');
  const glyphs = (data as { glyphs?: unknown } | null)?.glyphs;
  if (!Array.isArray(glyphs)) throw new UpstreamError('upstream_bad_response', 'api.hugeicons.com: the glyphs answer has no data.glyphs list');
  return glyphs;
}

export async function glyphByStyle(iconName: string, style: string): Promise<unknown> {
  return glyphRequest(`/icon/${encodeURIComponent(iconName)}/glyph`, { style }, `Icon '${iconName}' with style '${style}' not found`, 'Failed to fetch glyph');
}
