// A stored run as OpenTelemetry traces, one trace per episode, through the OpenTelemetry JS SDK:
// sent with its OTLP/HTTP exporter (JSON) to a collector, or serialised with its own OTLP JSON
// serialiser to a file (an ExportTraceServiceRequest, what an OTLP/HTTP JSON body holds).
import { writeFileSync } from 'node:fs';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { ConfigError } from '../errors/index.js';
import { redactText } from '../log/redact.js';
import { type SpanDescription, toEpisodeSpans } from './otel-spans.js';
import type { RunRow } from '../store/index.js';
import type { EpisodeRecord, RunRecords } from './run-records.js';

export interface OtelExportSummary {
  traces: number;
  spans: number;
}

/** Counts what the wrapped exporter accepted and keeps why an export failed (the SDK only logs it). */
export class CheckedExporter implements SpanExporter {
  exported = 0;
  readonly failures: string[] = [];
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.exported += spans.length;
      else this.failures.push(result.error?.message ?? 'the exporter reported a failure');
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** The traces endpoint: a bare collector address (`http://host:4318`) gets the OTLP path `/v1/traces`. */
export function tracesUrl(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new ConfigError(`--otlp: expected an http(s) URL such as http://127.0.0.1:4318, got "${address}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`--otlp: expected an http or https URL, got "${address}"`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces';
  return url.toString();
}

function emitSpan(tracer: Tracer, description: SpanDescription, parent = ROOT_CONTEXT) {
  // Dates, not numbers: the SDK reads a number below the process's start as a performance.now() offset.
  // The store redacted every value on write; masking again keeps out a secret registered since.
  const attributes = Object.fromEntries(
    Object.entries(description.attributes).map(([key, value]) => [key, typeof value === 'string' ? redactText(value) : value]),
  );
  const span = tracer.startSpan(description.name, { startTime: new Date(description.start), attributes, kind: SpanKind.INTERNAL }, parent);
  if (description.error) span.setStatus({ code: SpanStatusCode.ERROR, message: redactText(description.error.message) });
  return span;
}

// A refused batch rejects the flush with the exporter's errors; CheckedExporter has kept them and
// the caller reports them with the count accepted, so the flush itself goes on.
export function flush(provider: BasicTracerProvider): Promise<void> {
  return provider.forceFlush().catch(() => undefined);
}

/** A tracer provider for one run's traces; the queue holds what waits between flushes. */
export function createRunTraceProvider(run: RunRow, exporter: SpanExporter): BasicTracerProvider {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'm3bench', 'm3bench.run.id': run.runId, 'm3bench.model_spec': run.modelSpec }),
    spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 100_000, maxExportBatchSize: 512, scheduledDelayMillis: 1000 })],
  });
}

/** Emits one episode's trace; returns its span count. */
export function emitEpisode(tracer: Tracer, run: RunRow, record: EpisodeRecord): number {
  const described = toEpisodeSpans(run, record);
  const root = emitSpan(tracer, described.root);
  const inside = trace.setSpan(ROOT_CONTEXT, root);
  for (const child of described.children) emitSpan(tracer, child, inside).end(new Date(child.end));
  root.end(new Date(described.root.end));
  return described.children.length + 1;
}

/** Writes every episode of `records` to `exporter`; resolves once the SDK has handed them all over. */
async function emitRun(records: RunRecords, exporter: SpanExporter): Promise<OtelExportSummary> {
  const provider = createRunTraceProvider(records.run, exporter);
  const tracer = provider.getTracer('m3bench-export');
  let spans = 0;
  try {
    for (const [index, record] of records.episodes.entries()) {
      spans += emitEpisode(tracer, records.run, record);
      if ((index + 1) % 100 === 0) await flush(provider);
    }
    await flush(provider);
  } finally {
    await provider.shutdown().catch(() => undefined);
  }
  return { traces: records.episodes.length, spans };
}

/** Sends the run's traces to an OTLP/HTTP collector (JSON bodies); fails if the collector refused any. */
export async function sendRunTraces(records: RunRecords, address: string): Promise<OtelExportSummary & { url: string }> {
  const url = tracesUrl(address);
  const exporter = new CheckedExporter(new OTLPTraceExporter({ url, timeoutMillis: 30_000 }));
  const summary = await emitRun(records, exporter);
  if (exporter.failures.length > 0 || exporter.exported < summary.spans)
    throw new ConfigError(
      `OTLP export to ${url}: ${exporter.exported} of ${summary.spans} spans accepted${exporter.failures.length ? `; ${exporter.failures[0]}` : ''}`,
    );
  return { ...summary, url };
}

/** Writes the run's traces as one OTLP JSON ExportTraceServiceRequest (what `--otlp` would POST). */
export async function writeRunTraces(records: RunRecords, file: string): Promise<OtelExportSummary & { bytes: number }> {
  const memory = new InMemorySpanExporter();
  const summary = await emitRun(records, {
    export: (spans, done) => memory.export(spans, done),
    shutdown: async () => undefined,
  });
  const body = JsonTraceSerializer.serializeRequest(memory.getFinishedSpans());
  if (!body) throw new ConfigError('OTLP file export: the OpenTelemetry serialiser returned nothing');
  writeFileSync(file, body);
  return { ...summary, bytes: body.length };
}
