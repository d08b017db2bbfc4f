// PubMed for paper_search: ESearch (XML) for ids, then EFetch (XML) for the articles, read as
// the reference's ElementTree code read them: `.text` of the first matching element (text before
// any inline markup), and an article whose code raised (no ArticleTitle, an author without
// LastName or Initials, a PubDate without Year) is skipped, as the reference's try/except did.
import { pythonStr } from '../shared/python-format.js';
import { type Paper, PyDateTime, toPaperDict } from './paper.js';
import { readUpstreamText } from '../shared/http-body.js';
import { baseUrl, fetchFrom } from './upstreams.js';
import { child, descendants, findPath, parseXml, type XmlElement } from './xml.js';

async function fetchXml(path: string, query: Record<string, string | number>): Promise<XmlElement> {
  const { status, body: text } = await fetchFrom<string>('eutils', path, 'text', { query });
  const upstream = new URL(baseUrl('eutils')).hostname;
  return readUpstreamText({ text, upstream, status }, parseXml, ({ reason }) => `NCBI ${path.slice(1)} answered with a body that is not XML (${reason})`);
}

class SkippedArticle extends Error {}

function required(element: XmlElement | undefined): XmlElement {
  if (!element) throw new SkippedArticle();
  return element;
}

function toPubmedPaper(article: XmlElement): Paper | undefined {
  try {
    const pmid = required(findPath(article, 'PMID')).text;
    const title = required(findPath(article, 'ArticleTitle')).text;
    const authors = descendants(article, 'Author').map(
      (author) => `${pythonStr(required(child(author, 'LastName')).text ?? null)} ${pythonStr(required(child(author, 'Initials')).text ?? null)}`,
    );
    const abstract = findPath(article, 'AbstractText')?.text ?? '';
    const year = required(findPath(article, 'PubDate/Year')).text ?? '';
    if (!/^\d{4}$/.test(year)) throw new SkippedArticle();
    const published = new PyDateTime(Number(year));
    const doi = descendants(article, 'ELocationID').find((element) => element.attributes.EIdType === 'doi');
    return {
      paper_id: pmid ?? '',
      title,
      authors,
      abstract,
      url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
      pdf_url: '',
      published_date: published,
      updated_date: published,
      source: 'pubmed',
      categories: [],
      keywords: [],
      doi: doi ? doi.text : '',
    };
  } catch (error) {
    if (error instanceof SkippedArticle) return undefined;
    throw error;
  }
}

export async function searchPubmed(query: string, maxResults: number): Promise<Record<string, unknown>[]> {
  const found = await fetchXml('/esearch.fcgi', { db: 'pubmed', term: query, retmax: maxResults, retmode: 'xml' });
  const ids = descendants(found, 'Id').map((id) => id.text ?? '');
  const articles = await fetchXml('/efetch.fcgi', { db: 'pubmed', id: ids.join(','), retmode: 'xml' });
  return descendants(articles, 'PubmedArticle').flatMap((article) => {
    const paper = toPubmedPaper(article);
    return paper ? [toPaperDict(paper)] : [];
  });
}
