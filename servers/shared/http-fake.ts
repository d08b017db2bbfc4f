// A local HTTP fake of an upstream web API on 127.0.0.1 (random port), used by the tests and by
// `m3 servers check --smoke --offline` (shipped code, not test-only). Routes answer with the
// bodies a test gives (taken from the upstream's documented examples); every request is recorded
// (method, path, query, headers, body) so tests can assert what a server sent; faults can be
// queued per route (429 with retry-after, 500, slow answers, malformed JSON, a dropped socket);
// a body can be streamed slowly in slices (`throttle`), to test interrupted and resumed downloads.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '../../src/core/sleep.js';

/** @internal Exported for its tests. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  delayMs?: number;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Send the body in slices of `chunkBytes`, one every `intervalMs`. */
  throttle?: { chunkBytes: number; intervalMs: number };
}

type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeRoute {
  method?: string;
  /** Exact path ("/w/api.php") or a pattern tested against the path. */
  path: string | RegExp;
  reply: FakeReply | FakeHandler;
}

export interface HttpFake {
  /** e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  /** Requests whose path matches. */
  requestsTo(path: string | RegExp): RecordedRequest[];
  /** The next `count` requests to a matching path get `reply` instead of the route's answer. */
  queueFault(path: string | RegExp, reply: FakeReply, count?: number): void;
  route(route: FakeRoute): void;
  close(): Promise<void>;
}

function matches(pattern: string | RegExp, value: string): boolean {
  return typeof pattern === 'string' ? pattern === value : pattern.test(value);
}

function toQuery(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

async function send(response: http.ServerResponse, reply: FakeReply): Promise<void> {
  if (reply.delayMs) await sleep(reply.delayMs);
  if (reply.drop) {
    response.socket?.destroy();
    return;
  }
  const raw = reply.body;
  const isRaw = typeof raw === 'string' || Buffer.isBuffer(raw);
  const payload = raw === undefined ? '' : isRaw ? raw : JSON.stringify(raw);
  const headers = { ...(isRaw || raw === undefined ? {} : { 'content-type': 'application/json' }), ...(reply.headers ?? {}) };
  if (response.destroyed) return;
  if (!reply.throttle) {
    response.writeHead(reply.status ?? 200, headers).end(payload);
    return;
  }
  const bytes = Buffer.from(payload);
  response.writeHead(reply.status ?? 200, { 'content-length': String(bytes.length), ...headers });
  for (let offset = 0; offset < bytes.length && !response.destroyed; offset += reply.throttle.chunkBytes) {
    response.write(bytes.subarray(offset, offset + reply.throttle.chunkBytes));
    await sleep(reply.throttle?.intervalMs ?? 0);
  }
  if (!response.destroyed) response.end();
}

export async function startHttpFake(routes: FakeRoute[] = []): Promise<HttpFake> {
  const table = [...routes];
  const faults: Array<{ path: string | RegExp; reply: FakeReply; left: number }> = [];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: toQuery(url.searchParams),
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const fault = faults.find((entry) => entry.left > 0 && matches(entry.path, recorded.path));
      if (fault) {
        fault.left -= 1;
        void send(response, fault.reply);
        return;
      }
      const route = table.find((entry) => (!entry.method || entry.method === recorded.method) && matches(entry.path, recorded.path));
      if (!route) {
        void send(response, { status: 404, body: { error: `http fake: no route for ${recorded.method} ${recorded.path}` } });
        return;
      }
      void Promise.resolve(typeof route.reply === 'function' ? route.reply(recorded) : route.reply)
        .then((reply) => send(response, reply))
        .catch((error: unknown) => send(response, { status: 500, body: { error: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((request) => matches(path, request.path)),
    queueFault: (path, reply, count = 1) => faults.push({ path, reply, left: count }),
    route: (route) => table.unshift(route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
