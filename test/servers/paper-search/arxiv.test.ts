// The arXiv tools of paper_search (36 of its 36 GT calls) through the real stdio server against a
// loopback arXiv: the Atom query it sends, FastMCP's layout of the papers (one JSON text part per
// paper, none for no papers), PDFs saved only into the task workspace and typed by bytes, text
// read from a real PDF, the 2026 reference's retry on 429/5xx, and typed failures.
// @own-process: reading a PDF loads pdfjs-dist, which adds globals (Path2D from its own @napi-rs/canvas, self,
// navigator) and core-js polyfills to the process; chart.js in a later file would draw with that Path2D.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFake } from '../../../servers/shared/http-fake.js';
import { distinctArguments, gtCalls } from '../../support/reference-tools.js';
import { repoRoot } from '../../support/shared-assets.js';
import { startWebServer, type WebServer } from '../../support/web-server.js';
import { paperEnv, startPaperFake } from './fake-upstreams.js';

let fake: HttpFake;
let server: WebServer;
const scratch = path.join(repoRoot, 'media', `test-paper-search-${process.pid}`);
const context = (taskId: string) => ({ taskId, workspace: path.join(scratch, taskId) });

beforeAll(async () => {
  fake = await startPaperFake();
  server = await startWebServer('servers/paper-search/index.ts', paperEnv(fake));
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const firstPaper = {
  paper_id: '2304.02365v1',
  title: 'Modeling still matters: a surprising instance of catastrophic floating\n  point errors in mathematical biology and numerical methods for ODEs',
  authors: 'Cordula Reisch; Hendrik Ranocha',
  abstract:
    'We guide the reader on a journey through mathematical modeling and numerical\nanalysis, emphasizing the crucial interplay of both disciplines. Targeting\nundergraduate students with basic knowledge in dynamical systems and numerical\nmethods for ordinary differential equations, we explore a model from\nmathematical biology where numerical methods fail badly due to catastrophic\nfloating point errors. We analyze the reasons for this behavior by studying the\nsteady states of the model and use the theory of invariants to develop an\nalternative model that is suited for numerical simulations. Our story intends\nto motivate combining analytical and numerical knowledge, even in cases where\nthe world looks fine at first sight. We have set up an online repository\ncontaining an interactive notebook with all numerical experiments to make this\nstudy fully reproducible and useful for classroom teaching.',
  doi: '',
  published_date: '2023-04-05T11:02:59',
  pdf_url: 'http://arxiv.org/pdf/2304.02365v1',
  url: 'http://arxiv.org/abs/2304.02365v1',
  source: 'arxiv',
  updated_date: '2023-04-05T11:02:59',
  categories: 'math.HO; cs.NA; math.NA; 37M05, 65L06, 65L20, 65P40, 97D40',
  keywords: '',
  citations: 0,
  references: '',
  extra: '',
};

describe('search_arxiv', () => {
  it('sends the reference query and answers one two-space JSON text part per paper', async () => {
    const answer = await server.call('search_arxiv', { max_results: 5, query: 'ti:zebra OR abs:zebra' });
    expect(answer.isError).toBe(false);
    expect(fake.requestsTo('/arxiv-api/query').at(-1)?.query).toEqual({
      search_query: 'ti:zebra OR abs:zebra',
      max_results: '5',
      sortBy: 'submittedDate',
      sortOrder: 'descending',
    });
    const parts = answer.raw.content as Array<{ type: string; text: string }>;
    expect(parts).toHaveLength(2);
    expect(parts[0]?.text).toBe(JSON.stringify(firstPaper, null, 2));
    expect(JSON.parse(parts[1]?.text ?? '{}')).toMatchObject({ paper_id: '2211.06447v5', authors: 'Clarence Protin', published_date: '2022-11-11T19:08:59' });
    expect(JSON.parse(parts[1]?.text ?? '{}').abstract).toContain('\\emph{predicabilia}');
  });

  it('answers every distinct GT query; no papers is no content at all', async () => {
    const calls = gtCalls('paper_search');
    if (!calls) return void console.warn('shared GT data absent: skipping the GT sweep');
    for (const args of distinctArguments(calls, 'search_arxiv')) {
      const answer = await server.call('search_arxiv', args);
      expect(answer.isError, answer.text).toBe(false);
      expect(fake.requestsTo('/arxiv-api/query').at(-1)?.query.search_query).toBe(args.query);
    }
    const empty = await server.call('search_arxiv', { query: 'ti:nothing' });
    expect(empty.isError).toBe(false);
    expect(empty.raw.content).toEqual([]);
    expect(fake.requestsTo('/arxiv-api/query').at(-1)?.query.max_results).toBe('10');
  });

  it('an arXiv outage is typed; a body that is not XML is a bad response', async () => {
    fake.queueFault('/arxiv-api/query', { status: 503, headers: { 'retry-after': '120' } });
    expect((await server.call('search_arxiv', { query: 'ti:cow' })).errorMeta).toMatchObject({
      code: 'upstream_server_error',
      status: 503,
      retryAfterSec: 120,
    });
    fake.queueFault('/arxiv-api/query', { status: 200, body: '<feed><entry>', headers: { 'content-type': 'application/atom+xml' } });
    const broken = await server.call('search_arxiv', { query: 'ti:cow' });
    expect(broken.errorMeta).toMatchObject({ code: 'upstream_bad_response' });
    expect(broken.text).toMatch(/^Error executing tool search_arxiv: arXiv answered with a feed that is not XML/);
  });
});

describe('download_arxiv and read_arxiv_paper', () => {
  it('GT downloads land in the task workspace as typed PDFs; reading reuses them', async () => {
    const calls = gtCalls('paper_search');
    if (!calls) return void console.warn('shared GT data absent: skipping the GT sweep');
    for (const args of distinctArguments(calls, 'download_arxiv')) {
      const id = String(args.paper_id);
      const answer = await server.call('download_arxiv', args, context('gt-task'));
      expect(answer.isError, answer.text).toBe(false);
      const file = path.join(scratch, 'gt-task', 'downloads', `${id}.pdf`);
      expect(answer.text).toBe(file);
      expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(fake.requestsTo(`/arxiv/pdf/${id}.pdf`)).toHaveLength(1);
    }
    for (const args of distinctArguments(calls, 'read_arxiv_paper')) {
      const id = String(args.paper_id);
      const answer = await server.call('read_arxiv_paper', args, context('gt-task'));
      expect(answer.text).toBe(`Paper ${id}\nZebra stripes and thermoregulation\nSecond page: results (n = 12)`);
      expect(fake.requestsTo(`/arxiv/pdf/${id}.pdf`)).toHaveLength(1);
    }
  });

  it('reading a paper not downloaded yet downloads it first, into that task only', async () => {
    const answer = await server.call('read_arxiv_paper', { paper_id: '2510.99999v1', save_path: './papers' }, context('read-first'));
    expect(answer.text.split('\n')[0]).toBe('Paper 2510.99999v1');
    expect(existsSync(path.join(scratch, 'read-first', 'papers', '2510.99999v1.pdf'))).toBe(true);
    expect(existsSync(path.join(scratch, 'gt-task', 'papers'))).toBe(false);
  });

  it('a missing paper is the reference FastMCP error; a non-PDF answer is refused and not saved', async () => {
    const missing = await server.call('download_arxiv', { paper_id: 'missing.00001v1' }, context('bad'));
    expect(missing).toMatchObject({ isError: true, errorMeta: undefined });
    expect(missing.text).toBe('Error executing tool download_arxiv: 404 Client Error: Not Found for url: https://arxiv.org/pdf/missing.00001v1.pdf');
    const html = await server.call('read_arxiv_paper', { paper_id: 'notpdf.00001v1' }, context('bad'));
    expect(html.isError).toBe(true);
    expect(html.text).toMatch(/expected application\/pdf/);
    expect(existsSync(path.join(scratch, 'bad', 'downloads', 'notpdf.00001v1.pdf'))).toBe(false);
  });

  it('save_path cannot leave the workspace or the allowed roots', async () => {
    const up = await server.call('download_arxiv', { paper_id: '2510.08638v1', save_path: '../../../outside' }, context('escape'));
    expect(up.isError).toBe(true);
    expect(up.text).toContain('leaves the task workspace');
    const absolute = await server.call('download_arxiv', { paper_id: '2510.08638v1', save_path: '/tmp/papers' }, context('escape'));
    expect(absolute.isError).toBe(true);
    expect(absolute.text).toContain('outside the allowed folders');
  });

  it('an outage while downloading is typed', async () => {
    fake.queueFault(/^\/arxiv\/pdf\//, { status: 500, body: 'boom' });
    expect((await server.call('download_arxiv', { paper_id: '2510.00001v1' }, context('outage'))).errorMeta).toMatchObject({ code: 'upstream_server_error' });
  });
});

describe('arXiv retry with backoff (2026 reference)', () => {
  it('retries 429 and 5xx up to five attempts in all, then fails typed', async () => {
    const retrying = await startWebServer('servers/paper-search/index.ts', { ...paperEnv(fake), M3_HTTP_RETRIES: '', M3_HTTP_MAX_WAIT_MS: '20' });
    try {
      const before = fake.requestsTo('/arxiv-api/query').length;
      fake.queueFault('/arxiv-api/query', { status: 429 }, 2);
      fake.queueFault('/arxiv-api/query', { status: 502 }, 2);
      const recovered = await retrying.call('search_arxiv', { query: 'ti:lion OR abs:lion', max_results: 5 });
      expect(recovered.isError, recovered.text).toBe(false);
      expect(fake.requestsTo('/arxiv-api/query').length - before).toBe(5);
      fake.queueFault('/arxiv-api/query', { status: 503 }, 5);
      const failed = await retrying.call('search_arxiv', { query: 'ti:lion OR abs:lion', max_results: 5 });
      expect(failed.errorMeta).toMatchObject({ code: 'upstream_server_error', status: 503 });
      expect(fake.requestsTo('/arxiv-api/query').length - before).toBe(10);
    } finally {
      await retrying.close();
    }
  });
});
