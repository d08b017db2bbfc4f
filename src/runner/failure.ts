// Why an episode failed, and whose fault it was. Infrastructure failures (provider outage,
// server crash, timeouts) are counted apart and excluded from model scores; model failures
// (invalid requests the model caused, context overflow) count against the model. A request the
// endpoint refused for what the harness built into it (`request_rejected`: too many or too large
// images, a function name or parameter the vendor does not take) is the harness's, not the model's.
import { M3Error, ProviderError, ServerError, TaskTimeoutError, MediaError } from '../errors/index.js';
import type { FailureKind, FinalEpisodeStatus } from '../store/schemas.js';

/**
 * The run was asked to stop (Ctrl-C, SIGTERM, or another process took over its lease): an
 * attempt still in flight ends with this, is recorded as an infrastructure failure with code
 * `interrupted` and is not requeued; `--resume` runs the task again.
 */
export class RunInterruptedError extends M3Error {
  constructor(message: string) {
    super('interrupted', message);
  }
}

export interface FailureVerdict {
  status: Exclude<FinalEpisodeStatus, 'ok'>;
  kind: FailureKind;
  code: string;
  message: string;
  /** Worth another attempt later (outages and timeouts), up to M3_MAX_TASK_REQUEUE. */
  requeue: boolean;
}

function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const cause = (current as { cause?: unknown } | undefined)?.cause;
    if (
      current instanceof RunInterruptedError ||
      current instanceof ProviderError ||
      current instanceof ServerError ||
      current instanceof TaskTimeoutError ||
      current instanceof MediaError
    )
      return current;
    if (!cause) return current;
    current = cause;
  }
  return current;
}

export function classifyFailure(error: unknown): FailureVerdict {
  const cause = rootCause(error);
  const message = cause instanceof Error ? cause.message : String(cause);
  if (cause instanceof RunInterruptedError) return { status: 'infra_failure', kind: 'infra', code: 'interrupted', message, requeue: false };
  if (cause instanceof TaskTimeoutError) return { status: 'timeout', kind: 'infra', code: 'task_timeout', message, requeue: true };
  if (cause instanceof ProviderError) {
    // A model the endpoint does not have fails the same way on every attempt, and is not the model's fault.
    if (cause.configFault) return { status: 'infra_failure', kind: 'infra', code: 'model_not_found', message, requeue: false };
    if (cause.requestFault) return { status: 'infra_failure', kind: 'infra', code: 'request_rejected', message, requeue: false };
    if (cause.errorClass === 'invalid_request' || cause.errorClass === 'context_length') {
      return { status: 'model_failure', kind: 'model', code: cause.code, message, requeue: false };
    }
    return { status: 'infra_failure', kind: 'infra', code: cause.code, message, requeue: cause.errorClass !== 'auth' };
  }
  if (cause instanceof ServerError) return { status: 'infra_failure', kind: 'infra', code: cause.code, message, requeue: true };
  if (cause instanceof MediaError) return { status: 'infra_failure', kind: 'infra', code: 'bad_task_input', message, requeue: false };
  if (cause instanceof M3Error) return { status: 'infra_failure', kind: 'infra', code: cause.code, message, requeue: false };
  return { status: 'infra_failure', kind: 'infra', code: 'internal_error', message, requeue: true };
}
