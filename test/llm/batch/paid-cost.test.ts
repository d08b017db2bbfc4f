// The one computation of what was paid (src/llm/pricing.ts paidCost): synchronous replies at list
// price, batch replies at the batch price, cache-served replies at $0, and what each saved.
import { describe, expect, it } from 'vitest';
import { addBilledUsage, batchDiscount, billingOf, costUsd, emptyBilledUsage, paidCost, paidCostOfReply } from '../../../src/llm/pricing.js';

const table = new Map([['mock-model', { input: 2, output: 10, cached: 1, checkedAt: '2026-12-02' }]]);
const usage = (inputTokens: number, outputTokens: number, cachedTokens = 0) => ({ inputTokens, outputTokens, cachedTokens });

describe('paidCost', () => {
  it('prices each billing its own way and keeps what the cache and batch pricing saved apart', () => {
    let billed = emptyBilledUsage();
    billed = addBilledUsage(billed, usage(1000, 100, 400), 'standard');
    billed = addBilledUsage(billed, usage(2000, 50), 'batch');
    billed = addBilledUsage(billed, usage(500, 20), 'cache');
    const standard = (600 * 2 + 400 * 1 + 100 * 10) / 1e6;
    const batchList = (2000 * 2 + 50 * 10) / 1e6;
    const cacheList = (500 * 2 + 20 * 10) / 1e6;
    const cost = paidCost('openai:mock-model', billed, table);
    expect(cost?.paidUsd).toBeCloseTo(standard + batchList * batchDiscount.factor, 15);
    expect(cost?.listUsd).toBeCloseTo(standard + batchList + cacheList, 15);
    expect(cost?.savedByCacheUsd).toBeCloseTo(cacheList, 15);
    expect(cost?.savedByBatchUsd).toBeCloseTo(batchList * (1 - batchDiscount.factor), 15);
    // The parts add up: what was paid plus what was saved is the list price.
    expect((cost?.paidUsd ?? 0) + (cost?.savedByCacheUsd ?? 0) + (cost?.savedByBatchUsd ?? 0)).toBeCloseTo(cost?.listUsd ?? -1, 15);
  });

  it('prices one reply by its billing, and a model without a price not at all', () => {
    const reply = usage(300, 8);
    const list = costUsd('mock-model', reply, table) ?? Number.NaN;
    expect(paidCostOfReply('openai:mock-model', reply, 'standard', table)).toMatchObject({ paidUsd: list, savedByCacheUsd: 0, savedByBatchUsd: 0 });
    expect(paidCostOfReply('openai:mock-model', reply, 'batch', table)?.paidUsd).toBeCloseTo(list / 2, 15);
    expect(paidCostOfReply('openai:mock-model', reply, 'cache', table)).toMatchObject({ paidUsd: 0, savedByCacheUsd: list });
    expect(paidCostOfReply('openai:unpriced', reply, 'batch', table)).toBeUndefined();
  });

  it("reads a reply's billing from what the cache and the batch collector marked on it", () => {
    expect(billingOf({})).toBe('standard');
    expect(billingOf({ batch: { vendorBatchId: 'batch_1', customId: 'm3-1' } })).toBe('batch');
    expect(billingOf({ servedFromCache: true })).toBe('cache');
  });
});
