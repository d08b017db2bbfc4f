// The demo web server (node:http, no framework): the page's static files, the JSON API and the
// event streams, over one shared MCP host and the benchmark's drivers. The caller owns the host
// and the store; close() stops the episodes still running, ends the streams and the run row.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { agentOptionsFrom, type LoopLimits } from '../agent/options.js';
import { repoRoot } from '../config/paths.js';
import type { Switches } from '../config/switches.js';
import { ConfigError, errorMessage } from '../errors/index.js';
import { log, type Logger } from '../log/logger.js';
import type { ToolHost } from '../mcp/types.js';
import type { Store } from '../store/index.js';
import { defaultDemoLimits, type DemoLimits } from './context.js';
import { DemoRecorder } from './demo-recorder.js';
import { HttpError, sendError } from './http-kit.js';
import type { ModelChoice } from './models.js';
import { allowedHostNames, checkRequest } from './request-guard.js';
import { handleApi, type RouteContext } from './routes.js';
import { SessionStore } from './sessions.js';
import { StaticFiles } from './static-files.js';
import { ToolViews } from './tool-view.js';

export interface DemoServerOptions {
  toolHost: ToolHost;
  models: ModelChoice;
  switches: Switches;
  loopLimits: LoopLimits;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** Default 8000; 0 picks a free port. */
  port?: number;
  /** Repo root: tools resolve relative paths against it. */
  root?: string;
  /** Default <root>/media/uploads (must be readable by the local servers: under media/ or in M3_ALLOWED_ROOTS). */
  uploadsDir?: string;
  /** Default <root>/log. */
  logDir?: string;
  /** Run store; without it no run or episode rows are written. */
  store?: Store;
  limits?: Partial<DemoLimits>;
  /** Extra names accepted in the Host header. */
  allowedHosts?: string[];
  publicDir?: string;
  logger?: Logger;
}

export interface DemoServer {
  url: string;
  port: number;
  runId: string | undefined;
  close(): Promise<void>;
}

function createContext(options: DemoServerOptions, root: string, logger: Logger): RouteContext {
  const limits = { ...defaultDemoLimits, ...options.limits };
  const uploadsDir = path.resolve(options.uploadsDir ?? path.join(root, 'media', 'uploads'));
  const agentOptions = agentOptionsFrom(options.switches, options.loopLimits, [...new Set([path.join(root, 'media'), uploadsDir])]);
  const responses = new Set<http.ServerResponse>();
  return {
    host: options.toolHost,
    views: new ToolViews(options.toolHost),
    models: options.models,
    sessions: new SessionStore({ maxSessions: limits.maxSessions, maxTurns: limits.maxTurns, maxBufferedEvents: limits.maxBufferedEvents }),
    loopLimits: options.loopLimits,
    agentOptions,
    images: { root, uploadsDir, maxUploadBytes: limits.maxUploadBytes, maxImagesPerSession: limits.maxImagesPerSession, imagePolicy: agentOptions.imagePolicy },
    limits,
    root,
    logDir: path.resolve(options.logDir ?? path.join(root, 'log')),
    recorder: options.store
      ? new DemoRecorder(options.store, {
          models: options.models.models.map((model) => model.id),
          toolsHash: options.toolHost.toolsHash(),
          switches: options.switches,
          settings: { loop: options.loopLimits, limits },
        })
      : undefined,
    logger,
    running: new Set(),
    streams: responses,
  };
}

async function handle(context: RouteContext, statics: StaticFiles, allowed: ReadonlySet<string>, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  try {
    checkRequest(request, allowed);
    const url = new URL(request.url ?? '/', 'http://demo.invalid');
    if (url.pathname.startsWith('/api/')) return await handleApi(context, request, response, url);
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, `${method} is not allowed on ${url.pathname}`, 'method_not_allowed');
    if (!statics.serve(url.pathname, response, method)) throw new HttpError(404, `no file ${url.pathname}`, 'not_found');
  } catch (error) {
    if (!(error instanceof HttpError)) context.logger.error(`demo: ${request.method ?? ''} ${request.url ?? ''} failed: ${errorMessage(error)}`);
    sendError(response, error);
  }
}

export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const root = path.resolve(options.root ?? repoRoot);
  const logger = options.logger ?? log;
  const statics = new StaticFiles(options.publicDir);
  const boundHost = options.host ?? '127.0.0.1';
  const allowed = allowedHostNames({ boundHost, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) });
  const context = createContext(options, root, logger);
  const server = http.createServer((request, response) => {
    void handle(context, statics, allowed, request, response);
  });
  const wantedPort = options.port ?? 8000;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? `port ${wantedPort} is already in use (pass --port <n>, or --port 0 for a free one)` : error.code === 'EADDRNOTAVAIL' ? `address ${boundHost} is not an address of this machine (check --host)` : error.message;
      try {
        context.recorder?.close('failed');
      } finally {
        reject(new ConfigError(`demo: cannot listen on ${boundHost}:${wantedPort}: ${reason}`, { cause: error }));
      }
    };
    server.once('error', fail);
    server.listen(wantedPort, boundHost, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = boundHost === '0.0.0.0' || boundHost === '::' ? '127.0.0.1' : boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    runId: context.recorder?.runId,
    close: () => {
      closing ??= closeDemo(context, server);
      return closing;
    },
  };
}

async function closeDemo(context: RouteContext, server: http.Server): Promise<void> {
  for (const session of context.sessions.all()) session.running?.controller.abort(new Error('the demo is shutting down'));
  // Give cancelled episodes a moment to write their logs and store rows.
  await Promise.race([Promise.allSettled([...context.running]), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  for (const response of [...context.streams]) response.end();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    context.recorder?.close();
  } catch (error) {
    context.logger.warn(`demo: run ${context.recorder?.runId ?? ''} not marked finished: ${errorMessage(error)}`);
  }
}
