// bioRxiv and medRxiv (the reference's BioRxivSearcher / MedRxivSearcher): "search" lists the
// last 30 days of the server's preprints in the category named by the query (lower case, spaces
// as underscores), one page of the details API (the reference's loop always stopped after the
// first page); download fetches `<doi>v1.full.pdf`; reading downloads when absent, then text.
import { type Paper, PyDateTime, toPaperDict } from './paper.js';
import { downloadPdf, isPresent, pdfPath, pdfText } from './pdf-files.js';
import { jsonObject } from './sources.js';
import { fetchJson, pathPart } from './upstreams.js';

export type PreprintServer = 'biorxiv' | 'medrxiv';

function dateOnly(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function toPreprintPaper(server: PreprintServer, item: Record<string, unknown>): Paper | undefined {
  const date = PyDateTime.parse(String(item.date ?? ''));
  if (!date || typeof item.doi !== 'string' || typeof item.authors !== 'string' || !('title' in item) || !('abstract' in item) || !('category' in item))
    return undefined;
  const version = item.version ?? '1';
  const page = `https://www.${server}.org/content/${item.doi}v${String(version)}`;
  return {
    paper_id: item.doi,
    title: item.title,
    authors: item.authors.split('; '),
    abstract: item.abstract,
    url: page,
    pdf_url: `${page}.full.pdf`,
    published_date: date,
    updated_date: date,
    source: server,
    categories: [item.category],
    keywords: [],
    doi: item.doi,
  };
}

export async function searchPreprints(server: PreprintServer, query: string, maxResults: number, now = new Date()): Promise<Record<string, unknown>[]> {
  const end = dateOnly(now);
  const start = dateOnly(new Date(now.getTime() - 30 * 24 * 3600 * 1000));
  const category = query.toLowerCase().replaceAll(' ', '_');
  const response = await fetchJson('biorxivApi', `/details/${server}/${start}/${end}/0`, {
    query: { category: category || undefined },
    schema: jsonObject,
    what: `${server} details`,
  });
  const collection = Array.isArray(response.body.collection) ? (response.body.collection as Record<string, unknown>[]) : [];
  return collection
    .flatMap((item) => {
      const paper = toPreprintPaper(server, item);
      return paper ? [toPaperDict(paper)] : [];
    })
    .slice(0, maxResults);
}

const browserHeaders = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.124 Safari/537.36' };

export function downloadPreprint(server: PreprintServer, paperId: string, folder: string): Promise<string> {
  if (!paperId) throw new Error('Invalid paper_id: paper_id is empty');
  return downloadPdf(server, `/content/${pathPart(paperId)}v1.full.pdf`, pdfPath(folder, paperId.replaceAll('/', '_')), browserHeaders);
}

export async function readPreprint(server: PreprintServer, paperId: string, folder: string): Promise<string> {
  const file = pdfPath(folder, paperId.replaceAll('/', '_'));
  return pdfText(isPresent(file) ? file : await downloadPreprint(server, paperId, folder));
}
