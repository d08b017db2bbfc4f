// Google Scholar, scraped as the reference scraped it: result pages of 10 (`q`, `start`,
// `hl=en`, `as_sdt=0,5`) after a 1-3 s pause, each `div.gs_ri` read for its `h3.gs_rt` title
// (get_text(strip=True), so words split by inline tags run together, "[PDF]"/"[HTML]" removed),
// link, `div.gs_a` authors (text before the first "-", split at commas) and year, and
// `div.gs_rs` snippet. Python's `hash(url)` made the id differ per process; ours is a stable
// hash. A CAPTCHA page is typed as rate limiting instead of the reference's silent [].
import { createHash } from 'node:crypto';
import { type Paper, PyDateTime, toPaperDict } from './paper.js';
import { blocksStartingAt, firstLink, getStrippedText, getText, innerOf } from './html.js';
import { UpstreamError } from '../shared/upstream-error.js';
import { baseUrl, fetchFrom, randomBrowserAgent } from './upstreams.js';
import { sleep } from '../../src/core/sleep.js';

/** Pages read at most: the reference looped until enough papers parsed, without a bound. */
const maxPages = 10;

function pauseMs(): number {
  const configured = process.env.M3_SCHOLAR_PAUSE_MS?.trim();
  if (configured && Number.isFinite(Number(configured))) return Number(configured);
  return 1000 + Math.random() * 2000;
}

/** A stable stand-in for Python's per-process `hash(str)`: a signed 64-bit integer. */
function stableHash(text: string): string {
  return createHash('sha256').update(text).digest().readBigInt64BE(0).toString();
}

function extractYear(text: string, currentYear: number): number | undefined {
  for (const word of text.split(/\s+/)) {
    if (/^\d+$/.test(word) && Number(word) >= 1900 && Number(word) <= currentYear) return Number(word);
  }
  return undefined;
}

function toScholarPaper(block: string, currentYear = new Date().getFullYear()): Paper | undefined {
  const titleHtml = innerOf(block, 'h3', 'gs_rt');
  const infoHtml = innerOf(block, 'div', 'gs_a');
  if (titleHtml === undefined || infoHtml === undefined) return undefined;
  const abstractHtml = innerOf(block, 'div', 'gs_rs');
  const url = firstLink(titleHtml)?.href ?? '';
  const info = getText(infoHtml);
  const year = extractYear(info, currentYear);
  return {
    paper_id: `gs_${stableHash(url)}`,
    title: getStrippedText(titleHtml).replace('[PDF]', '').replace('[HTML]', ''),
    authors: (info.split('-')[0] ?? '').split(',').map((author) => author.trim()),
    abstract: abstractHtml === undefined ? '' : getText(abstractHtml),
    url,
    pdf_url: '',
    published_date: year ? new PyDateTime(year) : undefined,
    updated_date: undefined,
    source: 'google_scholar',
    categories: [],
    keywords: [],
    doi: '',
    citations: 0,
  };
}

function isCaptcha(html: string): boolean {
  return /id="gs_captcha/.test(html) || /not a robot/i.test(html);
}

export async function searchScholar(query: string, maxResults: number): Promise<Record<string, unknown>[]> {
  const papers: Paper[] = [];
  const perPage = Math.min(10, maxResults);
  let start = 0;
  for (let page = 0; page < maxPages && papers.length < maxResults; page += 1) {
    await sleep(pauseMs());
    const response = await fetchFrom<string>('scholar', '/scholar', 'text', {
      query: { q: query, start, hl: 'en', as_sdt: '0,5' },
      headers: { 'user-agent': randomBrowserAgent(), accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' },
    });
    if (isCaptcha(response.body)) {
      throw new UpstreamError('upstream_rate_limited', 'Google Scholar answered with its CAPTCHA page (automated queries blocked)', {
        upstream: new URL(baseUrl('scholar')).hostname,
      });
    }
    const blocks = blocksStartingAt(response.body, 'div', 'gs_ri');
    if (blocks.length === 0) break;
    for (const block of blocks) {
      if (papers.length >= maxResults) break;
      const paper = toScholarPaper(block);
      if (paper) papers.push(paper);
    }
    start += perPage;
  }
  return papers.slice(0, maxResults).map(toPaperDict);
}
