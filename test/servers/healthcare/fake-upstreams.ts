// One loopback fake for every upstream of healthcare-mcp, answering from the fixture bodies in
// ./fixtures (each names its source), plus the env that points the server at it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HttpFake, startHttpFake } from '../../../servers/shared/http-fake.js';
import { loadFixtureBody } from '../../support/web-server.js';

const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixture(name: string): unknown {
  return loadFixtureBody(fixtureDir, name);
}

/** A record of a fixture body, for assertions against what the server made of it. */
export function fixtureRecord(name: string, index = 0): Record<string, unknown> {
  return ((fixture(name) as { results: Array<Record<string, unknown>> }).results[index] ?? {}) as Record<string, unknown>;
}

function labelFor(search: string): { status?: number; body: unknown } {
  if (/herceptin/i.test(search)) return { body: fixture('openfda-label-herceptin') };
  if (/nomatch/i.test(search)) return { status: 404, body: fixture('openfda-not-found') };
  return { body: fixture('openfda-label-childrens-tylenol') };
}

export async function startHealthcareFake(): Promise<HttpFake> {
  return startHttpFake([
    { path: '/fda/drug/label.json', reply: (request) => labelFor(String(request.query.search ?? '')) },
    { path: '/fda/drug/ndc.json', reply: { body: fixture('openfda-ndc-advil') } },
    { path: '/eutils/esearch.fcgi', reply: (request) => ({ body: fixture(request.query.db === 'books' ? 'eutils-esearch-books' : 'eutils-esearch-pubmed') }) },
    {
      path: '/eutils/esummary.fcgi',
      reply: (request) => ({ body: fixture(request.query.db === 'books' ? 'eutils-esummary-books' : 'eutils-esummary-pubmed') }),
    },
    { path: '/ct/studies', reply: { body: fixture('clinicaltrials-studies') } },
    {
      path: '/ctables/icd10cm/v3/search',
      reply: (request) => ({
        body: fixture(String(request.query.terms).toUpperCase().startsWith('G89') ? 'clinicaltables-icd10-g89' : 'clinicaltables-icd10-empty'),
      }),
    },
    { path: '/mhf/topicsearch.json', reply: { body: fixture('myhealthfinder-topicsearch') } },
    {
      path: /^\/medrxiv\/details\/medrxiv\//,
      reply: (request) => ({ body: fixture(request.path.includes('2025-01-01') ? 'medrxiv-details' : 'medrxiv-no-posts') }),
    },
  ]);
}

/** The base-URL variables of healthcare-mcp, pointed at the fake. */
export function healthcareEnv(fake: HttpFake): Record<string, string> {
  return {
    M3_UPSTREAM_OPENFDA_URL: `${fake.url}/fda`,
    M3_UPSTREAM_NCBI_EUTILS_URL: `${fake.url}/eutils`,
    M3_UPSTREAM_MEDRXIV_API_URL: `${fake.url}/medrxiv`,
    M3_UPSTREAM_CLINICALTRIALS_URL: `${fake.url}/ct`,
    M3_UPSTREAM_CLINICALTABLES_URL: `${fake.url}/ctables`,
    M3_UPSTREAM_MYHEALTHFINDER_URL: `${fake.url}/mhf`,
    FDA_API_KEY: '',
    PUBMED_API_KEY: '',
    NCBI_API_KEY: '',
  };
}
