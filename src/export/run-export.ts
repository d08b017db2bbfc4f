// `m3 runs export <run-id>`: one stored run written in the formats other tools read. Each
// requested format is written in turn; the answer lists what was written, each line saying
// what produced its numbers.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, StoreError } from '../errors/index.js';
import { openStore } from '../store/index.js';
import { sendRunTraces, writeRunTraces } from './otel-export.js';
import { loadRunRecords } from './run-records.js';

export interface RunExportRequest {
  storeFile: string;
  runId: string;
  /** OTLP/HTTP collector address (a bare address gets /v1/traces). */
  otlp?: string;
  /** File for the OTLP JSON ExportTraceServiceRequest. */
  otlpFile?: string;
}

/** Writes the requested exports of one run; returns one line per export for stdout. */
export async function exportRun(request: RunExportRequest): Promise<string[]> {
  if (!request.otlp && !request.otlpFile) throw new ConfigError('m3 runs export: pass at least one of --otlp <url>, --otlp-file <file>');
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
  } finally {
    store.close();
  }
  return lines;
}
