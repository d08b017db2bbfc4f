// What `m3` prints and exits with when a command throws: a coded harness error (bad input,
// configuration) is one line and status 2; anything else is a bug, printed with its stack, status 1.
// main.ts applies it to the process; the tests' in-process runner (test/support/m3-in-process.ts)
// applies the same mapping, so both report a failure alike.
import { M3Error } from '../errors/index.js';

export interface CliFailure {
  status: number;
  /** The whole stderr line, newline included. */
  message: string;
}

export function cliFailureOf(error: unknown): CliFailure {
  if (error instanceof M3Error) return { status: 2, message: `m3: ${error.message}\n` };
  return { status: 1, message: `m3: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n` };
}
