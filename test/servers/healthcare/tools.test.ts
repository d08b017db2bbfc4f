// The other ten healthcare-mcp tools through the real stdio server against loopback fakes, with
// the GT arguments: requests sent, reference layouts, per-task usage counters, a hand-built
// DICOM file; plus schema parity with the catalog, the GT argument check, and the smoke call.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smoke } from '../../../servers/healthcare/smoke.js';
import { sanitizeText } from '../../../servers/healthcare/reference-shape.js';
import type { HttpFake } from '../../../servers/shared/http-fake.js';
import { argumentCheckProblems, catalogTools, fallbackFixtureProblems, gtCalls, schemaParityProblems } from '../../support/reference-tools.js';
import { repoRoot } from '../../support/shared-assets.js';
import { runOfflineSmoke, startWebServer, type WebServer } from '../../support/web-server.js';
import { buildDicom } from './dicom-file.js';
import { healthcareEnv, startHealthcareFake } from './fake-upstreams.js';

let fake: HttpFake;
let server: WebServer;
const scratch = path.join(repoRoot, 'media', `test-healthcare-${process.pid}`);

beforeAll(async () => {
  fake = await startHealthcareFake();
  server = await startWebServer('servers/healthcare/index.ts', healthcareEnv(fake));
  mkdirSync(scratch, { recursive: true });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function json(name: string, args: Record<string, unknown>, context?: { taskId: string; workspace: string }): Promise<Record<string, unknown>> {
  const answer = await server.call(name, args, context);
  expect(answer.isError, answer.text).toBe(false);
  return JSON.parse(answer.text) as Record<string, unknown>;
}

describe('tool surface', () => {
  it('lists the 11 catalog tools with the reference schemas, and every GT call passes the argument check', () => {
    const catalog = catalogTools('healthcare-mcp');
    const calls = gtCalls('healthcare-mcp');
    if (!catalog || !calls) return void console.warn('shared catalog or GT absent: skipping schema parity');
    expect(server.tools.map((tool) => tool.name).sort()).toEqual(Object.keys(catalog).sort());
    expect(schemaParityProblems(server.tools, catalog)).toEqual([]);
    expect(calls).toHaveLength(83);
    expect(argumentCheckProblems('healthcare-mcp', server.tools, calls)).toEqual([]);
  });

  it('the curated fallback fixtures are well formed and their arguments pass the check', () => {
    expect(fallbackFixtureProblems('healthcare-mcp', server.tools)).toEqual([]);
  });
});

describe('web tools with GT arguments', () => {
  it('pubmed_search: ESearch then ESummary, reference article layout', async () => {
    const answer = await json('pubmed_search', { max_results: 3, query: 'Amoxicillin' });
    expect(fake.requestsTo('/eutils/esearch.fcgi').at(-1)?.query).toEqual({ db: 'pubmed', term: 'Amoxicillin', retmax: '3', format: 'json' });
    expect(fake.requestsTo('/eutils/esummary.fcgi').at(-1)?.query).toEqual({ db: 'pubmed', id: '17428307', retmode: 'json' });
    expect(answer).toEqual({
      status: 'success',
      query: 'Amoxicillin',
      total_results: 2781,
      date_range: '',
      open_access: false,
      articles: [
        {
          id: '17428307',
          title: 'Pathogenic and opportunistic free-living amoebae: Acanthamoeba spp., Balamuthia mandrillaris, Naegleria fowleri, and Sappinia diploidea.',
          authors: ['Visvesvara GS', 'Moura H', 'Schuster FL'],
          journal: 'FEMS immunology and medical microbiology',
          publication_date: '2007 Jun',
          abstract_url: 'https://pubmed.ncbi.nlm.nih.gov/17428307/',
          doi: '10.1111/j.1574-695X.2007.00232.x',
        },
      ],
    });
  });

  it('pubmed_search adds the open-access filter and the [pdat] year window', async () => {
    await json('pubmed_search', { query: 'warfarin', date_range: '5', open_access: true });
    const year = new Date().getFullYear();
    expect(fake.requestsTo('/eutils/esearch.fcgi').at(-1)?.query.term).toBe(`warfarin AND open access[filter] AND ${year - 5}:${year}[pdat]`);
    expect(fake.requestsTo('/eutils/esearch.fcgi').at(-1)?.query.retmax).toBe('5');
  });

  it('clinical_trials_search: no status filter for "all", the mapped filter otherwise', async () => {
    const answer = await json('clinical_trials_search', { condition: 'chronic pain', max_results: 5, status: 'all' });
    expect(fake.requestsTo('/ct/studies').at(-1)?.query).toEqual({ 'query.cond': 'chronic pain', pageSize: '5', format: 'json' });
    expect(answer).toMatchObject({ status: 'success', condition: 'chronic pain', search_status: 'all', total_results: 2 });
    const trials = answer.trials as Array<Record<string, unknown>>;
    expect(trials[0]).toEqual({
      nct_id: 'NCT90000001',
      title: 'Placeholder Study of Exercise Therapy in Chronic Pain',
      status: 'COMPLETED',
      phase: ['PHASE2'],
      study_type: 'INTERVENTIONAL',
      conditions: ['Chronic Pain'],
      locations: Array.from({ length: 3 }, () => ({ facility: '', city: '', state: '', country: '' })),
      sponsor: 'Placeholder University',
      url: 'https://clinicaltrials.gov/study/NCT90000001',
      eligibility: { gender: 'ALL', min_age: '18 Years', max_age: '75 Years', healthy_volunteers: 'No' },
    });
    expect(trials[1]).toMatchObject({ phase: [], locations: [], eligibility: { max_age: '', healthy_volunteers: 'Yes' } });
    await json('clinical_trials_search', { condition: 'atrial fibrillation', status: 'not_recruiting' });
    expect(fake.requestsTo('/ct/studies').at(-1)?.query).toMatchObject({ pageSize: '10', 'filter.overallStatus': 'ACTIVE_NOT_RECRUITING' });
  });

  it('lookup_icd_code: code prefix search, reference code layout; no match is an empty success', async () => {
    const answer = await json('lookup_icd_code', { code: 'G89', max_results: 10 });
    expect(fake.requestsTo('/ctables/icd10cm/v3/search').at(-1)?.query).toEqual({ sf: 'code,name', terms: 'G89', maxList: '10' });
    expect(answer).toMatchObject({ status: 'success', search_type: 'code', search_term: 'G89', total_results: 10 });
    expect((answer.codes as unknown[])[3]).toEqual({ code: 'G89.18', description: 'Other acute postprocedural pain', category: '' });
    expect(await json('lookup_icd_code', { code: 'J30' })).toEqual({ status: 'success', search_type: 'code', search_term: 'J30', total_results: 0, codes: [] });
    expect(fake.requestsTo('/ctables/icd10cm/v3/search').at(-1)?.query.maxList).toBe('10');
    const neither = await server.call('lookup_icd_code', {});
    expect(neither).toMatchObject({
      isError: true,
      text: JSON.stringify({ status: 'error', error_message: 'Either code or description is required' }, null, 2),
    });
  });

  it('health_topics: MyHealthfinder topic search, the reference layout with its empty sections', async () => {
    const answer = await json('health_topics', { language: 'en', topic: 'Healthy eating' });
    expect(fake.requestsTo('/mhf/topicsearch.json').at(-1)?.query).toEqual({ keyword: 'Healthy eating', lang: 'en' });
    expect(answer).toEqual({
      status: 'success',
      search_term: 'Healthy eating',
      language: 'en',
      total_results: 1,
      health_topics: [
        {
          title: 'Placeholder Topic: Eat Healthy',
          url: 'https://odphp.health.gov/myhealthfinder/placeholder/eat-healthy',
          last_updated: '1745432126',
          section: '',
          description: '',
          content: [],
        },
      ],
    });
  });

  it('medrxiv_search and ncbi_bookshelf_search keep the reference request and layout', async () => {
    const medrxiv = await json('medrxiv_search', { query: 'long covid', max_results: 2 });
    expect(fake.requestsTo(/^\/medrxiv\//).at(-1)?.path).toBe('/medrxiv/details/medrxiv/long%20covid/0/180/json');
    expect(medrxiv).toEqual({ status: 'success', query: 'long covid', total_results: 0, articles: [] });
    const dated = await json('medrxiv_search', { query: '2025-01-01' });
    expect(dated.articles).toEqual([{ abstract_url: 'https://www.medrxiv.org/content/undefined' }]);
    const books = await json('ncbi_bookshelf_search', { query: 'pain management', max_results: 2 });
    expect(fake.requestsTo('/eutils/esearch.fcgi').at(-1)?.query).toEqual({ db: 'books', term: 'pain management', retmax: '2', format: 'json' });
    expect(books).toEqual({
      status: 'success',
      query: 'pain management',
      total_results: 2,
      books: [
        {
          id: '9000001',
          title: 'Placeholder Chapter on Pain Management',
          authors: ['Doe J'],
          publication_date: '2024/01/15',
          url: 'https://www.ncbi.nlm.nih.gov/books/9000001/',
        },
        {
          id: '9000002',
          title: 'Placeholder Book of Clinical Medicine',
          authors: [],
          publication_date: '2023',
          url: 'https://www.ncbi.nlm.nih.gov/books/9000002/',
        },
      ],
    });
  });

  it('an outage of any upstream is typed, in the reference wording of that tool', async () => {
    fake.queueFault('/ct/studies', { status: 503, headers: { 'retry-after': '5' } });
    const answer = await server.call('clinical_trials_search', { condition: 'chronic pain', status: 'all' });
    expect(answer.errorMeta).toMatchObject({ code: 'upstream_server_error', status: 503 });
    expect(JSON.parse(answer.text).error_message).toMatch(/^Error searching clinical trials: /);
  });
});

describe('local tools', () => {
  it('calculate_bmi rounds to two decimals as a string, and refuses a zero height', async () => {
    expect(await json('calculate_bmi', { height_meters: 1.75, weight_kg: 70 })).toEqual({ status: 'success', bmi: '22.86' });
    expect((await server.call('calculate_bmi', { height_meters: 0, weight_kg: 70 })).isError).toBe(true);
  });

  it('usage stats count per task, including the stats call itself, and overall', async () => {
    const context = { taskId: 'usage-task', workspace: scratch };
    await json('calculate_bmi', { height_meters: 2, weight_kg: 80 }, context);
    const stats = await json('get_usage_stats', {}, context);
    expect(stats).toMatchObject({ status: 'success', total_calls: 2, tool_usage: { calculate_bmi: 1, get_usage_stats: 1 } });
    expect(stats.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const all = (await json('get_all_usage_stats', {})).overall_stats as { total_calls: number; tool_usage: Record<string, number> };
    expect(all.tool_usage.get_usage_stats).toBeGreaterThanOrEqual(1);
    expect(all.total_calls).toBeGreaterThan(2);
  });

  it('extract_dicom_metadata reads the four strings of a hand-built file (explicit and implicit VR)', async () => {
    const fields = { patientName: 'Doe^Jane', patientId: 'PID-0042', studyDescription: 'CT CHEST', seriesDescription: 'AXIAL 1.25mm' };
    for (const explicit of [true, false]) {
      const file = path.join(scratch, `scan-${explicit ? 'explicit' : 'implicit'}.dcm`);
      writeFileSync(file, buildDicom(fields, explicit));
      expect(await json('extract_dicom_metadata', { file_path: file })).toEqual({ status: 'success', ...fields });
    }
    const notDicom = path.join(scratch, 'not.dcm');
    writeFileSync(notDicom, Buffer.alloc(200));
    const refused = await server.call('extract_dicom_metadata', { file_path: notDicom });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.text).error_message).toContain('DICM prefix not found');
    const outside = await server.call('extract_dicom_metadata', { file_path: '/etc/passwd' });
    expect(JSON.parse(outside.text).error_message).toMatch(/^Error parsing DICOM file: path "\/etc\/passwd" is outside the allowed folders/);
  });

  it('sanitizeText strips tags, replaces huge tables and cuts at 1000 characters', () => {
    const table = `<table>${'<tr><td>cell</td></tr>'.repeat(300)}</table>`;
    expect(sanitizeText(['<p>Take  <b>one</b>\n tablet</p>', '', null, table, 'x'.repeat(1200)])).toEqual([
      'Take one tablet',
      '[Table content removed due to size]',
      `${'x'.repeat(997)}...`,
    ]);
    expect(sanitizeText('not a list')).toEqual([]);
  });
});

describe('smoke', () => {
  it('the offline smoke call passes against its own fake', async () => {
    const outcome = await runOfflineSmoke('servers/healthcare/index.ts', smoke);
    expect(outcome.passed, outcome.text).toBe(true);
    expect(smoke.accept('{"status": "error"}')).toBe(false);
  });
});
