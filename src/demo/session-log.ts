// One JSON file per demo episode: `log/<YYYYmmdd-HHMMSS-micro>_<session>.json` with the
// reference fields (session_id, request_text, images, steps, dialogue, max_step,
// max_concurrent, final_reply) plus status, model and timing. Paths and image facts only:
// long data URLs in arguments are replaced by a short marker, so a log never carries base64.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EpisodeTrace } from '../agent/episode.js';
import { toPrediction } from '../agent/to-prediction.js';
import { redactValue } from '../log/redact.js';
import type { SessionImage } from './sessions.js';

export interface SessionLogEntry {
  sessionId: string;
  episodeId: string;
  model: string;
  servers: string[];
  question: string;
  userText: string;
  images: SessionImage[];
  toolImages: Array<{ image: SessionImage; tool: string; round: number }>;
  trace: EpisodeTrace | undefined;
  maxStep: number;
  maxConcurrent: number;
  status: 'ok' | 'cancelled' | 'error';
  error?: { code: string; message: string };
  startedAt: Date;
  finishedAt: Date;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * Local time as `YYYYmmdd-HHMMSS-micro` (microseconds, like Python's %f).
 * @internal Exported for its tests.
 */
export function logTimestamp(at: Date, microsWithinMs = Number(process.hrtime.bigint() % 1000n)): string {
  const date = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${date}-${time}-${pad(at.getMilliseconds() * 1000 + microsWithinMs, 6)}`;
}

/**
 * Replaces data URLs and other very long strings (base64 pasted by a model) by a marker.
 * @internal Exported for its tests.
 */
export function withoutPayloads(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.startsWith('data:') && value.length > 64) return `[data URL, ${value.length} characters]`;
    return value.length > 20_000 ? `${value.slice(0, 20_000)}[... ${value.length - 20_000} more characters]` : value;
  }
  if (Array.isArray(value)) return value.map(withoutPayloads);
  // Plain objects only: a JsonFloat in recorded arguments (src/core/json-numbers.ts) passes through.
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withoutPayloads(inner)]));
  }
  return value;
}

function imageRecord(image: SessionImage): Record<string, unknown> {
  return {
    image_id: image.id,
    file_path: image.displayPath,
    url: image.url,
    media_type: image.mediaType,
    width: image.width,
    height: image.height,
    bytes: image.bytes,
  };
}

/** @internal Exported for its tests. */
export function toSessionLog(entry: SessionLogEntry): Record<string, unknown> {
  const prediction = entry.trace
    ? toPrediction({ id: entry.episodeId, image: entry.images.map((image) => image.displayPath) }, entry.question, entry.trace)
    : undefined;
  return withoutPayloads(
    redactValue({
      session_id: entry.sessionId,
      episode_id: entry.episodeId,
      model: entry.model,
      servers: entry.servers,
      request_text: entry.question,
      user_text: entry.userText,
      images: entry.images.map(imageRecord),
      steps: prediction?.steps ?? [],
      dialogue: prediction?.dialogue ?? [],
      max_step: entry.maxStep,
      max_concurrent: entry.maxConcurrent,
      final_reply: entry.trace?.finalReply ?? '',
      status: entry.status,
      ...(entry.error ? { error: entry.error } : {}),
      tool_images: entry.toolImages.map(({ image, tool, round }) => ({ ...imageRecord(image), tool, round })),
      usage: entry.trace?.usage ?? null,
      started_at: entry.startedAt.toISOString(),
      finished_at: entry.finishedAt.toISOString(),
    }),
  ) as Record<string, unknown>;
}

/** Writes the log atomically and returns its path. */
export async function writeSessionLog(logDir: string, entry: SessionLogEntry): Promise<string> {
  await mkdir(logDir, { recursive: true });
  const file = path.join(logDir, `${logTimestamp(entry.startedAt)}_${entry.sessionId}.json`);
  const temporary = `${file}.tmp`;
  await writeFile(temporary, `${JSON.stringify(toSessionLog(entry), null, 2)}\n`);
  await rename(temporary, file);
  return file;
}
