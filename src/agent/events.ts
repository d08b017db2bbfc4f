// Typed events an episode emits while it runs: the demo streams them to the page, the runner
// turns them into progress and store rows. Listeners must not throw (errors are swallowed).
import type { ImageFacts } from '../core/content.js';
import type { ImageDelivery } from '../core/image-delivery.js';
import type { ConditionMark, FallbackServed } from '../core/tool-result-contract.js';
import type { Usage } from '../core/usage.js';
import type { Billing } from '../llm/pricing.js';
import type { AttemptRecord } from '../llm/retry.js';
import type { RequestPurpose } from '../llm/types.js';
import type { RequestImages } from '../media/request-images.js';

/** The requests an episode makes (judges belong to the evaluators). */
export type EpisodePurpose = Exclude<RequestPurpose, 'judge'>;

/**
 * Every event of a workflow's inner agents names that agent (src/agent/workflow.ts); events of
 * a single-agent episode carry no name.
 */
export type AgentEvent = { agent?: string } & (
  | { type: 'episode_start'; taskId: string; question: string; images: string[] }
  | { type: 'round_start'; taskId: string; round: number }
  | {
      type: 'model_call';
      taskId: string;
      round: number;
      purpose: EpisodePurpose;
      usage: Usage;
      /** How the reply was paid for (src/llm/pricing.ts): absent on a failed request (nothing answered). */
      billing?: Billing;
      /** The provider batch job that answered it (m3 run --batch). */
      batch?: { vendorBatchId: string; customId: string };
      latencyMs: number;
      attempts: AttemptRecord[];
      text: string;
      toolCallCount: number;
      warnings: string[];
      /** What the model received of the request's images (count, payload bytes, estimated image tokens), from `images`. */
      imagePayload: RequestImages;
      request: unknown;
      response: unknown;
      /** The images of the request as the driver received it: sent, replaced or dropped, with the reason. */
      images: ImageDelivery[];
      error?: { errorClass: string; message: string };
      /** The request was stopped by the caller's cancel (the demo's Cancel), not failed: no error. */
      cancelled?: true;
    }
  | { type: 'tool_call_start'; taskId: string; round: number; index: number; callId: string; name: string; arguments: unknown }
  | {
      type: 'tool_call_end';
      taskId: string;
      round: number;
      index: number;
      callId: string;
      name: string;
      functionName: string;
      arguments: unknown;
      result: string;
      isError: boolean;
      errorCode?: string;
      /** The fallback tier that served the result, with the real call's failure code. */
      fallback?: FallbackServed;
      /** What a robustness condition did to the call (src/robustness/). */
      condition?: ConditionMark;
      durationMs: number;
      images: Array<ImageFacts & { mediaType: string; data?: string }>;
    }
  | {
      type: 'final';
      taskId: string;
      text: string;
      rounds: number;
      /** A workflow's planning request (router or orchestrator): `text` is the plan, not an answer. */
      plan?: true;
    }
);

export type AgentEventListener = (event: AgentEvent) => void;

export function safeEmit(listener: AgentEventListener | undefined, event: AgentEvent): void {
  if (!listener) return;
  try {
    listener(event);
  } catch {
    // A broken listener (a closed browser tab, a full disk for logs) must not end the episode.
  }
}
