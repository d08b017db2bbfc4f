// Waiting on AbortSignals without leaking listeners. A server connection lives for a whole run
// and a task's signal for all of its calls: a listener added per restart or per call and never
// removed piles up (Node warns with MaxListenersExceededWarning past ten).
import { setTimeout as wait } from 'node:timers/promises';

/** Calls `onAbort` once when `signal` aborts; the returned function removes the listener. */
export function onAbort(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    onAbort();
    return () => undefined;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/**
 * Resolves after `ms`, or early when `signal` aborts (close() must not wait out a backoff); the
 * timer does not keep the process alive.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await wait(ms, undefined, { ref: false, ...(signal ? { signal } : {}) }).catch(() => undefined);
}

/**
 * A signal for one call that follows `parent`: libraries that add an abort listener per request
 * and never remove it (the MCP SDK does) then add it to this short-lived signal, not to the
 * task's. Call `dispose` when the call is over.
 */
export function childSignal(parent: AbortSignal | undefined): { signal: AbortSignal | undefined; dispose: () => void } {
  if (!parent) return { signal: undefined, dispose: () => undefined };
  const controller = new AbortController();
  const dispose = onAbort(parent, () => controller.abort(parent.reason));
  return { signal: controller.signal, dispose };
}
