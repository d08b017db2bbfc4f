// fda_drug_lookup (55 GT calls) through the real stdio server against a loopback openFDA: the
// request it sends, the reference layout of its answer for label / adverse_events / general,
// and every failure typed (404 as an ordinary error; 429, 500, bad JSON, slow as upstream codes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFake } from '../../../servers/shared/http-fake.js';
import { distinctArguments, gtCalls } from '../../support/reference-tools.js';
import { shortTimeoutMessage, slowReply } from '../../support/slow-upstream.js';
import { startWebServer, type WebServer, type WebToolResult } from '../../support/web-server.js';
import { fixtureRecord, healthcareEnv, startHealthcareFake } from './fake-upstreams.js';

let fake: HttpFake;
let server: WebServer;

beforeAll(async () => {
  fake = await startHealthcareFake();
  server = await startWebServer('servers/healthcare/index.ts', healthcareEnv(fake));
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const lookup = (args: Record<string, unknown>): Promise<WebToolResult> => server.call('fda_drug_lookup', args);

describe('fda_drug_lookup', () => {
  it('answers a GT label lookup with exactly the reference layout', async () => {
    const answer = await lookup({ drug_name: 'Acetaminophen', search_type: 'label' });
    expect(answer.isError).toBe(false);
    const label = fixtureRecord('openfda-label-childrens-tylenol');
    const expected = {
      status: 'success',
      drug_name: 'Acetaminophen',
      search_type: 'label',
      drugs: [
        {
          product_number: '',
          generic_name: '',
          brand_name: '',
          labeler_name: ['Kenvue Brands LLC'],
          product_type: '',
          brand_names: ['CHILDRENS TYLENOL'],
          generic_names: ['ACETAMINOPHEN'],
          manufacturer: ['Kenvue Brands LLC'],
          indications: label.indications_and_usage,
          dosage: label.dosage_and_administration,
          // An OTC label has `warnings`, not `warnings_and_cautions`: the reference showed [].
          warnings: [],
          contraindications: [],
          adverse_reactions: [],
          drug_interactions: [],
          pregnancy: [],
        },
      ],
      total_results: 1843,
    };
    expect(answer.text).toBe(JSON.stringify(expected, null, 2));
    const request = fake.requestsTo('/fda/drug/label.json').at(-1);
    expect(request?.method).toBe('GET');
    expect(request?.query).toEqual({ search: 'openfda.generic_name:Acetaminophen OR openfda.brand_name:Acetaminophen', limit: '1' });
  });

  it('sends every distinct GT drug name as the reference query and answers each', async () => {
    const calls = gtCalls('healthcare-mcp');
    if (!calls) return void console.warn('shared GT data absent: skipping the GT sweep');
    expect(calls.filter((call) => call.tool === 'fda_drug_lookup')).toHaveLength(55);
    for (const args of distinctArguments(calls, 'fda_drug_lookup')) {
      const answer = await lookup(args);
      expect(answer.isError, answer.text).toBe(false);
      const name = String(args.drug_name);
      expect(JSON.parse(answer.text)).toMatchObject({ status: 'success', drug_name: name, search_type: 'label' });
      expect(fake.requestsTo('/fda/drug/label.json').at(-1)?.query.search).toBe(`openfda.generic_name:${name} OR openfda.brand_name:${name}`);
    }
  });

  it('keeps prescription sections (drug interactions) and leaves absent manufacturer lists empty', async () => {
    const json = JSON.parse((await lookup({ drug_name: 'Herceptin', search_type: 'label' })).text) as { drugs: Array<Record<string, unknown>> };
    expect(json.drugs[0]).toMatchObject({ brand_names: ['Herceptin'], generic_names: ['TRASTUZUMAB'], manufacturer: [], labeler_name: [] });
    expect(json.drugs[0]?.warnings).toEqual(fixtureRecord('openfda-label-herceptin').warnings_and_cautions);
    expect(json.drugs[0]?.drug_interactions).toEqual(fixtureRecord('openfda-label-herceptin').drug_interactions);
  });

  it('adverse_events reads the label endpoint and keeps only reactions, warnings and boxed warning', async () => {
    const json = JSON.parse((await lookup({ drug_name: 'Herceptin', search_type: 'adverse_events' })).text) as { drugs: Array<Record<string, unknown>> };
    expect(Object.keys(json.drugs[0] ?? {})).toEqual([
      'product_number',
      'generic_name',
      'brand_name',
      'labeler_name',
      'product_type',
      'brand_names',
      'generic_names',
      'adverse_reactions',
      'warnings',
      'boxed_warning',
    ]);
    expect(json.drugs[0]?.labeler_name).toBe('');
  });

  it('general (the default) reads the NDC directory and copies the first record identity', async () => {
    const answer = await lookup({ drug_name: 'advil' });
    expect(fake.requestsTo('/fda/drug/ndc.json').at(-1)?.query.search).toBe('generic_name:advil OR brand_name:advil');
    expect(JSON.parse(answer.text)).toEqual({
      status: 'success',
      drug_name: 'advil',
      search_type: 'general',
      drugs: [
        {
          product_number: '0573-0165',
          generic_name: 'ibuprofen',
          brand_name: 'ADVIL',
          labeler_name: 'GlaxoSmithKline Consumer Healthcare Holdings (US) LLC',
          product_type: 'HUMAN OTC DRUG',
          manufacturer: 'GlaxoSmithKline Consumer Healthcare Holdings (US) LLC',
          route: ['ORAL'],
          marketing_status: '',
        },
      ],
      total_results: 26,
    });
  });

  it('a drug openFDA does not know is an ordinary error in the reference wording', async () => {
    const answer = await lookup({ drug_name: 'nomatchium', search_type: 'label' });
    expect(answer.isError).toBe(true);
    expect(answer.errorMeta).toBeUndefined();
    expect(answer.text).toBe(JSON.stringify({ status: 'error', error_message: 'Error fetching drug information: HTTP 404: Not Found' }, null, 2));
  });

  it('an empty drug name is refused as the reference did, without a request', async () => {
    const before = fake.requests.length;
    const answer = await lookup({ drug_name: '', search_type: 'label' });
    expect(answer).toMatchObject({ isError: true, text: JSON.stringify({ status: 'error', error_message: 'Drug name is required' }, null, 2) });
    expect(fake.requests.length).toBe(before);
  });
});

describe('fda_drug_lookup upstream failures are typed', () => {
  const path = '/fda/drug/label.json';
  const args = { drug_name: 'ibuprofen', search_type: 'label' };

  it('429 with retry-after → upstream_rate_limited with the wait', async () => {
    fake.queueFault(path, { status: 429, headers: { 'retry-after': '30' }, body: { error: { code: 'OVER_RATE_LIMIT' } } });
    const answer = await lookup(args);
    expect(answer.isError).toBe(true);
    expect(answer.errorMeta).toMatchObject({ code: 'upstream_rate_limited', status: 429, retryAfterSec: 30, upstream: '127.0.0.1' });
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'error' });
    expect(answer.text).toContain('Error fetching drug information: ');
  });

  it('500 → upstream_server_error', async () => {
    fake.queueFault(path, { status: 500, body: 'internal error' });
    expect((await lookup(args)).errorMeta).toMatchObject({ code: 'upstream_server_error', status: 500 });
  });

  it('a body that is not JSON → upstream_bad_response', async () => {
    fake.queueFault(path, { status: 200, headers: { 'content-type': 'application/json' }, body: '{"results": [' });
    expect((await lookup(args)).errorMeta).toMatchObject({ code: 'upstream_bad_response' });
  });

  it('JSON that is not a search result → upstream_bad_response', async () => {
    fake.queueFault(path, { status: 200, body: ['not', 'an', 'object'] });
    expect((await lookup(args)).errorMeta).toMatchObject({ code: 'upstream_bad_response' });
  });

  it('an answer slower than the timeout → upstream_timeout', async () => {
    fake.queueFault(path, slowReply({}));
    const slow = await server.callWithShortTimeout('fda_drug_lookup', args);
    expect(slow.errorMeta).toMatchObject({ code: 'upstream_timeout' });
    expect(slow.text).toContain(shortTimeoutMessage);
  });

  it('a dropped connection → upstream_network', async () => {
    fake.queueFault(path, { drop: true });
    expect((await lookup(args)).errorMeta).toMatchObject({ code: 'upstream_network' });
  });
});
