// One chat message = one episode of the benchmark's agent loop (runEpisode, same drivers, same
// host), started under the session's lock and run in the background while its events stream
// to the page. At the end: the turn joins the conversation, a session log is written, the store
// gets its episode row, and the page gets episode_end.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { EpisodeFailure, runEpisode, type EpisodeTrace } from '../agent/episode.js';
import type { AgentEvent } from '../agent/events.js';
import { errorMessage } from '../errors/index.js';
import { redactText } from '../log/redact.js';
import { classifyFailure } from '../runner/failure.js';
import { userTextFor } from '../runner/run-task.js';
import { sessionCallContext, type DemoContext } from './context.js';
import type { EpisodeOutcome } from './demo-recorder.js';
import { HttpError } from '../web/http-kit.js';
import { toPageEvent, type PageImage } from './page-events.js';
import { displayPathOf, storeToolImages, toModelImage, toPageImage } from './session-images.js';
import { writeSessionLog } from './session-log.js';
import type { Session, SessionImage } from './sessions.js';

export function createMessageSchema(maxChars: number, maxImages: number) {
  return z.strictObject({
    text: z.string().trim().min(1, 'write a message').max(maxChars, `at most ${maxChars} characters`),
    model: z.string().min(1, 'choose a model'),
    /** Servers whose tools the model may use; omitted = all. */
    servers: z.array(z.string().min(1)).max(100).optional(),
    imageIds: z.array(z.string()).max(maxImages, `at most ${maxImages} images per message`).default([]),
    /** Offer every tool of the chosen servers, not only the --top-tools best-ranked. */
    allTools: z.boolean().default(false),
  });
}

export type MessageRequest = z.output<ReturnType<typeof createMessageSchema>>;

interface PreparedMessage {
  episodeId: string;
  request: MessageRequest;
  images: SessionImage[];
  servers: string[];
  userText: string;
}

function prepare(context: DemoContext, session: Session, request: MessageRequest): PreparedMessage {
  const model = context.models.models.find((entry) => entry.id === request.model);
  if (!model) {
    const known = context.models.models.map((entry) => entry.id);
    throw new HttpError(
      known.length === 0 ? 409 : 400,
      known.length === 0 ? (context.models.note ?? 'no model is configured') : `unknown model "${request.model}" (offered: ${known.join(', ')})`,
      'no_model',
    );
  }
  if (!model.driver) throw new HttpError(409, `model ${model.id} cannot be used: ${model.error ?? 'its driver failed to start'}`, 'model_unavailable');
  const running = new Set(context.host.tools.map((tool) => tool.server));
  const unknownServers = (request.servers ?? []).filter((server) => !running.has(server));
  if (unknownServers.length > 0)
    throw new HttpError(400, `servers: not running here: ${unknownServers.join(', ')} (running: ${[...running].join(', ') || 'none'})`);
  const images = request.imageIds.map((id) => {
    const image = session.images.get(id);
    if (image?.kind !== 'upload') throw new HttpError(400, `imageIds: no uploaded image "${id}" in this session; upload it first`, 'unknown_image');
    return image;
  });
  return {
    episodeId: randomBytes(6).toString('hex'),
    request,
    images,
    servers: request.servers ?? [...running],
    userText: userTextFor(
      request.text,
      images.map((image) => image.displayPath),
    ),
  };
}

/** Validates a message, takes the session lock and starts the episode in the background. */
export function startMessage(context: DemoContext, session: Session, request: MessageRequest): { episodeId: string } {
  const prepared = prepare(context, session, request);
  const controller = session.tryStart(prepared.episodeId);
  if (!controller) throw new HttpError(409, 'a message is already running in this session: wait for it or cancel it', 'session_busy');
  session.publish({
    type: 'user_message',
    episodeId: prepared.episodeId,
    text: request.text,
    images: prepared.images.map(toPageImage),
    model: request.model,
    servers: prepared.servers,
  });
  const began = Date.now();
  const work = runMessage(context, session, prepared, controller)
    .catch((error: unknown) => {
      // runMessage only throws before its closing episode_end; the page must still hear the end.
      const message = redactText(errorMessage(error));
      context.logger.error(`demo: episode ${prepared.episodeId} failed inside the demo: ${message}`);
      session.finish(prepared.episodeId);
      session.publish({
        type: 'episode_end',
        episodeId: prepared.episodeId,
        status: 'error',
        reply: '',
        error: { code: 'internal_error', message },
        durationMs: Date.now() - began,
      });
    })
    .finally(() => {
      session.finish(prepared.episodeId);
      context.running.delete(work);
    });
  context.running.add(work);
  return { episodeId: prepared.episodeId };
}

/**
 * A model request the user cancelled ends with the driver's abort error, which the retry layer
 * classes like any other failure; it is the user's stop, not a model error, so the page and the
 * store see it as cancelled (the episode's own end says `cancelled` too).
 */
function whenCancelled(event: AgentEvent, signal: AbortSignal): AgentEvent {
  if (!signal.aborted || event.type !== 'model_call' || !event.error) return event;
  const { error: _aborted, ...rest } = event;
  return { ...rest, cancelled: true };
}

function failureOf(error: unknown, cancelled: boolean): NonNullable<EpisodeOutcome['error']> {
  if (cancelled) return { code: 'cancelled', message: 'cancelled by the user', kind: 'infra' };
  const verdict = classifyFailure(error);
  return { code: verdict.code, message: redactText(verdict.message), kind: verdict.kind };
}

async function runMessage(context: DemoContext, session: Session, prepared: PreparedMessage, controller: AbortController): Promise<void> {
  const { episodeId, request } = prepared;
  const startedAt = new Date();
  const taskId = `${session.id}/${episodeId}`;
  const driver = context.models.models.find((entry) => entry.id === request.model)?.driver;
  if (!driver) throw new Error(`model ${request.model} vanished`);
  const recording = context.recorder?.start(request.model, taskId);
  const toolImages: Array<{ image: SessionImage; tool: string; round: number }> = [];
  const storeImages = async (event: Extract<AgentEvent, { type: 'tool_call_end' }>): Promise<PageImage[]> => {
    const stored = await storeToolImages(session, event.images, event.name, context.images);
    for (const page of stored) {
      const image = session.images.get(page.id);
      if (image) toolImages.push({ image, tool: event.name, round: event.round });
    }
    return stored;
  };
  // Events are handled in order on one chain: saving a tool image must not let a later event overtake it.
  let chain = Promise.resolve();
  const onEvent = (raw: AgentEvent) => {
    const event = whenCancelled(raw, controller.signal);
    try {
      recording?.observe(event);
    } catch (error) {
      context.logger.warn(`demo: store row for ${event.type} not written: ${errorMessage(error)}`);
    }
    chain = chain
      .then(async () => {
        const page = await toPageEvent(event, episodeId, storeImages);
        if (page) session.publish(page);
      })
      .catch((error: unknown) => context.logger.warn(`demo: event ${event.type} not shown: ${errorMessage(error)}`));
  };

  let trace: EpisodeTrace | undefined;
  let failure: EpisodeOutcome['error'];
  try {
    const images = await Promise.all(prepared.images.map((image) => toModelImage(image, context.agentOptions.imagePolicy)));
    trace = await runEpisode(
      {
        taskId,
        question: request.text,
        userText: prepared.userText,
        images,
        cwd: context.root,
        priorMessages: session.priorMessages(),
        callContext: sessionCallContext(context, session),
      },
      {
        driver,
        host: context.views.viewFor(request.servers),
        options: request.allTools ? { ...context.agentOptions, topTools: 0 } : context.agentOptions,
        onEvent,
        signal: controller.signal,
      },
    );
  } catch (error) {
    trace = error instanceof EpisodeFailure ? error.trace : undefined;
    failure = failureOf(error, controller.signal.aborted);
  }
  await chain;
  const status: EpisodeOutcome['status'] = !failure ? 'ok' : failure.code === 'cancelled' ? 'cancelled' : 'error';
  const reply = trace?.finalReply ?? '';
  session.addTurn({ episodeId, question: request.text, userText: prepared.userText, imageIds: request.imageIds, model: request.model, reply, status });
  const logFile = await writeSessionLog(context.logDir, {
    sessionId: session.id,
    episodeId,
    model: request.model,
    servers: prepared.servers,
    question: request.text,
    userText: prepared.userText,
    images: prepared.images,
    toolImages,
    trace,
    maxStep: context.agentOptions.maxStep,
    maxConcurrent: context.agentOptions.maxConcurrent,
    status,
    ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
    startedAt,
    finishedAt: new Date(),
  }).catch((error: unknown) => {
    context.logger.warn(`demo: session log not written to ${context.logDir}: ${errorMessage(error)}`);
    return undefined;
  });
  try {
    recording?.finish({
      status,
      trace,
      question: request.text,
      imagePaths: prepared.images.map((image) => image.displayPath),
      ...(failure ? { error: failure } : {}),
    });
  } catch (error) {
    context.logger.warn(`demo: store episode ${taskId} not finished: ${errorMessage(error)}`);
  }
  // The lock is released before the page hears the end, so its next message is never refused as busy.
  session.finish(episodeId);
  session.publish({
    type: 'episode_end',
    episodeId,
    status,
    reply,
    durationMs: Date.now() - startedAt.getTime(),
    ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
    ...(logFile ? { logFile: displayPathOf(logFile, context.root).replace(/^\.\//, '') } : {}),
  });
}
