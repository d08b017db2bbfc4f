// pubmed_search and ncbi_bookshelf_search: NCBI E-utilities ESearch (ids) then ESummary
// (records), JSON mode, laid out as the reference's pubmed-tool.js and ncbi-bookshelf-tool.js.
import { z } from 'zod';
import { UpstreamError } from '../shared/upstream-error.js';
import { failure, type Payload, success } from './reference-shape.js';
import { baseUrl, http, optionalKey } from './upstreams.js';

const searchSchema = z
  .object({
    esearchresult: z
      .object({ idlist: z.array(z.string()).optional(), count: z.string().optional() })
      .loose()
      .optional(),
  })
  .loose();
const summarySchema = z.object({ result: z.record(z.string(), z.unknown()).optional() }).loose();

type SummaryRecord = Record<string, unknown>;

async function eutils<T extends z.ZodType>(tool: string, query: Record<string, string | number | undefined>, schema: T): Promise<z.output<T>> {
  return (await http.getJson(`${baseUrl('eutils')}/${tool}`, { query, schema, what: `NCBI ${tool}` })).body;
}

/** ESearch then ESummary for `db`; the summary map is empty when nothing matched. */
async function searchAndSummarize(db: string, term: string, retmax: number, apiKey: string | undefined) {
  const found = await eutils('esearch.fcgi', { db, term, retmax, format: 'json', api_key: apiKey }, searchSchema);
  const ids = found.esearchresult?.idlist ?? [];
  const total = Number.parseInt(found.esearchresult?.count ?? '0', 10);
  if (ids.length === 0) return { ids, total, records: {} as Record<string, unknown> };
  const summary = await eutils('esummary.fcgi', { db, id: ids.join(','), retmode: 'json', api_key: apiKey }, summarySchema);
  return { ids, total, records: summary.result ?? {} };
}

function authorNames(record: SummaryRecord, skipEmpty: boolean): unknown[] {
  if (!Array.isArray(record.authors)) return [];
  const names = record.authors.map((author) => (author as { name?: unknown }).name);
  return skipEmpty ? names.filter(Boolean) : names;
}

function toArticle(id: string, record: SummaryRecord): Payload {
  const article: Payload = {
    id,
    title: record.title || '',
    authors: authorNames(record, true),
    journal: record.fulljournalname || '',
    publication_date: record.pubdate || '',
    abstract_url: `https://pubmed.ncbi.nlm.nih.gov/${id}/`,
  };
  if (Array.isArray(record.articleids)) {
    for (const entry of record.articleids as Array<{ idtype?: unknown; value?: unknown }>) {
      if (entry.idtype === 'doi') article.doi = entry.value || '';
    }
  }
  return article;
}

/** The reference's query rewrite: open-access filter, then a `[pdat]` year window. */
function pubmedTerm(query: string, dateRange: string, openAccess: boolean, now = new Date()): string {
  let term = query;
  if (openAccess) term += ' AND open access[filter]';
  if (dateRange) {
    const yearsBack = Number.parseInt(dateRange, 10);
    const currentYear = now.getFullYear();
    term += ` AND ${currentYear - yearsBack}:${currentYear}[pdat]`;
  }
  return term;
}

export async function searchPubmed(query: string, maxResults: number, dateRange: string, openAccess: boolean): Promise<Payload> {
  if (!query) return failure('Search query is required');
  const term = pubmedTerm(query, dateRange, openAccess);
  const { ids, total, records } = await searchAndSummarize('pubmed', term, maxResults, optionalKey('PUBMED_API_KEY'));
  const articles = ids.filter((id) => id in records).map((id) => toArticle(id, records[id] as SummaryRecord));
  return success({ query, total_results: total, date_range: dateRange, open_access: openAccess, articles });
}

export async function searchBookshelf(query: string, maxResults: number): Promise<Payload> {
  if (!query) return failure('Search query is required');
  const { ids, total, records } = await searchAndSummarize('books', query, maxResults, optionalKey('NCBI_API_KEY'));
  const books = ids.map((id) => {
    const record = records[id] as SummaryRecord | undefined;
    if (!record) {
      const upstream = new URL(baseUrl('eutils')).hostname;
      throw new UpstreamError('upstream_bad_response', `NCBI esummary.fcgi has no record for Bookshelf id ${id}`, { upstream });
    }
    return {
      id,
      title: record.title,
      authors: record.authors ? authorNames(record, false) : [],
      publication_date: record.pubdate,
      url: `https://www.ncbi.nlm.nih.gov/books/${id}/`,
    };
  });
  return success({ query, total_results: total, books });
}
