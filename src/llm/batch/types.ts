// The seam of provider batch APIs (`m3 run --batch`): a backend submits many requests as one
// vendor batch job, reports the job's state, and hands back each request's answer, mapped through
// the same request/response mappers the synchronous driver uses (same images, tools and usage).
// The collector (collector.ts) decides what goes into a job and when; a backend only wires the SDK.
import type { GenerateRequest, GenerateResponse } from '../types.js';

interface BatchItem {
  /** Unique within the job, `[A-Za-z0-9_-]{1,64}` (the strictest vendor rule: Anthropic's). */
  customId: string;
  request: GenerateRequest;
}

/** What a job says when polled: `pending` until it ends one way or another. */
export type BatchJobState = 'pending' | 'ended' | 'expired' | 'failed' | 'canceled';

interface BatchJobStatus {
  state: BatchJobState;
  /** The vendor's own words: its status and request counts (`in_progress 3/5 done`). */
  detail: string;
}

/** One request's result: its mapped response, or why the job did not answer it. */
export type BatchItemResult = { kind: 'answered'; response: GenerateResponse } | { kind: 'unanswered'; reason: string };

export interface BatchBackend {
  /** `provider:model`, as the driver names itself. */
  readonly id: string;
  submit(items: readonly BatchItem[]): Promise<{ vendorBatchId: string }>;
  poll(vendorBatchId: string): Promise<BatchJobStatus>;
  /**
   * The results of an ended (or expired) job, by custom id. A request missing from the map, or
   * `unanswered`, goes to the ordinary path. `requests` are the job's requests by custom id (for
   * the round number some mappers need); after a resume they are the requests made again.
   */
  results(vendorBatchId: string, requests: ReadonlyMap<string, GenerateRequest>): Promise<Map<string, BatchItemResult>>;
}

/** The figures the response mappers need besides the body. */
export function answered(response: Omit<GenerateResponse, 'latencyMs'>, latencyMs: number): BatchItemResult {
  return { kind: 'answered', response: { ...response, latencyMs } };
}
