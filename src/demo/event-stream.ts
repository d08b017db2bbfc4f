// Server-sent events for one session: one EventSource per page. Buffered events after the
// client's Last-Event-ID (or ?after=) are replayed first, so an event fired before the stream
// connected, or during a reconnect, is never lost. A comment line every few seconds keeps
// proxies and idle timers from closing the stream.
import type http from 'node:http';
import { securityHeaders, toPageJson } from '../web/http-kit.js';
import type { Session } from './sessions.js';

export interface OpenStreams {
  add(response: http.ServerResponse): void;
  delete(response: http.ServerResponse): void;
}

function afterIdOf(request: http.IncomingMessage, url: URL): number {
  const header = request.headers['last-event-id'];
  const raw = typeof header === 'string' && header !== '' ? header : (url.searchParams.get('after') ?? '0');
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

export function openEventStream(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  url: URL,
  session: Session,
  streams: OpenStreams,
  heartbeatMs = 15_000,
): void {
  response.writeHead(200, {
    ...securityHeaders,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  response.write('retry: 2000\n\n');
  const unsubscribe = session.subscribe(
    (id, event) => {
      response.write(`id: ${id}\ndata: ${toPageJson(event)}\n\n`);
    },
    afterIdOf(request, url),
  );
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMs);
  streams.add(response);
  response.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(response);
  });
}
