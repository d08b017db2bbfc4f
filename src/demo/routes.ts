// The demo's JSON API. Every route is listed here with its method; state-changing routes are
// POSTs and pass the same-origin guard in server.ts before they get here. Every route that names
// a session answers only the visitor that created it (the cookie of src/demo/visitor.ts); to
// anyone else the session does not exist.
//   GET  /api/config                          models (ids only), servers, limits, notes
//   GET  /api/tools                           the tool catalog with input schemas
//   POST /api/sessions                        a new session
//   GET  /api/sessions/:id                    its turns, images and whether a message runs
//   POST /api/sessions/:id/images             one image as the raw request body
//   GET  /api/sessions/:id/images/:imageId    an image of the session, by its generated id
//   GET  /api/sessions/:id/events             server-sent events (the live timeline)
//   POST /api/sessions/:id/messages           start a message (one episode)
//   POST /api/sessions/:id/cancel             abort the running message
//   POST /api/tools/call                      the tool playground
//   GET  /api/servers/:name                   a server's capabilities, resources and prompts
//   POST /api/servers/:name/resources/read    read one resource ({sessionId, uri})
//   POST /api/servers/:name/prompts/get       fill in one prompt ({sessionId, name, arguments})
//   GET  /api/servers/:name/rpc-log?session=id[&after=n] the server's JSON-RPC log as that session may see it
//   GET  /api/samples                         the bundled sample photos (names)
//   GET  /api/samples/:folder/:file           one sample photo, by its listed name
//   POST /api/sessions/:id/samples            add a sample photo to the session, as an upload
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import { z } from 'zod';
import { createMessageSchema, startMessage } from './chat.js';
import type { DemoContext } from './context.js';
import { openEventStream, type OpenStreams } from './event-stream.js';
import { errorMessage } from '../errors/index.js';
import { HttpError, readBody, readJson, securityHeaders, sendJson } from '../web/http-kit.js';
import { dispatch, type Route } from '../web/router.js';
import { callToolFromPage, toolCallSchema } from './playground.js';
import { getPromptFromPage, getPromptSchema, inspectionOf, readResourceFromPage, readResourceSchema, rpcLogOf, serverOverview } from './server-inspect.js';
import { imageIdPattern, storeSessionImage, toPageImage } from './session-images.js';
import { listSamples } from './samples.js';
import type { Session } from './sessions.js';
import { visitorOf, visitorOrNew } from './visitor.js';

export interface RouteContext extends DemoContext {
  streams: Set<http.ServerResponse> & OpenStreams;
}

function sessionOf(route: RouteContext, request: http.IncomingMessage, id: string | undefined | null): Session {
  const session = id ? route.sessions.get(id, visitorOf(request)) : undefined;
  if (!session)
    throw new HttpError(404, `session "${id ?? ''}" not found (the demo may have restarted): reload the page to start a new session`, 'unknown_session');
  return session;
}

function configOf(route: RouteContext): unknown {
  return {
    models: route.models.models.map((model) => ({ id: model.id, available: Boolean(model.driver), ...(model.error ? { error: model.error } : {}) })),
    ...(route.models.note ? { note: route.models.note } : {}),
    servers: route.host
      .status()
      .map((server) => ({ name: server.name, state: server.state, toolCount: server.toolCount, ...(server.error ? { error: server.error } : {}) })),
    loop: route.loopLimits,
    limits: {
      maxUploadBytes: route.limits.maxUploadBytes,
      maxImagesPerMessage: route.limits.maxImagesPerMessage,
      maxMessageChars: route.limits.maxMessageChars,
      maxTurns: route.limits.maxTurns,
    },
  };
}

function sessionState(session: Session): unknown {
  return {
    id: session.id,
    lastEventId: session.lastEventId,
    running: session.running?.episodeId ?? null,
    turns: session.turns.map((turn) => ({
      episodeId: turn.episodeId,
      question: turn.question,
      reply: turn.reply,
      status: turn.status,
      model: turn.model,
      imageIds: turn.imageIds,
    })),
    images: [...session.images.values()].map(toPageImage),
  };
}

function sampleNamed(route: RouteContext, name: string): string {
  const sample = listSamples(route.root).find((entry) => entry.name === name);
  if (!sample) throw new HttpError(404, `no sample photo "${name}" (see /api/samples)`, 'unknown_sample');
  return sample.file;
}

/** A server's own refusal (unknown resource, bad prompt argument) is a 502 carrying its message. */
async function fromServer<T>(server: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(502, `server "${server}" answered with an error: ${errorMessage(error)}`, 'server_error');
  }
}

const serverName = (name: string | undefined) => decodeURIComponent(name ?? '');

/** A playground request to one server: the page's session, the server's inspection, its answer as JSON. */
function serverPost<S extends z.ZodType<{ sessionId?: string | undefined }>>(
  pattern: RegExp,
  schema: S,
  what: string,
  work: (route: RouteContext, session: Session, inspection: ReturnType<typeof inspectionOf>, body: z.output<S>) => Promise<unknown>,
): Route<RouteContext> {
  return {
    method: 'POST',
    pattern,
    handler: async (route, request, response, [name]) => {
      const body = await readJson(request, schema, route.limits.maxJsonBytes, what);
      const session = sessionOf(route, request, body.sessionId);
      const inspection = inspectionOf(route, serverName(name));
      sendJson(response, 200, await fromServer(inspection.server, work(route, session, inspection, body)));
    },
  };
}

const inspectRoutes: Route<RouteContext>[] = [
  {
    method: 'GET',
    pattern: /^\/api\/servers\/([^/]+)$/,
    handler: async (route, _request, response, [name]) => sendJson(response, 200, await serverOverview(inspectionOf(route, serverName(name)))),
  },
  serverPost(/^\/api\/servers\/([^/]+)\/resources\/read$/, readResourceSchema, 'the resource request', (route, session, inspection, body) =>
    readResourceFromPage(route, session, inspection, body.uri),
  ),
  serverPost(/^\/api\/servers\/([^/]+)\/prompts\/get$/, getPromptSchema, 'the prompt request', (route, session, inspection, body) =>
    getPromptFromPage(route, session, inspection, body.name, body.arguments),
  ),
  {
    method: 'GET',
    pattern: /^\/api\/servers\/([^/]+)\/rpc-log$/,
    handler: async (route, request, response, [name], url) => {
      const after = url.searchParams.get('after') ?? '0';
      if (!/^\d+$/.test(after)) throw new HttpError(400, `after must be a whole number, got "${after}"`, 'bad_request');
      const session = sessionOf(route, request, url.searchParams.get('session'));
      sendJson(response, 200, rpcLogOf(inspectionOf(route, serverName(name)), session, Number(after)));
    },
  },
];

const routes: Route<RouteContext>[] = [
  ...inspectRoutes,
  { method: 'GET', pattern: /^\/api\/config$/, handler: async (route, _request, response) => sendJson(response, 200, configOf(route)) },
  {
    method: 'GET',
    pattern: /^\/api\/samples$/,
    handler: async (route, _request, response) =>
      sendJson(response, 200, { samples: listSamples(route.root).map((sample) => ({ name: sample.name, url: `/api/samples/${sample.name}` })) }),
  },
  {
    method: 'GET',
    pattern: /^\/api\/samples\/([a-z]+\/[^/]+)$/,
    handler: async (route, _request, response, [name]) => {
      const body = await readFile(sampleNamed(route, decodeURIComponent(name ?? '')));
      const type = /\.png$/i.test(name ?? '') ? 'image/png' : /\.webp$/i.test(name ?? '') ? 'image/webp' : 'image/jpeg';
      response.writeHead(200, { ...securityHeaders, 'content-type': type, 'content-length': body.length, 'cache-control': 'private, max-age=3600' });
      response.end(body);
    },
  },
  {
    method: 'POST',
    pattern: /^\/api\/sessions\/([^/]+)\/samples$/,
    handler: async (route, request, response, [id]) => {
      const session = sessionOf(route, request, id);
      const body = await readJson(request, z.strictObject({ name: z.string().min(1).max(300) }), 1024, 'the sample request');
      const image = await storeSessionImage(session, await readFile(sampleNamed(route, body.name)), { kind: 'upload', source: 'upload' }, route.images);
      sendJson(response, 201, toPageImage(image));
    },
  },
  {
    method: 'GET',
    pattern: /^\/api\/tools$/,
    handler: async (route, _request, response) =>
      sendJson(response, 200, {
        tools: route.host.tools.map((tool) => ({
          name: tool.canonicalName,
          server: tool.server,
          tool: tool.tool,
          description: tool.description,
          inputSchema: tool.inputSchema,
        })),
      }),
  },
  {
    method: 'POST',
    pattern: /^\/api\/sessions$/,
    handler: async (route, request, response) => {
      await readBody(request, 1024, 'the request');
      sendJson(response, 201, sessionState(route.sessions.create(visitorOrNew(request, response))));
    },
  },
  {
    method: 'GET',
    pattern: /^\/api\/sessions\/([^/]+)$/,
    handler: async (route, request, response, [id]) => sendJson(response, 200, sessionState(sessionOf(route, request, id))),
  },
  {
    method: 'POST',
    pattern: /^\/api\/sessions\/([^/]+)\/images$/,
    handler: async (route, request, response, [id]) => {
      const session = sessionOf(route, request, id);
      const bytes = await readBody(request, route.limits.maxUploadBytes, 'the upload');
      const image = await storeSessionImage(session, bytes, { kind: 'upload', source: 'upload' }, route.images);
      sendJson(response, 201, toPageImage(image));
    },
  },
  {
    method: 'GET',
    pattern: /^\/api\/sessions\/([^/]+)\/images\/([^/]+)$/,
    handler: async (route, request, response, [id, imageId]) => {
      const session = sessionOf(route, request, id);
      // Only ids this session generated are served; the id is looked up, never joined onto a path.
      const image = imageId && imageIdPattern.test(imageId) ? session.images.get(imageId) : undefined;
      if (!image) throw new HttpError(404, `no image "${imageId ?? ''}" in this session`, 'unknown_image');
      const body = await readFile(image.file);
      response.writeHead(200, { ...securityHeaders, 'content-type': image.mediaType, 'content-length': body.length, 'cache-control': 'private, max-age=3600' });
      response.end(body);
    },
  },
  {
    method: 'GET',
    pattern: /^\/api\/sessions\/([^/]+)\/events$/,
    handler: async (route, request, response, [id], url) => openEventStream(request, response, url, sessionOf(route, request, id), route.streams),
  },
  {
    method: 'POST',
    pattern: /^\/api\/sessions\/([^/]+)\/messages$/,
    handler: async (route, request, response, [id]) => {
      const session = sessionOf(route, request, id);
      const body = await readJson(
        request,
        createMessageSchema(route.limits.maxMessageChars, route.limits.maxImagesPerMessage),
        route.limits.maxJsonBytes,
        'the message',
      );
      sendJson(response, 202, startMessage(route, session, body));
    },
  },
  {
    method: 'POST',
    pattern: /^\/api\/sessions\/([^/]+)\/cancel$/,
    handler: async (route, request, response, [id]) => {
      const session = sessionOf(route, request, id);
      const body = await readJson(request, z.strictObject({ episodeId: z.string().optional() }), 1024, 'the cancel request');
      const running = session.running;
      const matches = running && (body.episodeId === undefined || body.episodeId === running.episodeId);
      if (matches) running.controller.abort(new Error('cancelled by the user'));
      sendJson(response, 200, { cancelled: Boolean(matches), episodeId: running?.episodeId ?? null });
    },
  },
  {
    method: 'POST',
    pattern: /^\/api\/tools\/call$/,
    handler: async (route, request, response) => {
      const body = await readJson(request, toolCallSchema, route.limits.maxJsonBytes, 'the tool call');
      const session = sessionOf(route, request, body.sessionId);
      const gone = new AbortController();
      response.on('close', () => gone.abort());
      sendJson(response, 200, await callToolFromPage(route, session, body, gone.signal));
    },
  },
];

/** Dispatches an /api/ request; throws HttpError 404/405 when nothing matches. */
export async function handleApi(route: RouteContext, request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
  await dispatch(routes, route, request, response, url);
}
