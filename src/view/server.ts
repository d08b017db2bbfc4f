// `m3 view`: the run viewer's web server, on the shared web stack (src/web/). Read-only over the
// run store and the evaluation outputs; every route is a GET:
//   GET /api/runs                              every run with totals and headline step metrics
//   GET /api/runs-stamp                        a fingerprint of the run list (the runs page polls it)
//   GET /api/runs/:runId                       the run and its whole task table (the compare page; older pages)
//   GET /api/runs/:runId/tasks?q=&outcome=&...  the run and one page of its task table: search, filters, sort (task-query.ts)
//   GET /api/runs/:runId/intervals             the run's pass@1 / recall / precision bootstrap intervals (ready, or
//                                              computing in the background: interval-jobs.ts)
//   GET /api/runs/:runId/tasks/:taskId[?trial=t] transcript (model and tool calls), alignment, final scores
//   GET /api/compare?a=<runId>&b=<runId>       two runs on their shared tasks
//   GET /api/matrix[?runs=<a>,<b>,...]         tasks × runs: success and recall per cell (default: every run, up to 12)
//   GET /api/tool-calls/:id/images/:n          the n-th image a tool call wrote (under media/ or the results folder)
//   GET /api/runs/:runId/tasks/:taskId/images/:n[?trial=t] the n-th task image of the episode's first request
//   GET /api/vendor/chart.umd.min.js           chart.js (the installed dependency) for the run charts
// Pages poll these routes while a run is in flight, so they follow it without a reload; the runs
// page also polls the stamp while none is, so a run started later appears without a reload.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type http from 'node:http';
import path from 'node:path';
import { fromRepo, repoRoot } from '../config/paths.js';
import { log, type Logger } from '../log/logger.js';
import { getToolCall, modelCallsForEpisode, type Store } from '../store/index.js';
import { HttpError, securityHeaders, sendJson } from '../web/http-kit.js';
import { listenWeb } from '../web/listen.js';
import { dispatch, type Route } from '../web/router.js';
import { sharedPublicDir, StaticFiles } from '../web/static-files.js';
import { comparePage, runHeadline, runIntervalsPage, runOf, runPage, runsPage, runsStamp, type ViewSources } from './pages.js';
import { createIntervalJobs } from './interval-jobs.js';
import { matrixPage } from './matrix-page.js';
import { indexedRows } from './task-index.js';
import { queryTasks, taskQuerySchema } from './task-query.js';
import { episodeOf, taskImagesOf, taskPage } from './task-page.js';
import { imageTypes, insideRoots, toolImagePaths } from './tool-images.js';

export interface ViewServerOptions {
  store: Store;
  resultsDir: string;
  host?: string;
  /** 0 picks a free port. */
  port: number;
  allowedHosts?: string[];
  /** Folders tool images may be served from; default <repo>/media and the results folder (each run's task workspaces are in its run folder). */
  imageRoots?: string[];
  /** The page's files (default src/view/public); `npm run bench:view` serves an earlier page's copy beside this one. */
  publicDir?: string;
  logger?: Logger;
}

export interface ViewServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface ViewContext extends ViewSources {
  imageRoots: string[];
  chartJs: Buffer;
}

// The page loads chart.js from this server (the CSP allows scripts from 'self' only): the UMD
// build of the installed package, read once at start, so no CDN and no copy in the repo.
function readChartJs(): Buffer {
  const entry = createRequire(import.meta.url).resolve('chart.js');
  return readFileSync(path.join(path.dirname(entry), 'chart.umd.min.js'));
}

async function sendToolImage(context: ViewContext, response: http.ServerResponse, callId: number, n: number): Promise<void> {
  const call = getToolCall(context.store, callId);
  const file = call ? toolImagePaths(call.resultText, call.images.length)[n] : undefined;
  await sendImageFile(context, response, file, `tool call ${callId} has no servable image ${n}`);
}

function taskTable(context: ViewContext, runId: string, url: URL) {
  const parsed = taskQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, `task query: ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`, 'bad_request');
  }
  const run = runOf(context, runId);
  return { run: runHeadline(context, run, false), ...queryTasks(indexedRows(context, run), parsed.data) };
}

function trialOf(url: URL): number {
  const trial = url.searchParams.get('trial') ?? '1';
  if (!/^[1-9]\d*$/.test(trial)) throw new HttpError(400, `trial must be a whole number from 1, got "${trial}"`, 'bad_request');
  return Number(trial);
}

async function sendTaskImage(context: ViewContext, response: http.ServerResponse, ids: { runId: string; taskId: string; trial: number }, n: number) {
  const episode = episodeOf(context, ids.runId, ids.taskId, ids.trial);
  const file = taskImagesOf(modelCallsForEpisode(context.store, episode.id))[n]?.source;
  await sendImageFile(context, response, file, `task ${ids.taskId} of run ${ids.runId} has no servable image ${n}`);
}

async function sendImageFile(context: ViewContext, response: http.ServerResponse, file: string | undefined, what: string): Promise<void> {
  const real = file ? insideRoots(file, context.imageRoots, repoRoot) : undefined;
  if (!real) throw new HttpError(404, `${what} (the file may have been removed, or lies outside media/ and the results folder)`, 'unknown_image');
  const body = await readFile(real);
  response.writeHead(200, {
    ...securityHeaders,
    'content-type': imageTypes[path.extname(real).toLowerCase()] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': 'private, max-age=60',
  });
  response.end(body);
}

const routes: Route<ViewContext>[] = [
  { method: 'GET', pattern: /^\/api\/runs$/, handler: async (context, _request, response) => sendJson(response, 200, runsPage(context)) },
  { method: 'GET', pattern: /^\/api\/runs-stamp$/, handler: async (context, _request, response) => sendJson(response, 200, runsStamp(context)) },
  {
    method: 'GET',
    pattern: /^\/api\/runs\/([^/]+)$/,
    handler: async (context, _request, response, [runId]) => sendJson(response, 200, runPage(context, runId ?? '')),
  },
  {
    method: 'GET',
    pattern: /^\/api\/runs\/([^/]+)\/intervals$/,
    handler: async (context, _request, response, [runId]) => sendJson(response, 200, runIntervalsPage(context, runId ?? '')),
  },
  {
    method: 'GET',
    pattern: /^\/api\/runs\/([^/]+)\/tasks$/,
    handler: async (context, _request, response, [runId], url) => sendJson(response, 200, taskTable(context, runId ?? '', url)),
  },
  {
    method: 'GET',
    pattern: /^\/api\/runs\/([^/]+)\/tasks\/([^/]+)$/,
    handler: async (context, _request, response, [runId, taskId], url) => sendJson(response, 200, taskPage(context, runId ?? '', taskId ?? '', trialOf(url))),
  },
  {
    method: 'GET',
    pattern: /^\/api\/runs\/([^/]+)\/tasks\/([^/]+)\/images\/(\d+)$/,
    handler: async (context, _request, response, [runId, taskId, n], url) =>
      sendTaskImage(context, response, { runId: runId ?? '', taskId: taskId ?? '', trial: trialOf(url) }, Number(n)),
  },
  {
    method: 'GET',
    pattern: /^\/api\/compare$/,
    handler: async (context, _request, response, _params, url) => {
      const a = url.searchParams.get('a');
      const b = url.searchParams.get('b');
      if (!a || !b) throw new HttpError(400, 'compare needs two run ids: /api/compare?a=<runId>&b=<runId>', 'bad_request');
      sendJson(response, 200, comparePage(context, a, b));
    },
  },
  {
    method: 'GET',
    pattern: /^\/api\/matrix$/,
    handler: async (context, _request, response, _params, url) => {
      const runs = (url.searchParams.get('runs') ?? '').split(',').filter(Boolean);
      sendJson(response, 200, matrixPage(context, runs));
    },
  },
  {
    method: 'GET',
    pattern: /^\/api\/vendor\/chart\.umd\.min\.js$/,
    handler: async (context, _request, response) => {
      response.writeHead(200, {
        ...securityHeaders,
        'content-type': 'text/javascript; charset=utf-8',
        'content-length': context.chartJs.length,
        'cache-control': 'private, max-age=3600',
      });
      response.end(context.chartJs);
    },
  },
  {
    method: 'GET',
    pattern: /^\/api\/tool-calls\/(\d+)\/images\/(\d+)$/,
    handler: async (context, _request, response, [id, n]) => sendToolImage(context, response, Number(id), Number(n)),
  },
];

export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const intervals = createIntervalJobs(options.logger ?? log);
  const context: ViewContext = {
    store: options.store,
    intervals,
    resultsDir: path.resolve(options.resultsDir),
    imageRoots: options.imageRoots ?? [fromRepo('media'), path.resolve(options.resultsDir)],
    chartJs: readChartJs(),
  };
  const listening = await listenWeb({
    name: 'view',
    ...(options.host ? { host: options.host } : {}),
    port: options.port,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    statics: new StaticFiles([options.publicDir ?? fromRepo('src', 'view', 'public'), sharedPublicDir()]),
    api: (request, response, url) => dispatch(routes, context, request, response, url),
    logger: options.logger ?? log,
  });
  return {
    url: listening.url,
    port: listening.port,
    close: async () => {
      listening.server.closeAllConnections();
      await new Promise<void>((resolve) => listening.server.close(() => resolve()));
      await intervals.close();
    },
  };
}
