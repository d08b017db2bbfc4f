// CrossRef REST API: /works (query, rows, relevance order, the polite-pool mailto) and
// /works/<doi>, each item laid out as the reference's _parse_crossref_item: first title, "given
// family" authors, the first of published / issued / created dates (else 1970-01-01), a PDF
// link from resource.primary or link[], the type as category, subjects as keywords, and the
// publisher fields in `extra` (printed as Python's str() of that dict).
import { type Paper, PyDateTime, toPaperDict } from './paper.js';
import { asRecord } from '../shared/loose-record.js';
import { jsonObject, parseJsonObject } from './sources.js';
import { fetchFrom, fetchJson, pathPart } from './upstreams.js';

const mailto = 'paper-search@example.org';
const headers = { 'user-agent': `paper-search-mcp/0.1.3 (https://github.com/Dragonatorul/paper-search-mcp; mailto:${mailto})`, accept: 'application/json' };

type Item = Record<string, unknown>;

function get(item: Item, key: string, fallback: unknown): unknown {
  return Object.hasOwn(item, key) ? item[key] : fallback;
}

function firstOrString(value: unknown): unknown {
  if (Array.isArray(value) && value.length > 0) return value[0];
  return value && !(Array.isArray(value) && value.length === 0) ? String(value) : '';
}

function dateOf(item: Item, field: string): PyDateTime | undefined {
  const parts = (item[field] as { 'date-parts'?: unknown[][] } | undefined)?.['date-parts']?.[0];
  if (!Array.isArray(parts) || parts.length === 0) return undefined;
  const [year = 1970, month = 1, day = 1] = parts as number[];
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day ? new PyDateTime(year, month, day) : undefined;
}

function authorsOf(item: Item): string[] {
  const list = Array.isArray(item.author) ? (item.author as Array<Record<string, unknown>>) : [];
  return list.flatMap((author) => {
    const given = author.given ? String(author.given) : '';
    const family = author.family ? String(author.family) : '';
    if (given && family) return [`${given} ${family}`];
    if (family) return [family];
    return given ? [given] : [];
  });
}

function pdfUrlOf(item: Item): string {
  const primary = (item.resource as { primary?: { URL?: string } } | undefined)?.primary;
  if (primary?.URL?.endsWith('.pdf')) return primary.URL;
  const links = Array.isArray(item.link) ? (item.link as Array<Record<string, unknown>>) : [];
  const pdf = links.find((link) =>
    String(link['content-type'] ?? '')
      .toLowerCase()
      .includes('pdf'),
  );
  return pdf ? String(pdf.URL ?? '') : '';
}

function toCrossrefPaper(item: Item): Paper {
  const doi = String(get(item, 'DOI', ''));
  const subjects = get(item, 'subject', []);
  return {
    paper_id: doi,
    title: firstOrString(get(item, 'title', [])),
    authors: authorsOf(item),
    abstract: get(item, 'abstract', ''),
    doi,
    published_date: dateOf(item, 'published') ?? dateOf(item, 'issued') ?? dateOf(item, 'created') ?? new PyDateTime(1970),
    pdf_url: pdfUrlOf(item),
    url: get(item, 'URL', doi ? `https://doi.org/${doi}` : ''),
    source: 'crossref',
    categories: [get(item, 'type', '')],
    keywords: Array.isArray(subjects) ? subjects : [],
    citations: get(item, 'is-referenced-by-count', 0),
    extra: {
      publisher: get(item, 'publisher', ''),
      container_title: firstOrString(get(item, 'container-title', [])),
      volume: get(item, 'volume', ''),
      issue: get(item, 'issue', ''),
      page: get(item, 'page', ''),
      issn: get(item, 'ISSN', []),
      isbn: get(item, 'ISBN', []),
      crossref_type: get(item, 'type', ''),
      member: get(item, 'member', ''),
      prefix: get(item, 'prefix', ''),
    },
  };
}

export async function searchCrossref(query: string, maxResults: number): Promise<Record<string, unknown>[]> {
  const response = await fetchJson('crossref', '/works', {
    query: { query, rows: Math.min(maxResults, 1000), sort: 'relevance', order: 'desc', mailto },
    headers,
    schema: jsonObject,
    what: 'works search',
  });
  const found = asRecord(response.body.message).items;
  const items = Array.isArray(found) ? (found as Item[]) : [];
  return items.map((item) => toPaperDict(toCrossrefPaper(item)));
}

/** /works/<doi>; {} when CrossRef does not know the DOI (404), as the reference answered. */
export async function crossrefByDoi(doi: string): Promise<Record<string, unknown>> {
  const response = await fetchFrom<string>('crossref', `/works/${pathPart(doi)}`, 'text', { query: { mailto }, headers, acceptStatus: [404] });
  if (response.status === 404) return {};
  const item = parseJsonObject(response, 'crossref', 'work').message;
  return item && typeof item === 'object' ? toPaperDict(toCrossrefPaper(item as Item)) : {};
}
