// Real `m3` CLI child processes for tests (lease, Ctrl-C, exit status): run to their end, or
// started (from dist/ when fresh, else from source through tsx: test/support/built-entry.ts) in their own process group (so a test can signal the CLI alone, or the CLI and
// its servers together), with their output collected; plus a task suite whose tasks wait on a
// gate file, so a test decides how long a run stays busy.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { openStore, type Store } from '../../src/store/index.js';
import path from 'node:path';
import { m3EntryArgs, nodeEntryArgs } from './built-entry.js';
import { repoRoot } from './shared-assets.js';

export interface M3Child {
  child: ChildProcess;
  pid: number;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

export function startM3(args: readonly string[], env: NodeJS.ProcessEnv = {}): M3Child {
  const child = spawn(process.execPath, [...m3EntryArgs(), ...args], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '1', ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  if (child.pid === undefined) throw new Error('m3 child did not start');
  return { child, pid: child.pid, exit, output: () => output };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they arrived. */
  output: string;
}

/** Runs a command from the repo root (CI=1, extra env on top of ours) to its end. */
export function runCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const result: Finished = { code: null, stdout: '', stderr: '', output: '' };
  child.stdout.on('data', (chunk) => {
    result.stdout += String(chunk);
    result.output += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    result.stderr += String(chunk);
    result.output += String(chunk);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ ...result, code })));
}

/** `m3 <args>` (from dist/ when fresh, else from source), to its end. */
export function runM3(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return runCommand(process.execPath, [...m3EntryArgs(), ...args], env);
}

/** Polls `probe` until it returns a value; fails after 90 s with the child's output. */
export async function waitFor<T>(what: string, probe: () => T | undefined, child: M3Child): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Reads a store a child is writing; undefined while the file is not created or migrated yet,
 * so it can be polled with waitFor.
 */
export function readStore<T>(file: string, read: (store: Store) => T): T | undefined {
  if (!existsSync(file)) return undefined;
  let store: Store;
  try {
    store = openStore(file, { readonly: true });
  } catch {
    return undefined;
  }
  try {
    return read(store);
  } finally {
    store.close();
  }
}

/** Kills the child's whole process group (the CLI and any server it left behind). */
export function killGroup(child: M3Child): void {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export interface GateSuite {
  configFile: string;
  tasksFile: string;
  gate: string;
  taskIds: string[];
}

/** `count` tasks whose one ground-truth call waits for `<dir>/gate-open`, and a config with the gate server. */
export function writeGateSuite(dir: string, count: number, serverEnv: Record<string, string> = {}): GateSuite {
  const configFile = path.join(dir, 'servers.json');
  const tasksFile = path.join(dir, 'tasks.json');
  const gate = path.join(dir, 'gate-open');
  const taskIds = Array.from({ length: count }, (_, i) => `task-${i}`);
  writeFileSync(
    configFile,
    JSON.stringify({ servers: { gate: { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/gate.ts'), env: serverEnv } } }),
  );
  writeFileSync(
    tasksFile,
    JSON.stringify(
      taskIds.map((id) => ({
        id,
        question: `wait for ${id}`,
        steps: [{ step: 1, calls: [{ name: 'gate/wait', arguments: { file: gate } }] }],
        final_reply: `done ${id}`,
      })),
    ),
  );
  return { configFile, tasksFile, gate, taskIds };
}

export { repoRoot };
