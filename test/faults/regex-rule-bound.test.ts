// A rule evaluator's regex ends in bounded time. `regex((a+)+$)` from a task file against an
// answer of 34 `a`s and `!` backtracks for hours in JavaScript's engine; it kept `m3 eval task`
// at 100 % CPU until killed. The rule now fails with the reason and the evaluation finishes.
// The child is a real `m3 eval task`; the test kills it (a hang guard, no speed claim) if it
// has not finished after two minutes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-assets.js';
import { m3EntryArgs } from '../support/built-entry.js';

const hostile = { func: 'regex((a+)+$)', op: '=', value: 'a' };
const answer = `${'a'.repeat(34)}!`;

function runGuarded(args: string[], guardMs: number): Promise<{ code: number | null; killed: boolean; stderr: string }> {
  const child = spawn(process.execPath, [...m3EntryArgs(), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), CI: '1', M3_NETWORK_GUARD: 'loopback' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let killed = false;
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const guard = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, guardMs);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, killed, stderr });
    }),
  );
}

describe('a catastrophic regex in a rule', () => {
  it('lets `m3 eval task` finish, the evaluator recorded as failed with the reason', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-redos-'));
    const predFile = path.join(dir, 'redos_test_mcp_fuzzy.json');
    const record = { id: 'redos-1', question: 'Say a lot of a.', steps: [], num_step: 0, max_num_concurrent: 1, final_reply: answer, evaluators: [hostile] };
    writeFileSync(predFile, JSON.stringify([record]));
    const out = path.join(dir, 'out');
    const result = await runGuarded(['eval', 'task', '--pred', predFile, '--out', out], 120_000);
    expect(result.killed, 'm3 eval task was still running after 120 s').toBe(false);
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(readFileSync(path.join(out, 'task_eval.json'), 'utf8')) as {
      per_task: Array<{ id: string; success: boolean; checks: Array<{ passed: boolean; reason: string }> }>;
    };
    const task = document.per_task.find((entry) => entry.id === 'redos-1');
    expect(task?.success).toBe(false);
    expect(task?.checks[0]).toMatchObject({ passed: false });
    expect(task?.checks[0]?.reason).toMatch(/^regex\(\(a\+\)\+\$\): stopped after \d+ ms/);
  }, 180_000);
});
