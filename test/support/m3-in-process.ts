// `m3 <args>` inside the test's own process: the CLI's program (src/cli/program.ts), its option
// parsing, the command's action and everything it prints, and main.ts's mapping of a thrown error
// to stderr and an exit status (src/cli/exit-status.ts), without starting a node process and
// loading every module again (1-5 s per start on the loaded 2-core machine). For tests whose point
// is what a command does and prints, not the process: signals, process groups, stdin and the
// process's own exit stay with runM3 (test/support/m3-child.ts); main.ts's exit statuses are still
// checked on real processes (test/cli/usage-errors.test.ts, test/faults/run-child.ts's users, the
// failing gate of test/cli/trials.test.ts).
//
// The code is the child's: dist/ when fresh (loaded by Node itself, once per test file), else the
// sources. What differs from a child: the environment overlay is applied to process.env for the
// call and restored after; stdout and stderr are captured by replacing their write methods for the
// call, so calls must not overlap (a test file runs its tests one after another); commander's exits
// become thrown CommanderErrors (exitOverride), mapped to the status commander would have exited
// with; the logger's level is read once, when the CLI loads, and is `info` (a call cannot change
// it). Like the CLI, a call loads only the command modules its command line names (once per test
// file, as a child would on each start).
// @restores-process-state: the env overlay and process.exitCode are put back after each call.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { distIsFresh } from './built-entry.js';
import type { Finished } from './m3-child.js';
import { repoRoot } from './shared-assets.js';

type ProgramModule = typeof import('../../src/cli/program.js');
type ExitStatusModule = typeof import('../../src/cli/exit-status.js');
interface Cli {
  buildProgram: ProgramModule['buildProgram'];
  cliFailureOf: ExitStatusModule['cliFailureOf'];
}

// Node's own import(), which Vitest does not rewrite (test/support/native-import.cjs): dist/ is
// loaded by Node as a child loads it, not module by module through Vitest's transform pipeline
// (several times slower for the CLI's whole module tree).
const nativeImport = createRequire(import.meta.url)('./native-import.cjs') as (url: string) => Promise<unknown>;

let cli: Promise<Cli> | undefined;

/**
 * The CLI's program and exit mapping: from dist/ when it is fresh (the code a child would run,
 * test/support/built-entry.ts), else from source.
 */
function loadCli(): Promise<Cli> {
  cli ??= withLoadTimeVariables(async () => {
    if (distIsFresh()) {
      const built = (file: string) => nativeImport(pathToFileURL(path.join(repoRoot, 'dist', 'src', 'cli', file)).href);
      const [program, exitStatus] = (await Promise.all([built('program.js'), built('exit-status.js')])) as [ProgramModule, ExitStatusModule];
      return { buildProgram: program.buildProgram, cliFailureOf: exitStatus.cliFailureOf };
    }
    const [program, exitStatus] = await Promise.all([import('../../src/cli/program.js'), import('../../src/cli/exit-status.js')]);
    return { buildProgram: program.buildProgram, cliFailureOf: exitStatus.cliFailureOf };
  });
  return cli;
}

/** Runs `load` with loadTimeVariables in process.env, restoring what was there after. */
async function withLoadTimeVariables<T>(load: () => Promise<T>): Promise<T> {
  const saved = Object.keys(loadTimeVariables).map((key) => [key, process.env[key]] as const);
  Object.assign(process.env, loadTimeVariables);
  try {
    return await load();
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** Commander's own error (usage, --help, --version), by shape: dist/ and the tests may hold two copies of its class. */
function commanderExit(error: unknown): number | undefined {
  if (!(error instanceof Error) || !('exitCode' in error) || !('code' in error)) return undefined;
  return typeof error.code === 'string' && error.code.startsWith('commander.') && typeof error.exitCode === 'number' ? error.exitCode : undefined;
}

/**
 * Read once when a module loads (src/log/logger.ts), so a per-call value would be silently
 * ignored: the CLI is loaded with the value here, and a call may only ask for that same value.
 */
const loadTimeVariables: Record<string, string> = { M3_LOG_LEVEL: 'info' };

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

/** Kept by a clean environment: what a child given only PATH and HOME still has, and Vitest's own. */
function keptInCleanEnv(key: string): boolean {
  return key === 'PATH' || key === 'HOME' || key === 'M3_NETWORK_GUARD' || key.startsWith('VITEST');
}

/** Applies the overlay (CI=1 first) to process.env; a clean one first drops everything else. Returns the undo. */
function applyEnv(env: NodeJS.ProcessEnv, clean: boolean): () => void {
  const saved = { ...process.env };
  if (clean) for (const key of Object.keys(process.env)) if (!keptInCleanEnv(key)) delete process.env[key];
  for (const [key, value] of Object.entries({ CI: '1', ...env })) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  return () => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  };
}

export interface InProcessOptions {
  /**
   * Run with only PATH, HOME, the network guard and the overlay in process.env, as a child
   * spawned with `env: { PATH, HOME, ...env }` would (no provider key or M3_* switch of the
   * developer's shell).
   */
  cleanEnv?: boolean;
}

/** Runs `m3 <args>` in this process to its end; the same result shape as runM3. */
export async function runM3InProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}, options: InProcessOptions = {}): Promise<Finished> {
  if (running) throw new Error('runM3InProcess: calls must not overlap (stdout and stderr are captured per call)');
  for (const [key, value] of Object.entries(env))
    if (key in loadTimeVariables && value !== loadTimeVariables[key])
      throw new Error(`runM3InProcess: ${key} is read when the CLI loads (as ${loadTimeVariables[key]}); use runM3 (a child) for ${key}=${value}`);
  running = true;
  const result: Finished = { code: null, stdout: '', stderr: '', output: '' };
  const previousExitCode = process.exitCode;
  process.exitCode = undefined;
  const restoreEnv = applyEnv(env, options.cleanEnv ?? false);
  const restoreOut = capture(process.stdout, (text) => {
    result.stdout += text;
    result.output += text;
  });
  const restoreErr = capture(process.stderr, (text) => {
    result.stderr += text;
    result.output += text;
  });
  try {
    const { buildProgram, cliFailureOf } = await loadCli();
    // The command's modules load on its first call (src/cli/program.ts), with the load-time values.
    const program = await withLoadTimeVariables(() => buildProgram(args));
    overrideExits(program);
    try {
      await program.parseAsync(['node', 'm3', ...args]);
      result.code = typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
    } catch (error) {
      const usage = commanderExit(error);
      if (usage !== undefined) {
        // Commander printed its message already (usage error, --help, --version).
        result.code = usage;
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
