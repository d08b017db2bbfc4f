// The one sleep: Node's timer promise, rejecting with the signal's own reason when it aborts (as
// an aborted fetch does), so a caller that checks `signal.reason` sees the reason it gave.
import { setTimeout as wait } from 'node:timers/promises';

export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  if (ms <= 0) return;
  try {
    await wait(ms, undefined, signal ? { signal } : undefined);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
