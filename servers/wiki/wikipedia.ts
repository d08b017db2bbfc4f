// English Wikipedia, as the reference `wiki` server (the reference project's servers/wiki_mcp.py) reaches it:
// search through the MediaWiki action API (list=search, maxlag=5), falling back to the Wikimedia
// core REST search when the action API answers 403; summaries from the REST page summary with
// redirects followed, retried once with an Api-User-Agent header after a 403.
//
// Base URLs (for tests and mirrors): M3_UPSTREAM_WIKIPEDIA_URL (default https://en.wikipedia.org,
// serves /w/api.php and /api/rest_v1) and M3_UPSTREAM_WIKIMEDIA_API_URL (default
// https://api.wikimedia.org, serves /core/v1/wikipedia/en/search/page).
import { z } from 'zod';
import { createHttpClient, secondsToRetry, upstreamBaseUrl } from '../shared/http-client.js';
import { asReferenceClientError } from '../shared/reference-errors.js';
import { UpstreamError } from '../shared/upstream-error.js';

// Wikimedia's User-Agent policy asks for a way to reach the operator; the same string goes in
// Api-User-Agent on the retries the reference makes after a 403.
const userAgent = 'm3bench-wiki/0.1 (MCP benchmark server; https://github.com/EtaYang10th/Open-M3-Bench)';
const http = createHttpClient({ server: 'wiki', userAgent });

const wikipediaBase = () => upstreamBaseUrl('M3_UPSTREAM_WIKIPEDIA_URL', 'https://en.wikipedia.org');
const wikimediaBase = () => upstreamBaseUrl('M3_UPSTREAM_WIKIMEDIA_API_URL', 'https://api.wikimedia.org');

const actionSearchSchema = z
  .object({
    error: z.object({ code: z.string(), info: z.string().optional() }).loose().optional(),
    query: z
      .object({ search: z.array(z.object({ title: z.string() }).loose()).default([]) })
      .loose()
      .optional(),
  })
  .loose();

const coreSearchSchema = z.object({ pages: z.array(z.object({ title: z.string().nullish() }).loose()).default([]) }).loose();

const summarySchema = z.object({ title: z.string().nullish(), description: z.string().nullish(), extract: z.string().nullish() }).loose();

export interface PageSummary {
  title: string;
  description: string;
  extract: string;
}

/**
 * Python's `urllib.parse.quote(text)` (safe="/"): what the reference puts in the summary path.
 * @internal Exported for its tests.
 */
export function pythonQuote(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/');
}

/** The action API reports overload and throttling in a 200 body; those are outages, not "no results". */
function throwActionError(error: { code: string; info?: string | undefined }, headers: Headers, upstream: string): never {
  const info = error.info ?? error.code;
  const retryAfterSec = secondsToRetry(headers);
  const extra = { upstream, ...(retryAfterSec !== undefined ? { retryAfterSec } : {}) };
  if (error.code === 'maxlag' || error.code === 'ratelimited') throw new UpstreamError('upstream_rate_limited', `${upstream}: ${info}`, extra);
  if (error.code.startsWith('internal_api_error') || error.code === 'readonly') throw new UpstreamError('upstream_server_error', `${upstream}: ${info}`, extra);
  throw new Error(`Error executing tool search: MediaWiki API error ${error.code}: ${info}`);
}

const forbidden = Symbol('forbidden');

/** A 403 (Wikimedia refusing the client) is the one failure the reference works around. */
async function orForbidden<T>(request: Promise<T>): Promise<T | typeof forbidden> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof UpstreamError && error.code === 'upstream_auth' && error.status === 403) return forbidden;
    throw error;
  }
}

/** Top page titles for a free-text query (limit already clamped by the caller). */
export async function searchTitles(query: string, limit: number): Promise<string[]> {
  const url = new URL(`${wikipediaBase()}/w/api.php`);
  const params = { action: 'query', format: 'json', list: 'search', utf8: '1', srlimit: String(limit), srsearch: query, maxlag: '5' };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const response = await orForbidden(asReferenceClientError('search', url.href, () => http.getJson(url.href, { schema: actionSearchSchema, what: 'search' })));
  if (response === forbidden) return searchTitlesCore(query, limit);
  const body = response.body;
  if (body.error) throwActionError(body.error, response.headers, url.hostname);
  if (!body.query)
    throw new UpstreamError('upstream_bad_response', `${url.hostname}: the search response has neither "query" nor "error"`, { upstream: url.hostname });
  return body.query.search.map((hit) => hit.title);
}

async function searchTitlesCore(query: string, limit: number): Promise<string[]> {
  const url = new URL(`${wikimediaBase()}/core/v1/wikipedia/en/search/page`);
  url.searchParams.set('q', query);
  url.searchParams.set('limit', String(limit));
  const headers = { 'api-user-agent': userAgent };
  const response = await asReferenceClientError('search', url.href, () => http.getJson(url.href, { headers, schema: coreSearchSchema, what: 'core search' }));
  return response.body.pages.map((page) => page.title ?? '');
}

/** The REST summary of a page (redirects followed). */
export async function fetchSummary(title: string): Promise<PageSummary> {
  const url = new URL(`${wikipediaBase()}/api/rest_v1/page/summary/${pythonQuote(title)}`);
  url.searchParams.set('redirect', 'true');
  let response = await orForbidden(asReferenceClientError('summary', url.href, () => http.getJson(url.href, { schema: summarySchema, what: 'page summary' })));
  if (response === forbidden) {
    response = await asReferenceClientError('summary', url.href, () =>
      http.getJson(url.href, { headers: { 'api-user-agent': userAgent }, schema: summarySchema, what: 'page summary' }),
    );
  }
  const body = response.body;
  return { title: body.title ?? '', description: body.description ?? '', extract: body.extract ?? '' };
}
