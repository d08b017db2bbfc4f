// Runs the real `m3` CLI or a script as a child process, asynchronously, so a mock LLM server
// in the test process keeps answering while the child runs. A script's `m3` runs from dist/ when
// it is fresh (M3_USE_DIST=1, scripts/lib.sh; a caller's env may say otherwise): through tsx each
// start transpiles every module it loads.
import { spawn } from 'node:child_process';
import { repoRoot } from '../support/shared-assets.js';
import { distIsFresh, m3EntryArgs } from '../support/built-entry.js';

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCommand(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, M3_LOG_LEVEL: 'info', M3_USE_DIST: distIsFresh() ? '1' : '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export function runM3(args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runCommand(process.execPath, [...m3EntryArgs(), ...args], env);
}

/** The last stdout line as JSON: every m3 eval / report command ends with one. */
export function lastJsonLine(result: { stdout: string }): Record<string, unknown> {
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '{}') as Record<string, unknown>;
}
