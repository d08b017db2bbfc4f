// The other paper_search sources through the real stdio server against loopback fakes: PubMed
// (XML), bioRxiv/medRxiv, Google Scholar and IACR (HTML), Semantic Scholar and CrossRef, with
// the requests they send and the reference's layouts, quirks included; the explanation tools;
// schema parity with the catalog, the GT argument check, and the offline smoke call.
// @own-process: reading a PDF loads pdfjs-dist, which adds globals (Path2D from its own @napi-rs/canvas, self,
// navigator) and core-js polyfills to the process; chart.js in a later file would draw with that Path2D.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/paper-search/smoke.js';
import type { HttpFake } from '../../../servers/shared/http-fake.js';
import { argumentCheckProblems, catalogTools, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { repoRoot } from '../../support/shared-assets.js';
import { runOfflineSmoke, startWebServer, type WebServer } from '../../support/web-server.js';
import { fixture, paperEnv, startPaperFake } from './fake-upstreams.js';

let fake: HttpFake;
let server: WebServer;
const scratch = path.join(repoRoot, 'media', `test-paper-sources-${process.pid}`);
const context = { taskId: 'sources', workspace: scratch };

beforeAll(async () => {
  fake = await startPaperFake();
  server = await startWebServer('servers/paper-search/index.ts', paperEnv(fake));
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The papers of a search answer: one JSON text part each. */
async function papers(name: string, args: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const answer = await server.call(name, args, context);
  expect(answer.isError, answer.text).toBe(false);
  return (answer.raw.content as Array<{ text: string }>).map((part) => JSON.parse(part.text) as Record<string, unknown>);
}

const dateOnly = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

describe('tool surface', () => {
  it('lists the 23 catalog tools with the reference schemas; every GT call passes the check', () => {
    const catalog = catalogTools('paper_search');
    const calls = gtCalls('paper_search');
    if (!catalog || !calls) return void console.warn('shared catalog or GT absent: skipping schema parity');
    expect(server.tools.map((tool) => tool.name).sort()).toEqual(Object.keys(catalog).sort());
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls).toHaveLength(36);
    expect(argumentCheckProblems('paper_search', server.tools, calls)).toEqual([]);
  });

  it('the offline smoke call passes against its own fake', async () => {
    const outcome = await runOfflineSmoke('servers/paper-search/index.ts', smoke);
    expect(outcome.passed, outcome.text).toBe(true);
    expect(smoke.accept('not json')).toBe(false);
  });
});

describe('PubMed', () => {
  it('ESearch then EFetch in XML; articles read as ElementTree .text, unreadable ones skipped', async () => {
    const found = await papers('search_pubmed', { query: 'handedness', max_results: 3 });
    expect(fake.requestsTo('/eutils/esearch.fcgi').at(-1)?.query).toEqual({ db: 'pubmed', term: 'handedness', retmax: '3', retmode: 'xml' });
    expect(fake.requestsTo('/eutils/efetch.fcgi').at(-1)?.query).toEqual({ db: 'pubmed', id: '26886152,90000001,90000002', retmode: 'xml' });
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({
      paper_id: '26886152',
      title: 'Need for cognition moderates paranormal beliefs and magical ideation in inconsistent-handers.',
      authors: 'Prichard EC; Christman SD',
      doi: '10.1080/1357650X.2015.1125914',
      published_date: '2016-01-01T00:00:00',
      updated_date: '2016-01-01T00:00:00',
      url: 'https://pubmed.ncbi.nlm.nih.gov/26886152/',
      pdf_url: '',
      source: 'pubmed',
      extra: '',
    });
    expect(String(found[0]?.abstract)).toMatch(/^A growing literature suggests/);
    expect(found[1]).toMatchObject({ paper_id: '90000002', title: 'Effects of ', abstract: 'Synthetic background.', doi: '' });
  });

  it('download and read answer the reference explanations', async () => {
    expect((await server.call('download_pubmed', { paper_id: '26886152' })).text).toMatch(/^PubMed does not provide direct PDF downloads\./);
    expect((await server.call('read_pubmed_paper', { paper_id: '26886152' })).text).toMatch(/^PubMed papers cannot be read directly through this tool\./);
  });
});

describe('bioRxiv and medRxiv', () => {
  it('search lists the last 30 days of the category named by the query', async () => {
    const found = await papers('search_biorxiv', { query: 'Cell Biology' });
    const request = fake.requestsTo(/^\/biorxiv-api\//).at(-1);
    const today = new Date();
    expect(request?.path).toBe(`/biorxiv-api/details/biorxiv/${dateOnly(new Date(today.getTime() - 30 * 86400000))}/${dateOnly(today)}/0`);
    expect(request?.query).toEqual({ category: 'cell_biology' });
    expect(found).toEqual([
      {
        paper_id: '10.1101/2025.09.30.000001',
        title: 'Placeholder preprint on cell biology',
        authors: 'Doe, J.; Roe, R.',
        abstract: 'Placeholder abstract.',
        doi: '10.1101/2025.09.30.000001',
        published_date: '2025-10-01T00:00:00',
        pdf_url: 'https://www.biorxiv.org/content/10.1101/2025.09.30.000001v2.full.pdf',
        url: 'https://www.biorxiv.org/content/10.1101/2025.09.30.000001v2',
        source: 'biorxiv',
        updated_date: '2025-10-01T00:00:00',
        categories: 'cell biology',
        keywords: '',
        citations: 0,
        references: '',
        extra: '',
      },
    ]);
    const medrxiv = await papers('search_medrxiv', { query: 'epidemiology', max_results: 1 });
    expect(fake.requestsTo(/^\/biorxiv-api\//).at(-1)?.path).toContain('/details/medrxiv/');
    expect(medrxiv[0]).toMatchObject({ source: 'medrxiv', url: 'https://www.medrxiv.org/content/10.1101/2025.09.30.000001v2' });
  });

  it('download saves <doi>v1.full.pdf as <doi with _>.pdf with a browser agent; read returns its text', async () => {
    const saved = await server.call('download_biorxiv', { paper_id: '10.1101/2025.09.30.000001' }, context);
    expect(saved.text).toBe(path.join(scratch, 'downloads', '10.1101_2025.09.30.000001.pdf'));
    const request = fake.requestsTo(/^\/biorxiv\/content\//).at(-1);
    expect(request?.path).toBe('/biorxiv/content/10.1101/2025.09.30.000001v1.full.pdf');
    expect(request?.headers['user-agent']).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0/);
    const text = await server.call('read_medrxiv_paper', { paper_id: '10.1101/2025.09.29.000002' }, context);
    expect(text.text).toBe('Paper 10.1101/2025.09.29.000002\nZebra stripes and thermoregulation\nSecond page: results (n = 12)');
  });
});

describe('Google Scholar', () => {
  it('reads the result blocks as the reference did, title pieces joined without spaces', async () => {
    const found = await papers('search_google_scholar', { query: 'condensed cube' });
    const requests = fake.requestsTo('/scholar/scholar');
    expect(requests.at(-2)?.query).toEqual({ q: 'condensed cube', start: '0', hl: 'en', as_sdt: '0,5' });
    expect(requests.at(-1)?.query.start).toBe('10');
    expect(requests.at(-1)?.headers['user-agent']).toMatch(/^Mozilla\/5\.0 \(/);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({
      title: 'MinimalCondensed Cube: data organization, fast computation, and incremental update',
      authors: 'Z Wang; Y Xu',
      abstract:
        'The condensed cube has been proposed to reduce the huge size of data cubes in OLAP system. The intuition of condensed cube is to compress semantically redundant tuples into their representative Base Single Tuples (BSTs). However, previous studies showed that a ',
      url: 'http://ieeexplore.ieee.org/abstract/document/4548235/',
      published_date: '2008-01-01T00:00:00',
      source: 'google_scholar',
    });
    expect(String(found[0]?.paper_id)).toMatch(/^gs_-?\d+$/);
    expect(found[1]).toMatchObject({ title: 'A & B survey', authors: 'Z Wu', published_date: '2020-01-01T00:00:00', url: 'https://arxiv.org/pdf/1.pdf' });
  });

  it("Scholar's CAPTCHA page is typed as rate limiting", async () => {
    const { fixture } = await import('./fake-upstreams.js');
    fake.queueFault('/scholar/scholar', { body: String(fixture('scholar-captcha')), headers: { 'content-type': 'text/html' } });
    expect((await server.call('search_google_scholar', { query: 'x', max_results: 1 })).errorMeta).toMatchObject({ code: 'upstream_rate_limited' });
  });
});

describe('IACR ePrint', () => {
  it('with details, each result is its paper page; a page that fails falls back to the result block', async () => {
    const found = await papers('search_iacr', { query: 'side channel', max_results: 5 });
    expect(fake.requestsTo('/iacr/search').at(-1)?.query).toEqual({ q: 'side channel' });
    expect(found).toHaveLength(2);
    expect(found[0]).toEqual({
      paper_id: '2026/1632',
      title: 'Counters and Nonces for Mitigating Ciphertext Side Channels',
      authors: 'Moritz Peters; Jens Alich; Ashwin Jha; Gregor Leander; Yuval Yarom; Tim Güneysu',
      abstract: 'Recent works have highlighted the risk of deterministic memory encryption, as used for example in AMD SEV.',
      doi: '',
      published_date: '2026-08-07T00:00:00',
      pdf_url: 'https://eprint.iacr.org/2026/1632.pdf',
      url: 'https://eprint.iacr.org/2026/1632',
      source: 'iacr',
      updated_date: '2026-08-07T00:00:00',
      categories: '',
      keywords: 'side channels; memory encryption',
      citations: 0,
      references: '',
      extra: "{'publication_info': 'Preprint.', 'history': '2026-08-07: approved; 2026-08-06: received'}",
    });
    expect(found[1]).toMatchObject({
      paper_id: '2026/1614',
      title: 'LFSRs and Boolean Masking: An In-depth Security Analysis',
      authors: 'Anna Guinet; Jan Schoone; Niklas Höher; Dina Hesse; Tim Güneysu',
      categories: 'Implementation',
      url: 'https://eprint.iacr.org/2026/1614',
      pdf_url: 'https://eprint.iacr.org/2026/1614.pdf',
      published_date: '2026-08-05T00:00:00',
    });
    const before = fake.requestsTo(/^\/iacr\/2026\//).length;
    const plain = await papers('search_iacr', { query: 'side channel', max_results: 1, fetch_details: false });
    expect(plain[0]).toMatchObject({ paper_id: '2026/1632', categories: 'Applications', extra: '' });
    expect(fake.requestsTo(/^\/iacr\/2026\//).length).toBe(before);
  });

  it('download saves iacr_<id>.pdf; a missing PDF is the reference message; read adds the metadata header', async () => {
    const saved = await server.call('download_iacr', { paper_id: '2026/1632' }, context);
    expect(saved.text).toBe(path.join(scratch, 'downloads', 'iacr_2026_1632.pdf'));
    expect(await server.call('download_iacr', { paper_id: '2026/9999' }, context)).toMatchObject({ isError: true, text: 'Failed to download PDF: HTTP 404' });
    const read = await server.call('read_iacr_paper', { paper_id: '2026/1632' }, context);
    expect(read.text).toBe(
      [
        'Title: Counters and Nonces for Mitigating Ciphertext Side Channels',
        'Authors: Moritz Peters, Jens Alich, Ashwin Jha, Gregor Leander, Yuval Yarom, Tim Güneysu',
        'Published Date: 2026-08-07 00:00:00',
        'URL: https://eprint.iacr.org/2026/1632',
        `PDF downloaded to: ${path.join(scratch, 'downloads', 'iacr_2026_1632.pdf')}`,
        '='.repeat(80),
        '',
        '--- Page 1 ---',
        'Paper 2026/1632',
        'Zebra stripes and thermoregulation',
        '',
        '--- Page 2 ---',
        'Second page: results (n = 12)',
      ].join('\n'),
    );
    expect((await server.call('read_iacr_paper', { paper_id: '2026/1614' }, context)).text).toBe('Error: Could not find PDF URL for paper 2026/1614');
  });
});

describe('Semantic Scholar', () => {
  it('searches with the reference field list (no key sent when none is set)', async () => {
    const found = await papers('search_semantic', { query: 'literature graph', year: '2018', max_results: 3 });
    const request = fake.requestsTo('/s2/paper/search').at(-1);
    expect(request?.query).toEqual({
      query: 'literature graph',
      limit: '3',
      fields: 'title,abstract,year,citationCount,authors,url,publicationDate,externalIds,fieldsOfStudy',
      year: '2018',
    });
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(found).toEqual([
      {
        paper_id: '649def34f8be52c8b66281af98ae884c09aef38b',
        title: 'Construction of the Literature Graph in Semantic Scholar',
        authors: 'Waleed Ammar; Dirk Groeneveld',
        abstract: null,
        doi: '10.18653/v1/N18-3011',
        published_date: '2018-05-06T00:00:00',
        pdf_url: '',
        url: 'https://www.semanticscholar.org/paper/649def34f8be52c8b66281af98ae884c09aef38b',
        source: 'semantic',
        updated_date: '',
        categories: 'Computer Science',
        keywords: '',
        citations: 365,
        references: '',
        extra: '',
      },
    ]);
  });

  it('download and read answer the reference message: its field list has no PDF link', async () => {
    const id = '649def34f8be52c8b66281af98ae884c09aef38b';
    expect(await server.call('download_semantic', { paper_id: id }, context)).toMatchObject({
      isError: true,
      text: `Error: Could not find PDF URL for paper ${id}`,
    });
    expect(fake.requestsTo(`/s2/paper/${id}`).at(-1)?.query.fields).toContain('externalIds');
    expect((await server.call('read_semantic_paper', { paper_id: `DOI:10.18653/v1/N18-3011` }, context)).text).toBe(
      'Error: Could not find PDF URL for paper DOI:10.18653/v1/N18-3011',
    );
    expect(fake.requestsTo(/^\/s2\/paper\/DOI/).at(-1)?.path).toBe('/s2/paper/DOI:10.18653/v1/N18-3011');
  });

  it('an open-access PDF link on a real host is fetched through M3_UPSTREAM_PDF_LINKS_URL, without the key', async () => {
    const id = '649def34f8be52c8b66281af98ae884c09aef38b';
    const paper = fixture<Record<string, unknown>>('semantic-paper');
    fake.queueFault(`/s2/paper/${id}`, { body: { ...paper, openAccessPdf: { url: 'https://arxiv.org/pdf/1805.02262v1', status: 'GREEN' } } });
    const saved = await server.call('download_semantic', { paper_id: id }, context);
    expect(saved.isError, saved.text).toBe(false);
    expect(saved.text).toMatch(/semantic_649def34f8be52c8b66281af98ae884c09aef38b\.pdf/);
    const fetched = fake.requestsTo(/^\/pdf-links\//).at(-1);
    expect(fetched?.path).toBe('/pdf-links/arxiv.org/pdf/1805.02262v1');
    expect(fetched?.headers['x-api-key']).toBeUndefined();
  });
});

describe('CrossRef', () => {
  it('search: the polite-pool request and the reference layout, extra as Python str() of a dict', async () => {
    const found = await papers('search_crossref', { query: 'google queries', max_results: 2 });
    const request = fake.requestsTo('/crossref/works').at(-1);
    expect(request?.query).toEqual({ query: 'google queries', rows: '2', sort: 'relevance', order: 'desc', mailto: 'paper-search@example.org' });
    expect(request?.headers['user-agent']).toMatch(/^paper-search-mcp\/0\.1\.3 /);
    expect(found[0]).toEqual({
      paper_id: '10.1145/3308558.3313535',
      title: 'Estimating the Total Volume of Queries to Google',
      authors: 'Fabrizio Lillo; Salvatore Ruggieri',
      abstract: '',
      doi: '10.1145/3308558.3313535',
      published_date: '2019-01-01T00:00:00',
      pdf_url: '',
      url: 'http://dx.doi.org/10.1145/3308558.3313535',
      source: 'crossref',
      updated_date: '',
      categories: 'proceedings-article',
      keywords: '',
      citations: 0,
      references: '',
      extra:
        "{'publisher': 'ACM Press', 'container_title': \"The World Wide Web Conference on   - WWW '19\", 'volume': '', 'issue': '', 'page': '', 'issn': [], 'isbn': ['9781450366748'], 'crossref_type': 'proceedings-article', 'member': '320', 'prefix': '10.1145'}",
    });
  });

  it('by DOI: one JSON object; an unknown DOI is {}; download and read explain themselves', async () => {
    const answer = await server.call('get_crossref_paper_by_doi', { doi: '10.1007/978-3-319-16574-5_2' });
    expect(fake.requestsTo(/^\/crossref\/works\//).at(-1)?.path).toBe('/crossref/works/10.1007/978-3-319-16574-5_2');
    expect(JSON.parse(answer.text)).toMatchObject({
      title: 'Properties of Plane Electromagnetic Waves',
      published_date: '2015-01-01T00:00:00',
      categories: 'book-chapter',
    });
    expect(answer.text).toContain("'page': '47-95'");
    expect((await server.call('get_crossref_paper_by_doi', { doi: '10.9999/unknown' })).text).toBe('{}');
    expect((await server.call('download_crossref', { paper_id: '10.1/x' })).text).toMatch(/^CrossRef does not provide direct PDF downloads\./);
    expect((await server.call('read_crossref_paper', { paper_id: '10.1/x' })).text).toMatch(/^CrossRef papers cannot be read directly/);
  });

  it('an outage is typed', async () => {
    fake.queueFault('/crossref/works', { status: 429, headers: { 'retry-after': '7' } });
    expect((await server.call('search_crossref', { query: 'x' })).errorMeta).toMatchObject({ code: 'upstream_rate_limited', retryAfterSec: 7 });
  });
});

describe('downloaded files', () => {
  it('are real PDFs in the workspace', () => {
    expect(
      readFileSync(path.join(scratch, 'downloads', 'iacr_2026_1632.pdf'))
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });
});
