// What a new user reads must be true and useful: an empty task list and a malformed task file
// are refused with what was expected, omitting --model says the oracle runs, `--version`
// exists, `m3 summary` on an empty folder names no figure or report that does not exist, the
// progress bar never shows `ETA NFs`, and npm prints no warning about an unknown project config.
// The `m3` commands run in the test's process (test/support/m3-in-process.ts): their messages and
// exit statuses are the point; npm is a real child.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/log/progress.js';
import { runCommand } from '../support/m3-child.js';
import { runM3InProcess as m3 } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-cli-'));

describe('CLI messages', () => {
  it('refuses an empty task list before starting any server', async () => {
    const empty = path.join(dir, 'empty.json');
    writeFileSync(empty, '[]');
    const result = await m3(['run', '--tasks', empty, '--gt', empty, '--run-dir', path.join(dir, 'r1')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${empty}: no tasks to run`);
  }, 60_000);

  it('says which type a task-file field expected, for union fields too', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ id: 'a', question: 'q', image: 3 }]));
    const result = await m3(['run', '--tasks', bad, '--run-dir', path.join(dir, 'r2')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${bad}: at $[0].image: Invalid input: expected string or array, received number`);
  }, 60_000);

  it('says that omitting --model runs the oracle replay:gt', async () => {
    const tasks = path.join(dir, 'one.json');
    writeFileSync(tasks, JSON.stringify([{ id: 'x', question: 'q', final_reply: 'a', steps: [] }]));
    writeFileSync(path.join(dir, 'none.json'), JSON.stringify({ servers: {} }));
    const result = await m3([
      'run',
      '--tasks',
      tasks,
      '--config',
      path.join(dir, 'none.json'),
      '--run-dir',
      path.join(dir, 'r3'),
      '--store',
      path.join(dir, 'r3.sqlite'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('no --model given: running the oracle replay:gt');
  }, 60_000);

  it('prints the version', async () => {
    const result = await m3(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 60_000);

  it('m3 summary on an empty folder names no figures or report', async () => {
    const result = await m3(['summary', '--results', path.join(dir, 'nothing'), '--save', path.join(dir, 'nothing-save')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no evaluated model');
    expect(result.stdout).not.toMatch(/figures|report\.html|m3bench\.sqlite/);
  }, 60_000);

  it('the progress bar shows no "NFs" ETA in its first frames', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 160 }) as unknown as NodeJS.WriteStream;
    let frames = '';
    (stream as unknown as PassThrough).on('data', (chunk) => (frames += String(chunk)));
    const progress = createProgress('model', stream, {});
    const snapshot = { total: 4, done: 0, failedModel: 0, failedInfra: 0, running: 2, tokens: 0 };
    progress.update(snapshot);
    progress.update({ ...snapshot, running: 1 });
    progress.stop();
    expect(frames).toContain('ETA --');
    expect(frames).not.toMatch(/NF|NULL|INF/);
  });

  it('npm prints no warning about an unknown project config', async () => {
    // npm reads the project's .npmrc on every command, so the cheapest one shows the warning as well
    // (`npm run typecheck -- --version` typechecked the whole project first and timed out under load).
    const result = await runCommand('npm', ['pkg', 'get', 'name']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"m3bench"');
    expect(result.stderr).not.toContain('Unknown project config');
  }, 120_000);
});
