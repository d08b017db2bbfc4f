// IACR ePrint Archive, scraped as the reference's IACRSearcher did. Search reads the result
// blocks (`div.mb-4`: the `a.paperlink` id, "(PDF)" link, "Last updated:" date, then in
// `div.ms-md-4` the <strong> title, italic authors, category badge and abstract); with
// fetch_details (the default) every result is replaced by its paper page: `h3.mb-3` title,
// italic authors split at commas and " and ", the pre-wrap abstract, keyword badges, and the
// "Publication info" / "History" lines of the page text. Pages were read with BeautifulSoup;
// here the same elements are matched by class (see html.ts).
import { PyDateTime, type Paper, toPaperDict } from './paper.js';
import { blocksStartingAt, elements, getStrippedText, getText, type HtmlElement, innerOf } from './html.js';
import { fetchFrom, randomBrowserAgent } from './upstreams.js';

const site = 'https://eprint.iacr.org';
const headers = () => ({ 'user-agent': randomBrowserAgent(), accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' });

/** The page text lines after "History" (up to "Short URL" / "License") that hold a ":". */
function historyOf(lines: string[]): string[] {
  const entries: string[] = [];
  let inHistory = false;
  for (const line of lines) {
    if (line.includes('History') && !line.includes(':')) {
      inHistory = true;
      continue;
    }
    if (inHistory && line.includes(':') && !line.trim().startsWith('Short URL')) entries.push(line.trim());
    else if (inHistory && (line.trim().startsWith('Short URL') || line.trim().startsWith('License'))) break;
  }
  return entries;
}

/** A paper page as get_paper_details read it; the id may also be given as the page URL. */
function toIacrDetails(paperIdOrUrl: string, html: string): Paper {
  let paperId = paperIdOrUrl;
  let url = `${site}/${paperId}`;
  if (paperIdOrUrl.startsWith('http')) {
    url = paperIdOrUrl;
    const parts = paperIdOrUrl.split('/');
    if (parts.length >= 2) paperId = `${parts.at(-2)}/${parts.at(-1)}`;
  }
  const title = innerOf(html, 'h3', 'mb-3');
  const authorsHtml = innerOf(html, 'p', 'fst-italic');
  const abstract = /<p\b[^>]*style="white-space: pre-wrap;"[^>]*>([\s\S]*?)<\/p>/i.exec(html)?.[1];
  const lines = getText(html).split('\n');
  const infoAt = lines.findIndex((line) => line.includes('Publication info'));
  const history = historyOf(lines);
  const lastUpdated = history.length > 0 ? PyDateTime.parse((history[0] ?? '').split(':')[0] ?? '') : undefined;
  const keywords = elements(html, 'a')
    .filter((link) => ['badge', 'bg-secondary', 'keyword'].every((name) => link.classes.includes(name)))
    .map((link) => getStrippedText(link.inner));
  return {
    paper_id: paperId,
    title: title === undefined ? '' : getStrippedText(title),
    authors:
      authorsHtml === undefined
        ? []
        : getStrippedText(authorsHtml)
            .replaceAll(' and ', ',')
            .split(',')
            .map((author) => author.trim()),
    abstract: abstract === undefined ? '' : getStrippedText(abstract),
    url,
    pdf_url: `${site}/${paperId}.pdf`,
    published_date: lastUpdated ?? PyDateTime.now(),
    updated_date: lastUpdated,
    source: 'iacr',
    categories: [],
    keywords,
    doi: '',
    citations: 0,
    extra: { publication_info: infoAt >= 0 && infoAt + 1 < lines.length ? (lines[infoAt + 1] ?? '').trim() : '', history: history.join('; ') },
  };
}

/** get_paper_details: undefined when the page does not answer 200 (the reference logged and gave None). */
export async function iacrDetails(paperIdOrUrl: string): Promise<Paper | undefined> {
  const path = paperIdOrUrl.startsWith('http') ? new URL(paperIdOrUrl).pathname : `/${paperIdOrUrl}`;
  const response = await fetchFrom<string>('iacr', path, 'text', { headers: headers(), acceptStatus: [400, 404, 410] });
  return response.status === 200 ? toIacrDetails(paperIdOrUrl, response.body) : undefined;
}

/** The ePrint id of a search result block (its `a.paperlink` in the `div.d-flex` header). */
function resultLink(block: string): { header: string; link: HtmlElement } | undefined {
  const header = innerOf(block, 'div', 'd-flex');
  const link = header === undefined ? undefined : elements(header, 'a').find((anchor) => anchor.classes.includes('paperlink'));
  return header !== undefined && link ? { header, link } : undefined;
}

/** One search result block read without its paper page (the reference's fallback). */
function toIacrSearchPaper(block: string): Paper | undefined {
  const found = resultLink(block);
  const contentAt = block.search(/<div\b[^>]*class="(?:[^"]*\s)?ms-md-4(?:\s[^"]*)?"/i);
  if (!found || contentAt < 0) return undefined;
  const { header, link } = found;
  const pdf = elements(header, 'a').find((anchor) => anchor.attributes.href !== undefined && getText(anchor.inner) === '(PDF)');
  const updatedText = getStrippedText(innerOf(header, 'small', 'ms-auto') ?? '');
  const updated = updatedText.includes('Last updated:') ? PyDateTime.parse(updatedText.replace('Last updated:', '').trim()) : undefined;
  const content = block.slice(contentAt);
  const title = elements(content, 'strong')[0]?.inner;
  const authors = innerOf(content, 'span', 'fst-italic');
  const category = innerOf(content, 'small', 'badge');
  const abstract = innerOf(content, 'p', 'search-abstract');
  return {
    paper_id: getStrippedText(link.inner),
    title: title === undefined ? '' : getStrippedText(title),
    authors:
      authors === undefined
        ? []
        : getStrippedText(authors)
            .split(',')
            .map((author) => author.trim()),
    abstract: abstract === undefined ? '' : getStrippedText(abstract),
    url: `${site}${link.attributes.href ?? ''}`,
    pdf_url: pdf ? `${site}${pdf.attributes.href}` : '',
    published_date: updated ?? new PyDateTime(1900),
    updated_date: updated,
    source: 'iacr',
    categories: category === undefined ? [] : [getStrippedText(category)],
    keywords: [],
    doi: '',
    citations: 0,
  };
}

export async function searchIacr(query: string, maxResults: number, fetchDetails: boolean): Promise<Record<string, unknown>[]> {
  const response = await fetchFrom<string>('iacr', '/search', 'text', { query: { q: query }, headers: headers(), acceptStatus: [400, 404] });
  if (response.status !== 200) return [];
  const papers: Paper[] = [];
  for (const block of blocksStartingAt(response.body, 'div', 'mb-4')) {
    if (papers.length >= maxResults) break;
    const found = resultLink(block);
    if (!found) continue;
    // As the reference: with details on, the paper page wins; the block is read only without it.
    const detailed = fetchDetails ? await iacrDetails(getStrippedText(found.link.inner)) : undefined;
    const paper = detailed ?? toIacrSearchPaper(block);
    if (paper) papers.push(paper);
  }
  return papers.map(toPaperDict);
}

export function iacrFileName(paperId: string): string {
  return `iacr_${paperId.replaceAll('/', '_')}`;
}
