// One base error with a machine-readable code; one subclass per domain, so callers can
// decide by `instanceof` or `code` whether a failure stops a run, ends an episode, or is data.
// Every message is redacted here, at birth: provider and server texts (which may echo a key)
// become harness errors only through this class, so no writer downstream can forget it.
import { redactText } from '../log/redact.js';

export class M3Error extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(redactText(message), options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Bad configuration or input files: stops the run before it starts. */
export class ConfigError extends M3Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config', message, options);
  }
}

/** Bad task or ground-truth data (file, position, field). */
export class TaskFileError extends M3Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super('task_file', message, options);
  }
}

/** How a provider failure is retried (the store validates attempt records against the same list). */
export const providerErrorClasses = ['rate_limit', 'transient', 'auth', 'invalid_request', 'context_length', 'fatal'] as const;

export type ProviderErrorClass = (typeof providerErrorClasses)[number];

/**
 * A model provider failed; `errorClass` drives the retry policy. `configFault` marks a request
 * that cannot succeed as configured (the endpoint does not have the model): rejected like any
 * invalid request, but the configuration's fault, not the model's. `requestFault` marks a
 * request the endpoint refused for what the harness put in it (too many or too large images, a
 * function name or parameter it does not take, a request too large in bytes): not the model's fault.
 */
export class ProviderError extends M3Error {
  readonly errorClass: ProviderErrorClass;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  readonly configFault: boolean;
  readonly requestFault: boolean;
  constructor(
    errorClass: ProviderErrorClass,
    message: string,
    options?: { cause?: unknown; retryAfterMs?: number; status?: number; configFault?: boolean; requestFault?: boolean },
  ) {
    super(`provider_${errorClass}`, message, options);
    this.errorClass = errorClass;
    this.retryAfterMs = options?.retryAfterMs;
    this.status = options?.status;
    this.configFault = options?.configFault ?? false;
    this.requestFault = options?.requestFault ?? false;
  }
}

/** An MCP server could not start, died, or stopped answering. Infrastructure, not the model. */
export class ServerError extends M3Error {
  readonly server: string;
  constructor(server: string, message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? 'server', message, options);
    this.server = server;
  }
}

export class EvaluationError extends M3Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super('evaluation', message, options);
  }
}

export class StoreError extends M3Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super('store', message, options);
  }
}

export class MediaError extends M3Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super('media', message, options);
  }
}

/** A task ran out of its wall-clock budget. */
export class TaskTimeoutError extends M3Error {
  constructor(message: string) {
    super('task_timeout', message);
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
