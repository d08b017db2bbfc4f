// Route tables for our JSON APIs: each route is a method, a path pattern and a handler taking
// the server's own context. Unknown paths are 404, a known path with the wrong method is 405,
// and path parameters are percent-decoded (malformed encoding is a 400).
import type http from 'node:http';
import { HttpError } from './http-kit.js';

type Handler<C> = (context: C, request: http.IncomingMessage, response: http.ServerResponse, params: string[], url: URL) => Promise<void>;

export interface Route<C> {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handler: Handler<C>;
}

/** Dispatches an /api/ request; throws HttpError 404/405 when nothing matches. */
export async function dispatch<C>(
  routes: readonly Route<C>[],
  context: C,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  url: URL,
): Promise<void> {
  const method = request.method ?? 'GET';
  const matching = routes.filter((entry) => entry.pattern.test(url.pathname));
  if (matching.length === 0) throw new HttpError(404, `no API route ${url.pathname}`, 'not_found');
  const entry = matching.find((candidate) => candidate.method === method || (method === 'HEAD' && candidate.method === 'GET'));
  if (!entry)
    throw new HttpError(
      405,
      `${method} is not allowed on ${url.pathname} (use ${matching.map((candidate) => candidate.method).join(' or ')})`,
      'method_not_allowed',
    );
  let params: string[];
  try {
    params = (entry.pattern.exec(url.pathname) ?? []).slice(1).map((param) => decodeURIComponent(param));
  } catch {
    throw new HttpError(400, `malformed percent-encoding in ${url.pathname}`, 'bad_path');
  }
  await entry.handler(context, request, response, params, url);
}
