// What the page receives over server-sent events: the agent's typed events, reduced to what a
// person needs to see (no raw provider exchanges, no base64: tool images are stored in the
// session and referenced by URL), plus the demo's own user_message and episode_end.
import type { AgentEvent } from '../agent/events.js';
import type { Usage } from '../core/usage.js';

export interface PageImage {
  id: string;
  url: string;
  /** The path tools are given. */
  path: string;
  width: number;
  height: number;
  mediaType: string;
  source: string;
}

export type PageEvent =
  | { type: 'user_message'; episodeId: string; text: string; images: PageImage[]; model: string; servers: string[] }
  | { type: 'round_start'; episodeId: string; round: number }
  | {
      type: 'model_call';
      episodeId: string;
      round: number;
      purpose: string;
      latencyMs: number;
      usage: Usage;
      attempts: number;
      toolCallCount: number;
      text: string;
      error?: { errorClass: string; message: string };
      cancelled?: true;
    }
  | { type: 'tool_call_start'; episodeId: string; round: number; index: number; callId: string; name: string; arguments: unknown }
  | {
      type: 'tool_call_end';
      episodeId: string;
      round: number;
      index: number;
      callId: string;
      name: string;
      arguments: unknown;
      result: string;
      isError: boolean;
      errorCode?: string;
      durationMs: number;
      images: PageImage[];
    }
  | { type: 'final'; episodeId: string; text: string; rounds: number }
  | {
      type: 'episode_end';
      episodeId: string;
      status: 'ok' | 'cancelled' | 'error';
      reply: string;
      error?: { code: string; message: string };
      logFile?: string;
      durationMs: number;
    };

type ToolCallEnd = Extract<AgentEvent, { type: 'tool_call_end' }>;

/**
 * Maps one agent event to a page event. Tool images are handed to `storeImages` first (it saves
 * them in the session and returns their URLs); events the page does not show map to undefined.
 */
export async function toPageEvent(
  event: AgentEvent,
  episodeId: string,
  storeImages: (event: ToolCallEnd) => Promise<PageImage[]>,
): Promise<PageEvent | undefined> {
  switch (event.type) {
    case 'round_start':
      return { type: 'round_start', episodeId, round: event.round };
    case 'model_call':
      return {
        type: 'model_call',
        episodeId,
        round: event.round,
        purpose: event.purpose,
        latencyMs: event.latencyMs,
        usage: event.usage,
        attempts: event.attempts.length,
        toolCallCount: event.toolCallCount,
        text: event.text,
        ...(event.error ? { error: event.error } : {}),
        ...(event.cancelled ? { cancelled: true as const } : {}),
      };
    case 'tool_call_start':
      return { type: 'tool_call_start', episodeId, round: event.round, index: event.index, callId: event.callId, name: event.name, arguments: event.arguments };
    case 'tool_call_end':
      return {
        type: 'tool_call_end',
        episodeId,
        round: event.round,
        index: event.index,
        callId: event.callId,
        name: event.name,
        arguments: event.arguments,
        result: event.result,
        isError: event.isError,
        ...(event.errorCode ? { errorCode: event.errorCode } : {}),
        durationMs: event.durationMs,
        images: await storeImages(event),
      };
    case 'final':
      return { type: 'final', episodeId, text: event.text, rounds: event.rounds };
    case 'episode_start':
      return undefined;
  }
}
