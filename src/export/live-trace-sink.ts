// One run's live traces (live-traces.ts decides when): each recorded episode's trace read back
// from the store and queued on the OpenTelemetry SDK's batch processor, sent over OTLP/HTTP. This
// module holds everything that loads the SDK, so `m3 run` imports it only when an endpoint is set.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../log/logger.js';
import type { EpisodeObserver } from '../runner/recorder.js';
import type { RunRow, Store } from '../store/index.js';
import { CheckedExporter, createRunTraceProvider, emitEpisode, flush } from './otel-export.js';
import { loadEpisodeRecord, requireRun } from './run-records.js';

export class LiveTraces implements EpisodeObserver {
  private readonly exporter: CheckedExporter;
  private provider: BasicTracerProvider | undefined;
  private run: RunRow | undefined;
  private spans = 0;
  private traces = 0;

  constructor(
    private readonly store: Store,
    private readonly runId: string,
    readonly url: string,
    private readonly logger: Logger,
  ) {
    this.exporter = new CheckedExporter(new OTLPTraceExporter({ url, timeoutMillis: 30_000 }));
  }

  /** Queues the trace of an episode just recorded (the batch processor sends it within a second or so). */
  episodeRecorded(episodeId: number): void {
    try {
      this.run ??= requireRun(this.store, this.runId);
      this.provider ??= createRunTraceProvider(this.run, this.exporter);
      const record = loadEpisodeRecord(this.store, episodeId);
      if (!record) return;
      this.spans += emitEpisode(this.provider.getTracer('m3bench-run'), this.run, record);
      this.traces += 1;
    } catch (error) {
      this.logger.warn(`otlp: the trace of episode ${episodeId} was not sent: ${(error as Error).message}`);
    }
  }

  /** Sends what is queued and says how much the collector took. */
  async close(): Promise<void> {
    if (!this.provider) return;
    await flush(this.provider);
    await this.provider.shutdown().catch(() => undefined);
    const line = `otlp: ${this.traces} trace(s), ${this.exporter.exported} of ${this.spans} span(s) accepted by ${this.url}`;
    if (this.exporter.failures.length > 0 || this.exporter.exported < this.spans) this.logger.warn(`${line}; ${this.exporter.failures[0] ?? ''}`);
    else this.logger.info(line);
  }
}
