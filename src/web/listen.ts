// The one way our web pages are served (the demo and the run viewer): node:http, the request
// guard on every request (Host check, same-origin for state changes), the page's static files,
// errors as JSON, and a listen step whose failures say which flag to change.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, errorMessage } from '../errors/index.js';
import type { Logger } from '../log/logger.js';
import { HttpError, sendError } from './http-kit.js';
import { allowedHostNames, checkRequest } from './request-guard.js';
import type { StaticFiles } from './static-files.js';

export interface WebServerOptions {
  /** Names the server in messages ("demo", "view"). */
  name: string;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Extra names accepted in the Host header. */
  allowedHosts?: readonly string[];
  statics: StaticFiles;
  /** Handles /api/ requests; throws HttpError for 4xx. */
  api(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void>;
  logger: Logger;
}

export interface ListeningServer {
  server: http.Server;
  url: string;
  port: number;
}

async function handle(options: WebServerOptions, allowed: ReadonlySet<string>, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  try {
    checkRequest(request, allowed);
    const url = new URL(request.url ?? '/', 'http://page.invalid');
    if (url.pathname.startsWith('/api/')) return await options.api(request, response, url);
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, `${method} is not allowed on ${url.pathname}`, 'method_not_allowed');
    if (!options.statics.serve(url.pathname, response, method)) throw new HttpError(404, `no file ${url.pathname}`, 'not_found');
  } catch (error) {
    if (!(error instanceof HttpError)) options.logger.error(`${options.name}: ${request.method ?? ''} ${request.url ?? ''} failed: ${errorMessage(error)}`);
    sendError(response, error);
  }
}

/** Creates the server and listens; a bind failure is a ConfigError naming --port or --host. */
export async function listenWeb(options: WebServerOptions): Promise<ListeningServer> {
  const boundHost = options.host ?? '127.0.0.1';
  const allowed = allowedHostNames({ boundHost, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) });
  const server = http.createServer((request, response) => {
    void handle(options, allowed, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${options.port} is already in use (pass --port <n>, or --port 0 for a free one)`
          : error.code === 'EADDRNOTAVAIL'
            ? `address ${boundHost} is not an address of this machine (check --host)`
            : error.message;
      reject(new ConfigError(`${options.name}: cannot listen on ${boundHost}:${options.port}: ${reason}`, { cause: error }));
    };
    server.once('error', fail);
    server.listen(options.port, boundHost, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = boundHost === '0.0.0.0' || boundHost === '::' ? '127.0.0.1' : boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  return { server, url: `http://${shownHost}:${port}/`, port };
}
