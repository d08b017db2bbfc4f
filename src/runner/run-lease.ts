// Holding a run's lease while a process writes it: taken before the first write, renewed on a
// heartbeat, released at the end. A second `m3 run --resume` of the same run id is refused
// while the lease is live; a lease left by a killed process is taken over, and the attempts
// that process left `running` are closed as interrupted so the task runs again.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../log/logger.js';
import {
  acquireRunLease,
  checkRunLease,
  closeAbandonedEpisodes,
  getRun,
  releaseRunLease,
  renewRunLease,
  type LeaseTakeover,
  type Store,
} from '../store/index.js';

export interface HeldRunLease {
  readonly takeover: LeaseTakeover | undefined;
  /** Episodes a dead earlier writer left `running`, now closed as interrupted. */
  readonly abandoned: number;
  /** True once a heartbeat found that another process took the run over. */
  readonly lost: boolean;
  release(): void;
}

export interface HoldLeaseOptions {
  logger: Logger;
  /** Called once when a heartbeat finds the lease gone: another process took the run over. */
  onLost: (message: string) => void;
  heartbeatMs?: number;
}

const defaultHeartbeatMs = 5_000;

function thisProcess(): { token: string; pid: number; host: string } {
  return { token: randomUUID(), pid: process.pid, host: os.hostname() };
}

/**
 * Refuses early (before any server starts) when another live process writes the run; the
 * lease itself is still taken, under the write lock, when the run starts (holdRunLease).
 */
export function assertRunNotHeld(store: Store, runId: string): void {
  if (getRun(store, runId)) checkRunLease(store, runId, thisProcess());
}

export function holdRunLease(store: Store, runId: string, options: HoldLeaseOptions): HeldRunLease {
  const owner = thisProcess();
  const takeover = acquireRunLease(store, runId, owner);
  if (takeover) options.logger.warn(`run ${runId}: took over the lease of pid ${takeover.previous.pid} on ${takeover.previous.host} (${takeover.reason})`);
  const abandoned = closeAbandonedEpisodes(store, runId, 'the process running this attempt stopped before it finished (closed when the run was resumed)');
  if (abandoned > 0) options.logger.info(`run ${runId}: ${abandoned} unfinished attempt(s) of an earlier process closed as interrupted; those tasks run again`);
  let lost = false;
  const timer = setInterval(() => {
    try {
      if (renewRunLease(store, runId, owner.token)) return;
      lost = true;
      clearInterval(timer);
      options.onLost(`run ${runId}: another process took over this run's lease; stopping so the two do not run tasks twice`);
    } catch (error) {
      // A busy store delays one heartbeat; the lease only goes stale after several missed ones.
      options.logger.warn(`run ${runId}: lease heartbeat failed: ${(error as Error).message}`);
    }
  }, options.heartbeatMs ?? defaultHeartbeatMs);
  timer.unref();
  return {
    takeover,
    abandoned,
    get lost() {
      return lost;
    },
    release() {
      clearInterval(timer);
      if (!lost) releaseRunLease(store, runId, owner.token);
    },
  };
}
