// M3_LLM_STATS counters: requests, tokens and image bytes, flushed to M3_LLM_STATS_FILE every
// N requests so a run killed by a signal still leaves numbers behind.
import type { AgentEvent } from '../agent/events.js';
import type { Usage as AgentUsage } from '../core/usage.js';
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
  /** Sum over priced requests; stays 0 when the model has no price in the table. */
  costUsd: number;
}

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
    costUsd: 0,
  };
  private sinceFlush = 0;

  constructor(
    private readonly file: string | undefined,
    private readonly flushEvery: number,
    private readonly costOf: (usage: AgentUsage) => number | null = () => null,
  ) {}

  observe(event: AgentEvent): void {
    if (event.type === 'model_call') {
      this.counters.requests += 1;
      this.counters.attempts += event.attempts.length;
      if (event.error) this.counters.failedRequests += 1;
      this.counters.inputTokens += event.usage.inputTokens;
      this.counters.outputTokens += event.usage.outputTokens;
      this.counters.cachedTokens += event.usage.cachedTokens;
      this.counters.costUsd += this.costOf(event.usage) ?? 0;
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
    if (this.file) writeJsonAtomic(this.file, { updatedAt: new Date().toISOString(), ...this.counters });
  }
}
