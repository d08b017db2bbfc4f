// The image-delivery audit of a run, read from the store: per model request, the images it
// carried as the driver received them (model_calls.images, written by the runner's
// withImageAudit), and totals: how many images were sent, replaced by a placeholder or dropped
// (with the reasons), how many bytes went out, and each tool-produced image with the request
// that first carried it. A request re-sends the history, so the per-request entries repeat the
// earlier images; the distinct tool images are counted once per (episode, tool call). An attempt
// whose task image could not be loaded ended before any request, so it has no entries: it is
// listed apart, with its error.
import type { ImageDelivery } from '../core/image-delivery.js';
import type { Store } from './connection.js';
import { modelCallsForEpisode } from './calls.js';
import { episodesForRun } from './episodes.js';

interface AuditedRequest {
  taskId: string;
  attempt: number;
  trial: number;
  modelCallId: number;
  round: number;
  purpose: string;
  images: ImageDelivery[];
}

interface StatusCounts {
  sent: number;
  placeholder: number;
  dropped: number;
}

export interface ImageAudit {
  runId: string;
  requests: number;
  /** Requests that carried (or were meant to carry) at least one image. */
  requestsWithImages: number;
  /** Image entries over all requests, by status, split into task and tool images. */
  entries: { task: StatusCounts; tool: StatusCounts };
  bytesSent: number;
  /** Each tool-produced image once, with the request that first carried it. */
  toolImages: Array<
    { taskId: string; attempt: number; callId: string; tool: string; firstModelCallId: number; round: number } & Omit<
      ImageDelivery,
      'origin' | 'callId' | 'tool'
    >
  >;
  /** Reasons of the replaced and dropped entries, with their counts. */
  reasons: Record<string, number>;
  /** Attempts that ended before any request because a task image could not be loaded (src/runner/run-task.ts). */
  taskImagesNotLoaded: Array<{ taskId: string; attempt: number; errorCode: string; message: string }>;
  perRequest: AuditedRequest[];
}

/** The codes an attempt ends with when its task images are missing, outside the image folders or undecodable. */
const taskImageCodes = new Set(['missing_image', 'bad_task_input']);

const zero = (): StatusCounts => ({ sent: 0, placeholder: 0, dropped: 0 });

export function imageAuditOf(store: Store, runId: string): ImageAudit {
  const audit: ImageAudit = {
    runId,
    requests: 0,
    requestsWithImages: 0,
    entries: { task: zero(), tool: zero() },
    bytesSent: 0,
    toolImages: [],
    reasons: {},
    taskImagesNotLoaded: [],
    perRequest: [],
  };
  for (const episode of episodesForRun(store, runId)) {
    const seen = new Set<string>();
    const calls = modelCallsForEpisode(store, episode.id);
    if (calls.length === 0 && episode.errorCode && taskImageCodes.has(episode.errorCode)) {
      audit.taskImagesNotLoaded.push({ taskId: episode.taskId, attempt: episode.attempt, errorCode: episode.errorCode, message: episode.errorMessage ?? '' });
    }
    for (const call of calls) {
      audit.requests += 1;
      if (call.images.length > 0) audit.requestsWithImages += 1;
      audit.perRequest.push({
        taskId: episode.taskId,
        attempt: episode.attempt,
        trial: episode.trial,
        modelCallId: call.id,
        round: call.round,
        purpose: call.purpose,
        images: call.images,
      });
      const perCall = new Map<string, number>();
      for (const image of call.images) {
        audit.entries[image.origin][image.status] += 1;
        audit.bytesSent += image.bytes;
        if (image.reason) audit.reasons[image.reason] = (audit.reasons[image.reason] ?? 0) + 1;
        if (image.origin !== 'tool') continue;
        // The n-th image of a tool call's result is the same image in every request that repeats it.
        const index = perCall.get(image.callId ?? '') ?? 0;
        perCall.set(image.callId ?? '', index + 1);
        const key = `${image.callId ?? ''}#${index}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const { origin: _origin, callId, tool, ...facts } = image;
        audit.toolImages.push({
          taskId: episode.taskId,
          attempt: episode.attempt,
          callId: callId ?? '',
          tool: tool ?? '',
          firstModelCallId: call.id,
          round: call.round,
          ...facts,
        });
      }
    }
  }
  return audit;
}
