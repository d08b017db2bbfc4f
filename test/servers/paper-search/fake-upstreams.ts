// One loopback fake for every service paper_search reads, answering from ./fixtures (each names
// its source) and with PDFs built by tools/fixture-pdf.ts, plus the env that points the server at it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HttpFake, startHttpFake } from '../../../servers/shared/http-fake.js';
import { loadFixtureBody } from '../../support/web-server.js';
import { buildPdf } from '../../../tools/fixture-pdf.js';

const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixture<T = unknown>(name: string): T {
  return loadFixtureBody<T>(fixtureDir, name);
}

/** The text lines of the PDF the fake serves for a paper id. */
function pdfLines(paperId: string): string[][] {
  return [[`Paper ${paperId}`, 'Zebra stripes and thermoregulation'], ['Second page: results (n = 12)']];
}

const xml = (body: unknown) => ({ body: String(body), headers: { 'content-type': 'application/xml; charset=utf-8' } });
const html = (body: unknown) => ({ body: String(body), headers: { 'content-type': 'text/html; charset=utf-8' } });
const pdf = (id: string) => ({ body: buildPdf(pdfLines(id)), headers: { 'content-type': 'application/pdf' } });

export async function startPaperFake(): Promise<HttpFake> {
  return startHttpFake([
    {
      path: '/arxiv-api/query',
      reply: (request) => xml(fixture(String(request.query.search_query).includes('nothing') ? 'arxiv-feed-empty' : 'arxiv-feed-math-ho')),
    },
    {
      path: /^\/arxiv\/pdf\//,
      reply: (request) => {
        const id = request.path.replace(/^\/arxiv\/pdf\//, '').replace(/\.pdf$/, '');
        if (id.startsWith('missing')) return { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
        if (id.startsWith('notpdf')) return html('<html><body>not a pdf</body></html>');
        return pdf(id);
      },
    },
    { path: '/eutils/esearch.fcgi', reply: xml(fixture('pubmed-esearch')) },
    { path: '/eutils/efetch.fcgi', reply: xml(fixture('pubmed-efetch')) },
    { path: /^\/biorxiv-api\/details\//, reply: { body: fixture('biorxiv-details') } },
    { path: /^\/(biorxiv|medrxiv)\/content\//, reply: (request) => pdf((request.path.split('/content/')[1] ?? '').replace(/v1\.full\.pdf$/, '')) },
    {
      path: '/scholar/scholar',
      reply: (request) => html(request.query.start === '0' ? fixture('scholar-results') : '<html><body><div id="gs_res_ccl_mid"></div></body></html>'),
    },
    { path: '/iacr/search', reply: html(fixture('iacr-search')) },
    { path: '/iacr/2026/1632', reply: html(fixture('iacr-paper')) },
    { path: '/iacr/2026/1614', reply: { status: 404, body: 'Not found' } },
    {
      path: /^\/iacr\/\d{4}\/\d+\.pdf$/,
      reply: (request) => (request.path.includes('9999') ? { status: 404, body: 'nope' } : pdf(request.path.slice('/iacr/'.length, -4))),
    },
    { path: '/s2/paper/search', reply: { body: fixture('semantic-search') } },
    { path: /^\/s2\/paper\//, reply: { body: fixture('semantic-paper') } },
    // Open-access PDF links Semantic Scholar names, on any host, through M3_UPSTREAM_PDF_LINKS_URL (<override>/<host><path>).
    { path: /^\/pdf-links\/arxiv\.org\/pdf\//, reply: (request) => pdf(request.path.replace(/^\/pdf-links\/arxiv\.org\/pdf\//, '')) },
    { path: '/crossref/works', reply: { body: fixture('crossref-works') } },
    {
      path: /^\/crossref\/works\//,
      reply: (request) => (request.path.includes('10.9999') ? { status: 404, body: 'Resource not found.' } : { body: fixture('crossref-work') }),
    },
  ]);
}

export function paperEnv(fake: HttpFake): Record<string, string> {
  return {
    M3_UPSTREAM_ARXIV_API_URL: `${fake.url}/arxiv-api`,
    M3_UPSTREAM_ARXIV_URL: `${fake.url}/arxiv`,
    M3_UPSTREAM_NCBI_EUTILS_URL: `${fake.url}/eutils`,
    M3_UPSTREAM_BIORXIV_API_URL: `${fake.url}/biorxiv-api`,
    M3_UPSTREAM_BIORXIV_URL: `${fake.url}/biorxiv`,
    M3_UPSTREAM_MEDRXIV_URL: `${fake.url}/medrxiv`,
    M3_UPSTREAM_GOOGLE_SCHOLAR_URL: `${fake.url}/scholar`,
    M3_UPSTREAM_IACR_URL: `${fake.url}/iacr`,
    M3_UPSTREAM_SEMANTIC_SCHOLAR_URL: `${fake.url}/s2`,
    M3_UPSTREAM_CROSSREF_URL: `${fake.url}/crossref`,
    M3_UPSTREAM_PDF_LINKS_URL: `${fake.url}/pdf-links`,
    M3_SCHOLAR_PAUSE_MS: '0',
    SEMANTIC_SCHOLAR_API_KEY: '',
  };
}
