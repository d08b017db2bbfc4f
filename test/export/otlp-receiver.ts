// A loopback OTLP/HTTP receiver for the export tests: keeps each JSON body POSTed to it, and
// reads the spans and attributes out of the OTLP JSON (ExportTraceServiceRequest) shape.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number; message?: string };
}
export interface OtlpRequest {
  resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: OtlpValue }> }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
}

export const otlpValue = (value: OtlpValue | undefined) =>
  value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : (value?.doubleValue ?? value?.boolValue));
export const attributes = (span: OtlpSpan) => Object.fromEntries(span.attributes.map((entry) => [entry.key, otlpValue(entry.value)]));
export const ms = (nanos: string) => Number(BigInt(nanos) / 1_000_000n);

/** A loopback OTLP/HTTP receiver: keeps each JSON body POSTed to /v1/traces. */
export async function startReceiver(status = 200) {
  const bodies: OtlpRequest[] = [];
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      if (status === 200) bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, bodies, paths, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export const spansOf = (requests: OtlpRequest[]) =>
  requests.flatMap((body) => body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
