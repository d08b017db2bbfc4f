// `m3 <args>` inside the test's own process: the CLI's program (src/cli/program.ts), its option
// parsing, the command's action and everything it prints, and main.ts's mapping of a thrown error
// to stderr and an exit status (src/cli/exit-status.ts), without starting a node process and
// loading every module again (1-5 s per start on the loaded 2-core machine). For tests whose point
// is what a command does and prints, not the process: signals, process groups, stdin and the
// process's own exit stay with runM3 (test/support/m3-child.ts), as does at least one real start
// per command family in the tests that check exit statuses end to end.
//
// What differs from a child: the environment overlay is applied to process.env for the call and
// restored after; stdout and stderr are captured by replacing their write methods for the call, so
// calls must not overlap (a test file runs its tests one after another); commander's exits become
// thrown CommanderErrors (exitOverride), mapped to the status commander would have exited with.
import { CommanderError, type Command } from 'commander';
import { cliFailureOf } from '../../src/cli/exit-status.js';
import { buildProgram } from '../../src/cli/program.js';
import type { Finished } from './m3-child.js';

/** Read once when a module loads (src/log/logger.ts), so a per-call value would be silently ignored. */
const loadTimeVariables = ['M3_LOG_LEVEL'];

let running = false;

function overrideExits(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
}

type Write = typeof process.stdout.write;

function capture(stream: NodeJS.WriteStream, sink: (text: string) => void): () => void {
  const original = stream.write;
  const write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as Write;
  stream.write = write;
  return () => {
    stream.write = original;
  };
}

function applyEnv(env: NodeJS.ProcessEnv): () => void {
  const saved = new Map<string, string | undefined>();
  for (const [key, value] of Object.entries({ CI: '1', ...env })) {
    if (loadTimeVariables.includes(key)) throw new Error(`runM3InProcess: ${key} is read when the logger loads; use runM3 (a child) for it`);
    saved.set(key, process.env[key]);
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  return () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** Runs `m3 <args>` in this process to its end; the same result shape as runM3. */
export async function runM3InProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  if (running) throw new Error('runM3InProcess: calls must not overlap (stdout and stderr are captured per call)');
  running = true;
  const result: Finished = { code: null, stdout: '', stderr: '', output: '' };
  const previousExitCode = process.exitCode;
  process.exitCode = undefined;
  const restoreEnv = applyEnv(env);
  const restoreOut = capture(process.stdout, (text) => {
    result.stdout += text;
    result.output += text;
  });
  const restoreErr = capture(process.stderr, (text) => {
    result.stderr += text;
    result.output += text;
  });
  try {
    const program = buildProgram();
    overrideExits(program);
    try {
      await program.parseAsync(['node', 'm3', ...args]);
      result.code = typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
    } catch (error) {
      if (error instanceof CommanderError) {
        // Commander printed its message already (usage error, --help, --version).
        result.code = error.exitCode;
      } else {
        const failure = cliFailureOf(error);
        process.stderr.write(failure.message);
        result.code = failure.status;
      }
    }
  } finally {
    restoreErr();
    restoreOut();
    restoreEnv();
    process.exitCode = previousExitCode;
    running = false;
  }
  return result;
}
