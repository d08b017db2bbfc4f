// Model responses that were not fresh synchronous answers are labelled beside every score like
// mocked tool returns: the evaluation outputs' `m3bench_mocked.model_responses` and the report's
// table count the responses the model-response cache served and those a vendor batch job
// answered, from the run manifest beside the predictions.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelResponseTable } from '../../src/report/fallback-share.js';
import { manifestFileFor } from '../../src/results/layout.js';
import { mockedLabelFor, mockedShare } from '../../src/results/mocked-share.js';

const work = mkdtempSync(path.join(tmpdir(), 'm3-model-responses-'));

function run(label: string, manifest: Record<string, unknown> | undefined): string {
  const file = path.join(work, `${label}_test_mcp_fuzzy.json`);
  writeFileSync(file, JSON.stringify([{ id: 't1', steps: [{ step: 1, calls: [{ name: 'math/add', arguments: {}, result: '3' }] }], final_reply: '3' }]));
  if (manifest) writeFileSync(manifestFileFor(file), JSON.stringify(manifest));
  return file;
}

describe('model responses from the cache or a batch job, beside the scores', () => {
  it('counts what the cache served of its lookups and what batch jobs answered of the requests sent to them', () => {
    const file = run('cached', {
      responseCache: { policy: 'use', file: 'c.sqlite', maxAgeSeconds: null, served: 3, missed: 1, recorded: 1 },
      providerBatch: { answered: 2, submitted: 2, resumed: 1, fallback: 1 },
    });
    expect(mockedLabelFor(file).model_responses).toEqual({ served_from_cache: 3, cache_lookups: 4, batched: 2, batch_submitted: 3 });
    const table = modelResponseTable([mockedShare('cached', file, manifestFileFor(file))]);
    expect(table?.rows).toEqual([['Cached', '3/4', '75%', '2/3', '66.7%']]);
  });

  it('says zero for a run that used neither, null without a manifest, and draws no table for either', () => {
    const clean = run('clean', { fallback: { enabled: false } });
    expect(mockedLabelFor(clean).model_responses).toEqual({ served_from_cache: 0, cache_lookups: 0, batched: 0, batch_submitted: 0 });
    const bare = run('bare', undefined);
    expect(mockedLabelFor(bare).model_responses).toBeNull();
    expect(modelResponseTable([mockedShare('clean', clean, manifestFileFor(clean)), mockedShare('bare', bare, manifestFileFor(bare))])).toBeUndefined();
  });
});
