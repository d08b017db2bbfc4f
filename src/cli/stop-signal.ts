// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one asks for a graceful stop
// through an AbortSignal (the batch abandons attempts in flight, records them as interrupted,
// flushes the store and the prediction file); a second one exits at once.
import { RunInterruptedError } from '../runner/failure.js';

export interface StopSignal {
  readonly signal: AbortSignal;
  /**
   * Removes the handlers (the default behaviour of the signals comes back) unless a stop was
   * asked for: then the process is on its way out with exit code 130, and a late second Ctrl-C
   * must still exit with 130 and say so rather than kill it by the signal's default action.
   */
  dispose(): void;
}

export const interruptedExitCode = 130;

export function createStopSignal(onFirst: (name: NodeJS.Signals) => void): StopSignal {
  const controller = new AbortController();
  const handler = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      process.stderr.write(`m3: second ${name}: exiting now without cleaning up\n`);
      process.exit(interruptedExitCode);
    }
    controller.abort(new RunInterruptedError(`stopped by ${name}`));
    onFirst(name);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose() {
      if (controller.signal.aborted) return;
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
