// Semantic Scholar Graph API v1: paper/search (query, limit, fields, optional year) and
// paper/<id>, with the optional SEMANTIC_SCHOLAR_API_KEY as `x-api-key`. The reference asks
// for the same field list, which has no `openAccessPdf`, so its pdf_url is "" and its
// download/read tools answer "Error: Could not find PDF URL for paper <id>"; we send the same
// request and keep that behaviour rather than invent a PDF source the reference never used.
import { type Paper, PyDateTime, toPaperDict } from './paper.js';
import { jsonObject, parseJsonObject } from './sources.js';
import { fetchFrom, fetchJson, pathPart, randomBrowserAgent } from './upstreams.js';

const fields = ['title', 'abstract', 'year', 'citationCount', 'authors', 'url', 'publicationDate', 'externalIds', 'fieldsOfStudy'].join(',');

function headers(): Record<string, string> {
  const key = process.env.SEMANTIC_SCHOLAR_API_KEY?.trim();
  return {
    'user-agent': randomBrowserAgent(),
    accept: 'text/html,application/xhtml+xml',
    'accept-language': 'en-US,en;q=0.9',
    ...(key ? { 'x-api-key': key } : {}),
  };
}

/** The first URL of an open-access disclaimer, preferring doi.org, then non-Unpaywall, arXiv abs → pdf. */
function urlFromDisclaimer(disclaimer: string): string {
  const urls = [/https?:\/\/[^\s,)]+/g, /https?:\/\/arxiv\.org\/abs\/[^\s,)]+/g, /https?:\/\/[^\s,)]*\.pdf/g].flatMap(
    (pattern) => disclaimer.match(pattern) ?? [],
  );
  const doi = urls.find((url) => url.includes('doi.org'));
  if (doi) return doi;
  const chosen = urls.find((url) => !url.includes('unpaywall.org')) ?? urls[0] ?? '';
  return chosen.includes('arxiv.org/abs/') ? chosen.replace('/abs/', '/pdf/') : chosen;
}

function get(item: Record<string, unknown>, key: string, fallback: unknown): unknown {
  return Object.hasOwn(item, key) ? item[key] : fallback;
}

function toSemanticPaper(item: Record<string, unknown>): Paper | undefined {
  if (typeof item.paperId !== 'string' || !('title' in item)) return undefined;
  const openAccess = item.openAccessPdf as { url?: string; disclaimer?: string } | null | undefined;
  let pdfUrl = '';
  if (openAccess?.url) pdfUrl = openAccess.url;
  else if (openAccess?.disclaimer) pdfUrl = urlFromDisclaimer(openAccess.disclaimer);
  const externalIds = item.externalIds as { DOI?: string } | null | undefined;
  const fieldsOfStudy = get(item, 'fieldsOfStudy', []);
  const authors = Array.isArray(item.authors) ? (item.authors as Array<{ name?: unknown }>).map((author) => author.name) : [];
  return {
    paper_id: item.paperId,
    title: item.title,
    authors,
    abstract: get(item, 'abstract', ''),
    url: get(item, 'url', ''),
    pdf_url: pdfUrl,
    published_date: PyDateTime.parse(String(get(item, 'publicationDate', '') ?? '')),
    source: 'semantic',
    categories: Array.isArray(fieldsOfStudy) ? fieldsOfStudy : [],
    doi: externalIds?.DOI ? externalIds.DOI : '',
    citations: get(item, 'citationCount', 0),
  };
}

export async function searchSemantic(query: string, year: string | undefined, maxResults: number): Promise<Record<string, unknown>[]> {
  const response = await fetchJson('semantic', '/paper/search', {
    query: { query, limit: maxResults, fields, year: year || undefined },
    headers: headers(),
    schema: jsonObject,
    what: 'paper search',
  });
  const results = Array.isArray(response.body.data) ? (response.body.data as Record<string, unknown>[]) : [];
  return results.slice(0, maxResults).flatMap((item) => {
    const paper = toSemanticPaper(item);
    return paper ? [toPaperDict(paper)] : [];
  });
}

/** paper/<id>; undefined when Semantic Scholar does not know the id (a 4xx). */
export async function semanticDetails(paperId: string): Promise<Paper | undefined> {
  const response = await fetchFrom<string>('semantic', `/paper/${pathPart(paperId)}`, 'text', {
    query: { fields },
    headers: headers(),
    acceptStatus: [400, 404],
  });
  if (response.status !== 200) return undefined;
  return toSemanticPaper(parseJsonObject(response, 'semantic', 'paper'));
}

export function semanticFileName(paperId: string): string {
  return `semantic_${paperId.replaceAll('/', '_')}`;
}
