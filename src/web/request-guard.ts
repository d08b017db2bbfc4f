// Who may talk to a web server of ours (the demo, the run viewer). Two checks on every request:
//  - the Host header must name this server (127.0.0.1, localhost, [::1] or the bound host),
//    which defeats DNS-rebinding pages that would otherwise reach a local server by name;
//  - any request that changes state (every method but GET/HEAD) must be same-origin: a
//    browser sends Origin and/or Sec-Fetch-Site on such requests, and a cross-site page can
//    fake neither. Clients that send neither (curl, scripts) are not browsers and cannot be
//    tricked into a cross-site request, so they pass.
import type http from 'node:http';
import { HttpError } from './http-kit.js';

export interface GuardOptions {
  /** The address the server is bound to (e.g. 127.0.0.1 or 0.0.0.0). */
  boundHost: string;
  /** Extra host names allowed in the Host header (e.g. a LAN name when bound to 0.0.0.0). */
  allowedHosts?: readonly string[];
}

function hostNameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  const colon = hostHeader.lastIndexOf(':');
  return (colon >= 0 ? hostHeader.slice(0, colon) : hostHeader).toLowerCase();
}

export function allowedHostNames(options: GuardOptions): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', ...(options.allowedHosts ?? []).map((name) => name.toLowerCase())]);
  const bound = options.boundHost.toLowerCase();
  if (bound !== '0.0.0.0' && bound !== '::') names.add(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound);
  return names;
}

export function checkRequest(request: http.IncomingMessage, allowed: ReadonlySet<string>): void {
  const hostHeader = request.headers.host ?? '';
  if (!allowed.has(hostNameOf(hostHeader))) {
    throw new HttpError(
      403,
      `host "${hostHeader}" is not served here: open the page as http://127.0.0.1:<port>/ or http://localhost:<port>/ (or pass --allow-host)`,
      'forbidden_host',
    );
  }
  const method = request.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    throw new HttpError(403, `cross-site request refused (Sec-Fetch-Site: ${site}): only the page itself may change state`, 'cross_origin');
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${hostHeader}`) {
    throw new HttpError(403, `cross-origin request refused (Origin: ${origin}, expected http://${hostHeader})`, 'cross_origin');
  }
}
