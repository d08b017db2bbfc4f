// Runs `m3` with only the environment given (plus PATH, HOME, CI and the loopback network guard):
// in the test's own process (runM3, test/support/m3-in-process.ts) where the exit status, what is
// printed and what is written are the point, or as a real child process from the repository root
// (runM3Child) where the process itself is; and a task folder with a math server.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../support/shared-assets.js';
import { m3EntryArgs, nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `m3 <args>` in this process, with the environment runM3Child gives a child (nothing of the
 * developer's shell), one call at a time: the code a child runs (dist/ when fresh), without a
 * node start and a load of every module per call.
 */
export async function runM3(args: string[], env: Record<string, string>): Promise<ChildResult> {
  const { code, stdout, stderr } = await runM3InProcess(args, { M3_NETWORK_GUARD: 'loopback', ...env }, { cleanEnv: true });
  return { code, stdout, stderr };
}

/** `m3 <args>` as a real child process from the repository root, to its end. */
export function runM3Child(args: string[], env: Record<string, string>): Promise<ChildResult> {
  const child = spawn(process.execPath, [...m3EntryArgs(), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), CI: '1', M3_NETWORK_GUARD: 'loopback', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A temporary folder with servers.json (the math server only) and tasks.json for the given tasks. */
export function taskFolder(prefix: string, tasks: Array<{ id: string; image: string }>): { dir: string; results: string; args: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `m3-${prefix}-`));
  writeFileSync(
    path.join(dir, 'servers.json'),
    JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }),
  );
  writeFileSync(
    path.join(dir, 'tasks.json'),
    JSON.stringify(tasks.map((task) => ({ ...task, type: 'arith', prompt: 'use math', question: `What is 2+3? (${task.id})` }))),
  );
  const results = path.join(dir, 'results');
  const args = [
    '--tasks',
    path.join(dir, 'tasks.json'),
    '--config',
    path.join(dir, 'servers.json'),
    '--image-dir',
    dir,
    '--run-dir',
    results,
    '--store',
    path.join(results, 'm3bench.sqlite'),
    '--concurrency',
    '1',
  ];
  return { dir, results, args };
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}
