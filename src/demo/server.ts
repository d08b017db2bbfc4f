// The demo web server (the shared stack in src/web/): the page's static files, the JSON API and the
// event streams, over one shared MCP host and the benchmark's drivers. The caller owns the host
// and the store; close() stops the episodes still running, ends the streams and the run row.
import type http from 'node:http';
import path from 'node:path';
import { agentOptionsFrom, type LoopLimits } from '../agent/options.js';
import { fromRepo, repoRoot } from '../config/paths.js';
import type { Switches } from '../config/switches.js';
import { errorMessage } from '../errors/index.js';
import { log, type Logger } from '../log/logger.js';
import type { ToolHost } from '../mcp/types.js';
import type { Store } from '../store/index.js';
import { defaultDemoLimits, type DemoLimits } from './context.js';
import { DemoRecorder } from './demo-recorder.js';
import type { ModelChoice } from './models.js';
import { handleApi, type RouteContext } from './routes.js';
import { SessionStore } from './sessions.js';
import { listenWeb, type ListeningServer } from '../web/listen.js';
import { sharedPublicDir, StaticFiles } from '../web/static-files.js';
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

export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const root = path.resolve(options.root ?? repoRoot);
  const logger = options.logger ?? log;
  const context = createContext(options, root, logger);
  let listening: ListeningServer;
  try {
    listening = await listenWeb({
      name: 'demo',
      ...(options.host ? { host: options.host } : {}),
      port: options.port ?? 8000,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      statics: new StaticFiles([options.publicDir ?? fromRepo('src', 'demo', 'public'), sharedPublicDir()]),
      api: (request, response, url) => handleApi(context, request, response, url),
      logger,
    });
  } catch (error) {
    context.recorder?.close('failed');
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url: listening.url,
    port: listening.port,
    runId: context.recorder?.runId,
    close: () => {
      closing ??= closeDemo(context, listening.server);
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
