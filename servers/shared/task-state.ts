// In-memory state a server keeps per task (an open presentation, a current selection): one
// value per task id of the call context (call-context.ts), so concurrent tasks sharing one
// server process never see each other's state. Calls without a context share one value, as a
// single-user server would. Values of tasks not used for a while are dropped (least recently
// used first) so a long run does not grow without bound; the shared value is never dropped.
import { NO_TASK, taskKeyOf } from './call-context.js';

/** Far above the host's task concurrency: a task that is still running is never evicted. */
const defaultLimit = 64;

export class PerTaskState<T> {
  private readonly values = new Map<string, T>();

  constructor(
    private readonly create: () => T,
    private readonly limit: number = defaultLimit,
  ) {}

  /** The state of the task this call belongs to, created on first use. */
  of(extra: { _meta?: unknown } | undefined): T {
    const key = taskKeyOf(extra);
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.create();
    } else {
      this.values.delete(key); // re-inserted below: Map order is the recency order
    }
    this.values.set(key, value);
    this.evict();
    return value;
  }

  /** How many tasks currently hold state (the shared value included). */
  get size(): number {
    return this.values.size;
  }

  private evict(): void {
    for (const key of this.values.keys()) {
      if (this.values.size <= this.limit) return;
      if (key !== NO_TASK) this.values.delete(key);
    }
  }
}
