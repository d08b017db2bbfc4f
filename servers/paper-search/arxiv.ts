// arXiv: search over the export API's Atom feed (search_query, max_results, newest submissions
// first), PDF download from arxiv.org/pdf/<id>.pdf, and reading = download when absent + text.
// Entries are read as the reference's feedparser code read them: an entry missing a field it
// needs is skipped, and `doi` is always "" because feedparser files <arxiv:doi> under
// `arxiv_doi`, not `doi` (the reference asked for `entry.get('doi', '')`).
import { type Paper, PyDateTime, toPaperDict } from './paper.js';
import { downloadPdf, isPresent, pdfPath, pdfText } from './pdf-files.js';
import { baseUrl, fetchFrom, pathPart } from './upstreams.js';
import { readUpstreamText } from '../shared/http-body.js';
import { child, childrenNamed, parseXml, type XmlElement } from './xml.js';

function textOf(element: XmlElement | undefined): string | undefined {
  return element ? element.allText.trim() : undefined;
}

/** One Atom entry as the reference's loop made it; undefined where that loop raised and skipped. */
function toArxivPaper(entry: XmlElement): Paper | undefined {
  const id = textOf(child(entry, 'id'));
  const title = textOf(child(entry, 'title'));
  const summary = textOf(child(entry, 'summary'));
  const published = PyDateTime.parse(textOf(child(entry, 'published')) ?? '');
  const updated = PyDateTime.parse(textOf(child(entry, 'updated')) ?? '');
  if (id === undefined || title === undefined || summary === undefined || !published || !updated) return undefined;
  // feedparser defaults a link's type to text/html, so only a typed PDF link counts.
  const pdf = childrenNamed(entry, 'link').find((link) => (link.attributes.type ?? 'text/html') === 'application/pdf');
  return {
    paper_id: id.split('/').at(-1) ?? '',
    title,
    authors: childrenNamed(entry, 'author').map((author) => textOf(child(author, 'name')) ?? ''),
    abstract: summary,
    url: id,
    pdf_url: pdf?.attributes.href ?? '',
    published_date: published,
    updated_date: updated,
    source: 'arxiv',
    categories: childrenNamed(entry, 'category').map((category) => category.attributes.term ?? ''),
    keywords: [],
    doi: '',
  };
}

export async function searchArxiv(query: string, maxResults: number): Promise<Record<string, unknown>[]> {
  const { status, body: text } = await fetchFrom<string>('arxivApi', '/query', 'text', {
    query: { search_query: query, max_results: maxResults, sortBy: 'submittedDate', sortOrder: 'descending' },
  });
  const upstream = new URL(baseUrl('arxivApi')).hostname;
  const feed = readUpstreamText({ text, upstream, status }, parseXml, ({ reason }) => `arXiv answered with a feed that is not XML (${reason})`);
  return childrenNamed(feed, 'entry').flatMap((entry) => {
    const paper = toArxivPaper(entry);
    return paper ? [toPaperDict(paper)] : [];
  });
}

/** Saves arxiv.org/pdf/<id>.pdf as `<folder>/<id>.pdf` and returns its path. */
export function downloadArxiv(paperId: string, folder: string): Promise<string> {
  return downloadPdf('arxiv', `/pdf/${pathPart(paperId)}.pdf`, pdfPath(folder, paperId));
}

/** The text of the paper's PDF, downloading it first when the folder does not hold it yet. */
export async function readArxiv(paperId: string, folder: string): Promise<string> {
  const file = pdfPath(folder, paperId);
  return pdfText(isPresent(file) ? file : await downloadArxiv(paperId, folder));
}
