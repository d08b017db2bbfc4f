// `m3 run --batch`: the model's requests go through its vendor's batch API (src/llm/batch/),
// with the run store as the ledger of submitted jobs, so `--resume` picks up a job that was still
// pending when the process ended. Counts go to the run manifest (`providerBatch`), with the
// cost of the answered requests at list and at batch price (src/llm/pricing.ts paidCost).
import { BatchCollector, createBatchBackend, type BatchCounts, type BatchLedger } from '../llm/batch/index.js';
import { canonicalRequest, keyOfCanonical } from '../llm/response-cache-key.js';
import { batchDiscount, emptyBilledUsage, paidCost, type PriceTable } from '../llm/pricing.js';
import type { DriverContext, ModelDriver } from '../llm/types.js';
import type { Logger } from '../log/logger.js';
import { committed, pendingProviderBatchRequests, recordProviderBatch, settleProviderBatchRequest, updateProviderBatch, type Store } from '../store/index.js';

export interface BatchSettings {
  /** Submit when no request has arrived for this long (ms). */
  windowMs: number;
  /** First poll after this long (ms); doubled per pending poll up to pollMaxMs. */
  pollMs: number;
  pollMaxMs: number;
}

export const defaultBatchSettings: BatchSettings = { windowMs: 2_000, pollMs: 10_000, pollMaxMs: 300_000 };

function storeLedger(store: Store, runId: string, driver: ModelDriver): BatchLedger {
  return {
    async recorded(vendorBatchId, requests) {
      recordProviderBatch(store, { runId, provider: driver.provider, model: driver.model, vendorBatchId, requests });
      // On the disk before the first poll: a kill from here on leaves a job --resume can find.
      await committed(store);
    },
    updated: (vendorBatchId, state, detail) => updateProviderBatch(store, runId, vendorBatchId, state, detail),
    settled: (vendorBatchId, customId, outcome) => settleProviderBatchRequest(store, runId, vendorBatchId, customId, outcome),
    pending: () => pendingProviderBatchRequests(store, runId, driver.provider, driver.model),
  };
}

export interface ProviderBatchSetup {
  settings: BatchSettings;
  runId: string;
  concurrency: number;
  context: DriverContext;
  store: Store;
  logger: Logger;
}

/** The driver whose requests go through the batch API, and the counts the manifest records. */
export async function withProviderBatch(driver: ModelDriver, setup: ProviderBatchSetup): Promise<{ driver: ModelDriver; counts: BatchCounts }> {
  const backend = await createBatchBackend(driver.id, setup.context);
  const ledger = storeLedger(setup.store, setup.runId, driver);
  const collector = new BatchCollector(backend, driver, ledger, {
    ...setup.settings,
    maxSize: Math.max(1, setup.concurrency),
    keyOf: (request) => keyOfCanonical(canonicalRequest(driver, request)),
    onState: (line) => setup.logger.info(line),
    onFallback: (line) => setup.logger.warn(line),
  });
  const resumable = ledger.pending().length;
  if (resumable > 0)
    setup.logger.info(
      `${driver.id}: ${resumable} request(s) wait in pending batch job(s) of an earlier process; the same requests made again take those jobs' answers`,
    );
  return { driver: collector.wrap(), counts: collector.counts };
}

/**
 * The manifest's `providerBatch`: the live counts (read when the manifest is written) and the cost
 * of the batch-answered requests at list and at batch price. The episode and run costs (the
 * store, the manifest's `cost`) already count these requests at the batch price.
 */
export function providerBatchRecord(counts: BatchCounts, spec: string, prices: PriceTable) {
  const answeredCost = () => paidCost(spec, { ...emptyBilledUsage(), batch: counts.answeredUsage }, prices);
  return {
    discount: batchDiscount.factor,
    discountSource: batchDiscount.source,
    get jobs() {
      return counts.jobs;
    },
    get submitted() {
      return counts.submitted;
    },
    get resumed() {
      return counts.resumed;
    },
    get answered() {
      return counts.answered;
    },
    get fallback() {
      return counts.fallback;
    },
    get answeredCostListUsd() {
      return answeredCost()?.listUsd ?? null;
    },
    get answeredCostBatchUsd() {
      return answeredCost()?.paidUsd ?? null;
    },
  };
}
