// The driver seam. A driver turns one neutral request into one vendor call and back.
// Drivers are pure wiring: vendor folders export `to*Request` / `from*Response` mappers,
// never read process.env, and leave retries to the harness (SDK retries off).
import type { ImageDelivery } from '../core/image-delivery.js';
import type { Message, ReasoningTrace, ToolCall, ToolDefinition } from '../core/messages.js';
import type { Usage } from '../core/usage.js';
import type { EnvMap } from '../config/env-file.js';
import type { ProviderErrorClass } from '../errors/index.js';
import type { GtTask } from '../tasks/schemas.js';
import type { PreflightResult } from './preflight.js';

export interface GenerateRequest {
  /** Instruction text sent through the vendor's system channel, if any. */
  system?: string;
  messages: Message[];
  tools: ToolDefinition[];
  /** `none` asks for a text-only answer (the final-answer pass). */
  toolChoice?: 'auto' | 'none';
  maxTokens: number;
  temperature?: number;
  seed?: number;
  /** Which task / round this request belongs to; replay drivers use it, vendors ignore it. */
  context?: {
    taskId?: string;
    round?: number;
    purpose?: RequestPurpose;
    /** Which trial of the task (m3 run --trials k), 1-based; the seeded noisy oracle varies by it. */
    trial?: number;
  };
}

/** What a request is for: an episode's stages (work, prepare, end, final) or an evaluator's judge. */
export type RequestPurpose = 'work' | 'prepare' | 'end' | 'final' | 'judge';

/**
 * Why the model stopped, the same words for every vendor (each response.ts maps its own):
 * `refusal` covers a model's refusal and a vendor's safety stop; `malformed_call` a function call
 * the vendor could not parse (Gemini MALFORMED_FUNCTION_CALL, which the driver also returns as a
 * failed call, so the episode goes on as it does for argument text that is not JSON elsewhere).
 */
export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'refusal' | 'context_exceeded' | 'malformed_call' | 'paused' | 'other';

/** The request and response bodies as sent on the wire (secrets already removed). */
interface RawExchange {
  request: unknown;
  response: unknown;
}

export interface GenerateResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  /** What the vendor said about an unusual stop: a refusal's explanation, a finish reason and its message. */
  stopDetail?: string;
  usage: Usage;
  latencyMs: number;
  raw?: RawExchange;
  warnings: string[];
  /** Reasoning the provider wants back with this turn; the agent keeps it on the assistant message. */
  reasoning?: ReasoningTrace;
  /** Served by the model-response cache (src/runner/response-cache.ts): no request was made, its usage is the recorded one and cost nothing. */
  servedFromCache?: true;
  /** Answered by a provider batch job (src/llm/batch/collector.ts), billed at the batch price: the job and the line. */
  batch?: { vendorBatchId: string; customId: string };
}

/** What a vendor mapper returns; the driver adds the latency and the raw exchange. */
export type MappedResponse = Omit<GenerateResponse, 'latencyMs' | 'raw'>;

export interface GenerateOptions {
  signal?: AbortSignal;
  /**
   * Told the images of the request as the driver received it, before the call (an audit
   * decorator calls it: src/runner/driver-decorators.ts withImageAudit); drivers ignore it.
   */
  onImageDelivery?: (images: ImageDelivery[]) => void;
}

export interface ModelDriver {
  /** `provider:model`, as given on the command line. */
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  /** Whether the model can take images; text-only endpoints get a placeholder instead. */
  readonly acceptsImages: boolean;
  generate(request: GenerateRequest, options?: GenerateOptions): Promise<GenerateResponse>;
  /** Asks the provider whether the key works and the model exists (see preflight.ts); replay drivers have none. */
  preflight?(): Promise<PreflightResult>;
  classifyError(error: unknown): { errorClass: ProviderErrorClass; retryAfterMs?: number; message: string };
}

/** What every driver factory gets: configuration already read, never process.env. */
export interface DriverContext {
  /** The merged environment (.env + process env); config-level code reads keys from it, drivers never do. */
  env: EnvMap;
  /** Ground truth by task id, for replay drivers. */
  groundTruth?: ReadonlyMap<string, GtTask>;
  /** Per-request timeout in ms, for SDK clients (the harness also enforces it). */
  timeoutMs: number;
}
