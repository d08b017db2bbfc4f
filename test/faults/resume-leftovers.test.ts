// What a SIGKILL leaves behind must not outlive the resume: episode rows still `running`
// (closed as interrupted infrastructure failures once the resumed run holds the lease) and
// `.tmp` files of an atomic write that never reached its rename (removed at start-up when
// their writer is dead). A write that fails in-process removes its own temp file.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { episodesForRun } from '../../src/store/index.js';
import { writeFileAtomic } from '../../src/tasks/write-json.js';
import { killGroup, readStore, startM3, waitFor, writeGateSuite, type M3Child } from '../support/m3-child.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-fault-leftovers-'));
const suite = writeGateSuite(dir, 4);
const resultsDir = path.join(dir, 'results');
const storeFile = path.join(dir, 'store.sqlite');
const runId = 'left.replay-gt';
const children: M3Child[] = [];
afterAll(() => children.forEach(killGroup));

const episodes = (status?: 'running') => readStore(storeFile, (store) => episodesForRun(store, runId, status ? { status } : {})) ?? [];

/** A real writer killed between writing its temp file and renaming it. */
async function leaveTemporaryOfKilledWriter(target: string): Promise<string> {
  const writer = spawn(
    process.execPath,
    [
      '-e',
      "require('fs').writeFileSync(process.argv[1] + '.' + process.pid + '.tmp', '[{\"id\": \"half'); console.log('written'); setInterval(() => {}, 1000);",
      target,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
  const exited = new Promise((resolve) => writer.on('exit', resolve));
  writer.kill('SIGKILL');
  await exited;
  return `${path.basename(target)}.${writer.pid}.tmp`;
}

describe('leftovers of a killed run', () => {
  it('are cleaned up by the resume: no running rows, no temp files', async () => {
    const args = [
      'run',
      '--tasks',
      suite.tasksFile,
      '--config',
      suite.configFile,
      '--run-dir',
      resultsDir,
      '--store',
      storeFile,
      '--run-id',
      'left',
      '--concurrency',
      '2',
    ];
    const killed = startM3([...args, '--overwrite']);
    children.push(killed);
    await waitFor('two attempts in flight', () => (episodes('running').length >= 2 ? true : undefined), killed);
    killGroup(killed);
    await killed.exit;
    mkdirSync(resultsDir, { recursive: true });
    const leftover = await leaveTemporaryOfKilledWriter(path.join(resultsDir, 'replay-gt_test_mcp_fuzzy.json'));
    expect(readdirSync(resultsDir)).toContain(leftover);
    expect(episodes('running').length).toBe(2);

    writeFileSync(suite.gate, 'open');
    const resumed = startM3([...args, '--resume']);
    children.push(resumed);
    expect((await resumed.exit).code, resumed.output()).toBe(0);
    expect(resumed.output()).toContain(`removed ${leftover}`);
    expect(readdirSync(resultsDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(episodes('running')).toEqual([]);
    const all = episodes();
    expect(all.filter((episode) => episode.errorCode === 'interrupted').map((episode) => episode.status)).toEqual(['infra_failure', 'infra_failure']);
    expect(new Set(all.filter((episode) => episode.status === 'ok').map((episode) => episode.taskId))).toEqual(new Set(suite.taskIds));
  }, 180_000);

  it('a write that fails removes its own temp file', () => {
    const target = path.join(dir, 'occupied');
    mkdirSync(target); // renaming a file over a folder fails
    expect(() => writeFileAtomic(target, 'text')).toThrow();
    expect(existsSync(`${target}.${process.pid}.tmp`)).toBe(false);
  });
});
