// `m3 runs export <run-id>`: one stored run written in the formats other tools read. Each
// requested format is written in turn; the answer lists what was written, each line saying
// what produced its numbers.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, StoreError } from '../errors/index.js';
import { redactValue } from '../log/redact.js';
import { openStore } from '../store/index.js';
import { toInspectLog } from './inspect-log.js';
import { sendRunTraces, writeRunTraces } from './otel-export.js';
import { loadRunRecords, type RunRecords } from './run-records.js';

export interface RunExportRequest {
  storeFile: string;
  runId: string;
  /** OTLP/HTTP collector address (a bare address gets /v1/traces). */
  otlp?: string;
  /** File for the OTLP JSON ExportTraceServiceRequest. */
  otlpFile?: string;
  /** File for the inspect_ai eval log (.json). */
  inspect?: string;
  /** Where the run's evaluation outputs are (the inspect log's scores); default `results`. */
  resultsDir?: string;
}

/** Writes the requested exports of one run; returns one line per export for stdout. */
export async function exportRun(request: RunExportRequest): Promise<string[]> {
  if (!request.otlp && !request.otlpFile && !request.inspect)
    throw new ConfigError('m3 runs export: pass at least one of --otlp <url>, --otlp-file <file>, --inspect <file>');
  const file = path.resolve(request.storeFile);
  if (!existsSync(file)) throw new StoreError(`no run store at ${file}; pass --store <file> (m3 run writes <results-dir>/m3bench.sqlite)`);
  const store = openStore(file, { readonly: true });
  const lines: string[] = [];
  try {
    const records = loadRunRecords(store, request.runId);
    if (request.otlp) {
      const sent = await sendRunTraces(records, request.otlp);
      lines.push(`otlp: ${sent.traces} trace(s), ${sent.spans} span(s) of run ${request.runId} accepted by ${sent.url}`);
    }
    if (request.otlpFile) {
      const written = await writeRunTraces(records, request.otlpFile);
      lines.push(
        `otlp-file: ${written.traces} trace(s), ${written.spans} span(s) of run ${request.runId} in ${request.otlpFile} (${written.bytes} bytes, OTLP JSON)`,
      );
    }
    if (request.inspect)
      lines.push(writeInspectLog(loadRunRecords(store, request.runId, { latestOnly: true }), request.inspect, request.resultsDir ?? 'results'));
  } finally {
    store.close();
  }
  return lines;
}

function writeInspectLog(records: RunRecords, file: string, resultsDir: string): string {
  const log = toInspectLog(records, path.resolve(resultsDir));
  // The store redacted every value on write; redacting again keeps a secret registered since out too.
  const body = JSON.stringify(redactValue(log), null, 2);
  writeFileSync(file, body);
  const scored = log.results.scores.map((score) => `${score.name} ${score.metrics.mean.value.toFixed(3)} over ${score.scored_samples}`);
  return `inspect: ${log.samples.length} sample(s) of run ${records.run.runId} in ${file} (${Buffer.byteLength(body)} bytes, inspect eval log v2); means: ${scored.length ? scored.join(', ') : 'none (run not evaluated: m3 eval step, m3 eval task)'}`;
}
