// M3_LLM_STATS counters: requests, tokens and image bytes, flushed to M3_LLM_STATS_FILE every
// N requests so a run killed by a signal still leaves numbers behind. `costUsd` is what was paid
// (src/llm/pricing.ts paidCost: batch replies at the batch price, cache-served replies at $0),
// `savedUsd` what the cache and batch pricing saved, and `costBasis` says so in the file.
import type { AgentEvent } from '../agent/events.js';
import { addBilledUsage, batchDiscount, emptyBilledUsage, type CostOf } from '../llm/pricing.js';
import { writeJsonAtomic } from '../tasks/write-json.js';

export interface LlmStatsCounters {
  requests: number;
  failedRequests: number;
  attempts: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  imagesFromTools: number;
  imageBytesOriginal: number;
  imageBytesSent: number;
  toolCalls: number;
  toolErrors: number;
  /** Replies served by the model-response cache (no request made, nothing paid). */
  servedFromCache: number;
  /** Replies a provider batch job answered (billed at the batch price). */
  batchAnswered: number;
  /** USD paid, summed over priced replies; stays 0 when the model has no price in the table. */
  costUsd: number;
  /** USD the cache (list price of served replies) and batch pricing (list minus batch price) saved. */
  savedUsd: number;
}

/** The file's label of how its USD figures were priced. */
const costBasis = `costUsd is what was paid: synchronous replies at list price, provider batch replies at ${batchDiscount.factor} x list price, cache-served replies at $0; savedUsd is the list price the cache served plus what batch pricing took off`;

export class LlmStats {
  readonly counters: LlmStatsCounters = {
    requests: 0,
    failedRequests: 0,
    attempts: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    imagesFromTools: 0,
    imageBytesOriginal: 0,
    imageBytesSent: 0,
    toolCalls: 0,
    toolErrors: 0,
    servedFromCache: 0,
    batchAnswered: 0,
    costUsd: 0,
    savedUsd: 0,
  };
  private sinceFlush = 0;

  constructor(
    private readonly file: string | undefined,
    private readonly flushEvery: number,
    private readonly costOf: CostOf = () => null,
  ) {}

  observe(event: AgentEvent): void {
    if (event.type === 'model_call') {
      this.counters.requests += 1;
      this.counters.attempts += event.attempts.length;
      if (event.error) this.counters.failedRequests += 1;
      this.counters.inputTokens += event.usage.inputTokens;
      this.counters.outputTokens += event.usage.outputTokens;
      this.counters.cachedTokens += event.usage.cachedTokens;
      const billing = event.billing ?? 'standard';
      if (billing === 'cache') this.counters.servedFromCache += 1;
      if (billing === 'batch') this.counters.batchAnswered += 1;
      const cost = this.costOf(addBilledUsage(emptyBilledUsage(), event.usage, billing));
      this.counters.costUsd += cost?.paidUsd ?? 0;
      this.counters.savedUsd += cost ? cost.savedByCacheUsd + cost.savedByBatchUsd : 0;
      this.sinceFlush += 1;
      if (this.flushEvery > 0 && this.sinceFlush >= this.flushEvery) this.flush();
    } else if (event.type === 'tool_call_end') {
      this.counters.toolCalls += 1;
      if (event.isError) this.counters.toolErrors += 1;
      for (const image of event.images) {
        this.counters.imagesFromTools += 1;
        this.counters.imageBytesOriginal += image.originalBytes;
        this.counters.imageBytesSent += image.sentBytes;
      }
    }
  }

  flush(): void {
    this.sinceFlush = 0;
    if (this.file) writeJsonAtomic(this.file, { updatedAt: new Date().toISOString(), ...this.counters, costBasis });
  }
}
