// Traces sent while `m3 run` runs: with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as given) or
// OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces) set, each episode's trace is read back from the store
// as soon as the episode is recorded and handed to the OpenTelemetry SDK's batch processor, which
// sends it over OTLP/HTTP (JSON). The spans are the ones `m3 runs export --otlp` sends
// (otel-spans.ts). A collector that fails does not stop the run: the count it accepted is logged.
// The SDK is imported only when an endpoint is set: it was about a quarter of what `m3 run` loads.
import type { Logger } from '../log/logger.js';
import type { EpisodeObserver } from '../runner/recorder.js';
import type { Store } from '../store/index.js';

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
  const [{ tracesUrl }, { LiveTraces }] = await Promise.all([import('./otel-export.js'), import('./live-trace-sink.js')]);
  return new LiveTraces(store, runId, tracesUrl(address), logger);
}
