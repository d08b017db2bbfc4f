// The services paper_search reads, each base URL overridable (tests, mirrors), their HTTP
// clients, and the one request helper every source uses: a 4xx is thrown as the text
// `requests.raise_for_status()` gave the reference (with the public URL, never a mirror's),
// outages stay typed UpstreamErrors. arXiv asks for one request at a time and backs off from
// 3 s, as the 2026 reference does (`_get_with_backoff`: 429, 5xx and network errors retried).
import type { z } from 'zod';
import { createHttpClient, type HttpClient, type JsonRequestOptions, type RequestOptions, upstreamBaseUrl } from '../shared/http-client.js';
import { namedRequest } from '../shared/named-url.js';
import { requestsHttpErrorText } from '../shared/reference-errors.js';
import { UpstreamClientError } from '../shared/upstream-error.js';

const upstreams = {
  arxivApi: { env: 'M3_UPSTREAM_ARXIV_API_URL', public: 'http://export.arxiv.org/api' },
  arxiv: { env: 'M3_UPSTREAM_ARXIV_URL', public: 'https://arxiv.org' },
  eutils: { env: 'M3_UPSTREAM_NCBI_EUTILS_URL', public: 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils' },
  biorxivApi: { env: 'M3_UPSTREAM_BIORXIV_API_URL', public: 'https://api.biorxiv.org' },
  biorxiv: { env: 'M3_UPSTREAM_BIORXIV_URL', public: 'https://www.biorxiv.org' },
  medrxiv: { env: 'M3_UPSTREAM_MEDRXIV_URL', public: 'https://www.medrxiv.org' },
  scholar: { env: 'M3_UPSTREAM_GOOGLE_SCHOLAR_URL', public: 'https://scholar.google.com' },
  iacr: { env: 'M3_UPSTREAM_IACR_URL', public: 'https://eprint.iacr.org' },
  semantic: { env: 'M3_UPSTREAM_SEMANTIC_SCHOLAR_URL', public: 'https://api.semanticscholar.org/graph/v1' },
  crossref: { env: 'M3_UPSTREAM_CROSSREF_URL', public: 'https://api.crossref.org' },
} as const;

export type Upstream = keyof typeof upstreams;

export function baseUrl(name: Upstream): string {
  return upstreamBaseUrl(upstreams[name].env, upstreams[name].public);
}

const server = 'paper_search';
const arxivRetries = process.env.M3_HTTP_RETRIES?.trim() ? undefined : 4;
const clients = {
  arxiv: createHttpClient({ server, maxConcurrentPerHost: 1, backoffBaseMs: 3000, ...(arxivRetries === undefined ? {} : { retries: arxivRetries }) }),
  other: createHttpClient({ server }),
};

/** Browser-like agents the reference's scraping sources (Scholar, IACR, Semantic) rotate. */
const browserAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
] as const;

export function randomBrowserAgent(): string {
  return browserAgents[Math.floor(Math.random() * browserAgents.length)] ?? browserAgents[0];
}

function publicUrl(name: Upstream, path: string, query: RequestOptions['query']): string {
  const url = new URL(`${upstreams[name].public}${path}`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
  return url.href;
}

/** `send` to `<base of name><path>` on that upstream's client; a 4xx is thrown worded as requests' HTTPError. */
async function worded<T>(
  name: Upstream,
  path: string,
  options: RequestOptions,
  send: (client: HttpClient, url: string) => Promise<{ status: number; body: T }>,
): Promise<{ status: number; body: T }> {
  const client: HttpClient = name === 'arxivApi' || name === 'arxiv' ? clients.arxiv : clients.other;
  try {
    const response = await send(client, `${baseUrl(name)}${path}`);
    return { status: response.status, body: response.body };
  } catch (error) {
    if (error instanceof UpstreamClientError) throw new Error(requestsHttpErrorText(error.status, publicUrl(name, path, options.query)));
    throw error;
  }
}

/** A request to `<base of name><path>` for text or bytes (a page, a feed, a PDF). */
export function fetchFrom<T extends string | Buffer>(name: Upstream, path: string, kind: 'text' | 'bytes', options: RequestOptions = {}) {
  return worded(name, path, options, (client, url) => client.request<T>(url, kind, options));
}

/** JSON from `<base of name><path>`, checked against `options.schema` (else upstream_bad_response). */
export function fetchJson<S extends z.ZodType>(name: Upstream, path: string, options: JsonRequestOptions<S>) {
  return worded(name, path, options, (client, url) => client.getJson(url, options));
}

/**
 * An id used as a URL path part, as requests sent it: reserved characters escaped, "/" and ":"
 * kept (old-style arXiv ids are `hep-th/9901001`). An id with an empty, "." or ".." segment would
 * leave the path it is put in (`/pdf/../../x` is `/x` on the same host), so it becomes one
 * segment with every "/" escaped.
 */
export function pathPart(id: string): string {
  if (id === '.' || id === '..') throw new Error(`"${id}" is not a paper id`);
  const escaped = encodeURIComponent(id).replace(/%3A/gi, ':');
  const climbs = id.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
  return climbs ? escaped : escaped.replace(/%2F/gi, '/');
}

/**
 * A GET of a URL a source named (a PDF link Semantic Scholar gave, on any host): through
 * M3_UPSTREAM_PDF_LINKS_URL when set (`<override>/<host><path>`), never to a non-public address.
 */
export function fetchNamed(url: string, namedBy: Upstream, options: RequestOptions): Promise<{ status: number; body: Buffer }> {
  const target = namedRequest(url, [{ origin: '*', env: 'M3_UPSTREAM_PDF_LINKS_URL' }], baseUrl(namedBy));
  return clients.other.request<Buffer>(target.url, 'bytes', { ...options, namedBy: target.namedBy });
}
