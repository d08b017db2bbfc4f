// num_total on the published GT (213 records, 208 distinct ids): m3bench scores each distinct id
// once (208); --reference-compat reports the reference's count, every record with an id (213);
// both counts are always written.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateFinalAnswers } from '../../../src/eval/final/evaluate.js';
import { evaluateProxies } from '../../../src/eval/final/proxies.js';
import { loadGroundTruth } from '../../../src/tasks/load.js';
import { sharedDataDir } from '../../support/shared-assets.js';

const dataDir = sharedDataDir();

describe.skipIf(!dataDir)('final-answer num_total on the published GT', () => {
  const gt = loadGroundTruth(path.join(dataDir ?? '', 'test_mcp_GT.json'));

  it('proxies: 208 by default, 213 with reference-compat, both counts always present', () => {
    expect(evaluateProxies(gt, []).aggregate).toMatchObject({ num_total: 208, num_distinct_ids: 208, num_gt_records: 213 });
    expect(evaluateProxies(gt, [], undefined, undefined, true).aggregate).toMatchObject({ num_total: 213, num_distinct_ids: 208, num_gt_records: 213 });
  });

  it('judges: the same counts in taskcompletion.json', async () => {
    const options = {
      judges: [],
      prompts: { taskCompletion: '', informationGrounding: '' },
      maxResultChars: 0,
      concurrency: 1,
      attempts: 1,
      lenient: false,
      maxTokens: 16,
      retryDelayMs: 0,
      retryPolicy: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
    };
    expect((await evaluateFinalAnswers(gt, [], options)).aggregate).toMatchObject({ num_total: 208, num_gt_records: 213, num_missing_predictions: 208 });
    expect((await evaluateFinalAnswers(gt, [], { ...options, referenceCompat: true })).aggregate).toMatchObject({ num_total: 213, num_distinct_ids: 208 });
  });
});
