// `m3 runs list|show` read the run history back from a store a real `m3 run` wrote: attempt
// counts by status, the failed attempts with their error, and one task's calls. The commands run
// in this process (test/support/m3-in-process.ts: the CLI's program, its printing and exit status).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-runs-'));
const storeFile = path.join(dir, 'store.sqlite');
const m3 = (args: string[]) => runM3InProcess(args);

beforeAll(async () => {
  const config = path.join(dir, 'servers.json');
  const tasks = path.join(dir, 'tasks.json');
  writeFileSync(config, JSON.stringify({ servers: { echo: { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/echo.ts') } } }));
  writeFileSync(
    tasks,
    JSON.stringify([
      { id: 'says-hi', question: 'say hi', final_reply: 'hi', steps: [{ step: 1, calls: [{ name: 'echo/echo', arguments: { text: 'hi' } }] }] },
      {
        id: 'needs-weather',
        question: 'weather?',
        final_reply: 'sun',
        steps: [{ step: 1, calls: [{ name: 'weather/get_weather', arguments: { location: 'x' } }] }],
      },
    ]),
  );
  const run = await m3(['run', '--tasks', tasks, '--config', config, '--run-dir', path.join(dir, 'results'), '--store', storeFile, '--run-id', 'hist']);
  expect(run.code, run.stderr).toBe(0);
}, 120_000);

describe('m3 runs', () => {
  it('lists the run with its attempts by status', async () => {
    const listed = await m3(['runs', 'list', '--store', storeFile, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { runId: 'hist.replay-gt', status: 'finished', tasks: 2, byStatus: { ok: 1, infra_failure: 1, running: 0 }, writer: null },
    ]);
    const table = await m3(['runs', 'list', '--store', storeFile]);
    expect(table.stdout).toMatch(/hist\.replay-gt +finished +2 +1 +0 +1/);
  }, 60_000);

  it('shows the failed attempt with its error, and one task with its calls', async () => {
    const shown = await m3(['runs', 'show', 'hist.replay-gt', '--store', storeFile]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('2 task(s), 2 attempt(s): 1 ok, 0 model failure, 1 infra failure');
    expect(shown.stdout).toContain('needs-weather attempt 1: infra_failure (unknown_server)');
    expect(shown.stdout).not.toContain('says-hi attempt');
    const task = await m3(['runs', 'show', 'hist.replay-gt', '--store', storeFile, '--task', 'says-hi']);
    expect(task.stdout).toContain('says-hi attempt 1: ok');
    expect(task.stdout).toMatch(/round \d+\.0 echo\/echo \(\d+ ms\)/);
    const missing = await m3(['runs', 'show', 'nope', '--store', storeFile]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no run "nope"');
  }, 60_000);
});
