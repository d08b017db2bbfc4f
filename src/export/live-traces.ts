// Traces sent while `m3 run` runs: with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as given) or
// OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces) set, each episode's trace is read back from the store
// as soon as the episode is recorded and handed to the OpenTelemetry SDK's batch processor, which
// sends it over OTLP/HTTP (JSON). The spans are the ones `m3 runs export --otlp` sends
// (otel-spans.ts). A collector that fails does not stop the run: the count it accepted is logged.
// The SDK is imported only when an endpoint is set: it was about a quarter of what `m3 run` loads.
import type { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../log/logger.js';
import type { EpisodeObserver } from '../runner/recorder.js';
import type { RunRow, Store } from '../store/index.js';
import type { CheckedExporter } from './otel-export.js';
import { loadEpisodeRecord, requireRun } from './run-records.js';

/** What a LiveTraces uses of otel-export.ts, imported with the SDK. */
type OtelExport = Pick<typeof import('./otel-export.js'), 'createRunTraceProvider' | 'emitEpisode' | 'flush'>;

/** The traces address the environment names (before tracesUrl checks it), or undefined when live traces are off. */
function liveTracesAddress(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** The live traces of one run when the environment names an endpoint (the runner's EpisodeObserverFactory). */
export async function liveTracesFor(
  env: Readonly<Record<string, string | undefined>>,
  store: Store,
  runId: string,
  logger: Logger,
): Promise<EpisodeObserver | undefined> {
  const address = liveTracesAddress(env);
  if (!address) return undefined;
  const [{ CheckedExporter, createRunTraceProvider, emitEpisode, flush, tracesUrl }, { OTLPTraceExporter }] = await Promise.all([
    import('./otel-export.js'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const url = tracesUrl(address);
  const exporter = new CheckedExporter(new OTLPTraceExporter({ url, timeoutMillis: 30_000 }));
  return new LiveTraces(store, runId, url, logger, { createRunTraceProvider, emitEpisode, flush }, exporter);
}

class LiveTraces implements EpisodeObserver {
  private provider: BasicTracerProvider | undefined;
  private run: RunRow | undefined;
  private spans = 0;
  private traces = 0;

  constructor(
    private readonly store: Store,
    private readonly runId: string,
    readonly url: string,
    private readonly logger: Logger,
    private readonly otel: OtelExport,
    private readonly exporter: CheckedExporter,
  ) {}

  /** Queues the trace of an episode just recorded (the batch processor sends it within a second or so). */
  episodeRecorded(episodeId: number): void {
    try {
      this.run ??= requireRun(this.store, this.runId);
      this.provider ??= this.otel.createRunTraceProvider(this.run, this.exporter);
      const record = loadEpisodeRecord(this.store, episodeId);
      if (!record) return;
      this.spans += this.otel.emitEpisode(this.provider.getTracer('m3bench-run'), this.run, record);
      this.traces += 1;
    } catch (error) {
      this.logger.warn(`otlp: the trace of episode ${episodeId} was not sent: ${(error as Error).message}`);
    }
  }

  /** Sends what is queued and says how much the collector took. */
  async close(): Promise<void> {
    if (!this.provider) return;
    await this.otel.flush(this.provider);
    await this.provider.shutdown().catch(() => undefined);
    const line = `otlp: ${this.traces} trace(s), ${this.exporter.exported} of ${this.spans} span(s) accepted by ${this.url}`;
    if (this.exporter.failures.length > 0 || this.exporter.exported < this.spans) this.logger.warn(`${line}; ${this.exporter.failures[0] ?? ''}`);
    else this.logger.info(line);
  }
}
