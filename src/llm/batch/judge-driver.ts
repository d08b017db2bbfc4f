// `m3 eval final --batch`: a judge's requests through its vendor's batch API, with the same
// collector as `m3 run --batch` (src/llm/batch/collector.ts). Judges keep no ledger of jobs: a
// judging run that stops is resumed from its scores file (--out), so a pending job is not picked up.
import type { DriverContext, ModelDriver } from '../types.js';
import { BatchCollector, type BatchLedger } from './collector.js';
import { createBatchBackend } from './index.js';

export interface JudgeBatchOptions {
  maxSize: number;
  windowMs: number;
  pollMs: number;
  onState: (line: string) => void;
  onFallback: (line: string) => void;
}

const noLedger: BatchLedger = { recorded: async () => undefined, updated: () => undefined, settled: () => undefined, pending: () => [] };

export async function withJudgeBatch(driver: ModelDriver, context: DriverContext, options: JudgeBatchOptions): Promise<ModelDriver> {
  const backend = await createBatchBackend(driver.id, context);
  let sequence = 0;
  // With no ledger the key only has to be unique: it names the request inside its job.
  const keyOf = () => {
    sequence += 1;
    return `judge${sequence}`;
  };
  return new BatchCollector(backend, driver, noLedger, { ...options, pollMaxMs: 300_000, keyOf }).wrap();
}
