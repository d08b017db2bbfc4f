// A raw HTTP client for the demo tests: paths go out byte for byte (no URL normalisation, so
// `..%2f` and `/../` reach the server as written) and any header can be set, Host included.
// Every request carries the tests' visitor cookie unless `headers.cookie` says otherwise.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * The visitor cookie the tests' requests carry, as a browser carries the one the demo set on its
 * first session (src/demo/visitor.ts): sessions the tests create belong to this visitor.
 */
export const visitorCookie = `m3demo_visitor=${randomBytes(32).toString('base64url')}`;

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export function rawRequest(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { cookie: visitorCookie, ...(options.headers ?? {}) },
        setHost: !options.headers?.host,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text, json: <T>() => JSON.parse(text) as T });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
