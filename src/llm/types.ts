// The driver seam. A driver turns one neutral request into one vendor call and back.
// Drivers are pure wiring: vendor folders export `to*Request` / `from*Response` mappers,
// never read process.env, and leave retries to the harness (SDK retries off).
import type { Message, ToolCall, ToolDefinition } from '../core/messages.js';
import type { Usage } from '../core/usage.js';
import type { ProviderErrorClass } from '../errors/index.js';

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
    purpose?: 'work' | 'prepare' | 'end' | 'final' | 'judge';
    /** Which trial of the task (m3 run --trials k), 1-based; the seeded noisy oracle varies by it. */
    trial?: number;
  };
}

export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'other';

/** The request and response bodies as sent on the wire (secrets already removed). */
export interface RawExchange {
  request: unknown;
  response: unknown;
}

export interface GenerateResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage: Usage;
  latencyMs: number;
  raw?: RawExchange;
  warnings: string[];
}

export interface GenerateOptions {
  signal?: AbortSignal;
}

export interface ModelDriver {
  /** `provider:model`, as given on the command line. */
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  /** Whether the model can take images; text-only endpoints get a placeholder instead. */
  readonly acceptsImages: boolean;
  generate(request: GenerateRequest, options?: GenerateOptions): Promise<GenerateResponse>;
  classifyError(error: unknown): { errorClass: ProviderErrorClass; retryAfterMs?: number; message: string };
}
