// A real `m3 run` child process killed with SIGKILL mid-run, then resumed: every task must
// end up in the prediction file and the store exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodesForRun, openStore } from '../../src/store/index.js';
import { repoRoot } from '../support/shared-assets.js';
import { m3EntryArgs, nodeEntryArgs } from '../support/built-entry.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-resume-'));
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(dir, 'tasks.json');
const resultsDir = path.join(dir, 'results');
const storeFile = path.join(dir, 'store.sqlite');
const taskIds = Array.from({ length: 8 }, (_, i) => `task-${i}`);

writeFileSync(configFile, JSON.stringify({ servers: { slow: { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/slow.ts'), env: {} } } }));
writeFileSync(
  tasksFile,
  JSON.stringify(
    taskIds.map((id) => ({
      id,
      question: `sleep for ${id}`,
      steps: [{ step: 1, calls: [{ name: 'slow/sleep', arguments: { ms: 700 } }] }],
      final_reply: `done ${id}`,
    })),
  ),
);

function startRun(extra: string[]): ChildProcess {
  const args = [
    ...m3EntryArgs(),
    'run',
    '--tasks',
    tasksFile,
    '--config',
    configFile,
    '--run-dir',
    resultsDir,
    '--store',
    storeFile,
    '--run-id',
    'killed',
    '--concurrency',
    '2',
    ...extra,
  ];
  return spawn(process.execPath, args, { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
}

const predictionFile = path.join(resultsDir, 'replay-gt_test_mcp_fuzzy.json');
const recordsInFile = (): Array<{ id: string }> => (existsSync(predictionFile) ? JSON.parse(readFileSync(predictionFile, 'utf8')) : []);

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('resume after SIGKILL', () => {
  it('loses no finished task and duplicates none', async () => {
    const first = startRun(['--overwrite']);
    let stderr = '';
    first.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    const exited = exitOf(first);
    const deadline = Date.now() + 90_000;
    while (recordsInFile().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(recordsInFile().length, stderr).toBeGreaterThanOrEqual(2);
    process.kill(-first.pid!, 'SIGKILL'); // the whole group: the runner and its MCP servers
    await exited;
    const afterKill = recordsInFile().length;
    expect(afterKill).toBeLessThan(taskIds.length);

    const second = startRun(['--resume']);
    let output = '';
    second.stdout?.on('data', (chunk) => (output += String(chunk)));
    second.stderr?.on('data', (chunk) => (output += String(chunk)));
    expect(await exitOf(second), output).toBe(0);

    const ids = recordsInFile().map((record) => record.id);
    expect(ids.sort()).toEqual([...taskIds].sort());
    const store = openStore(storeFile);
    try {
      const okPerTask = new Map<string, number>();
      for (const episode of episodesForRun(store, 'killed.replay-gt', { status: 'ok' }))
        okPerTask.set(episode.taskId, (okPerTask.get(episode.taskId) ?? 0) + 1);
      expect([...okPerTask.keys()].sort()).toEqual([...taskIds].sort());
      expect([...okPerTask.values()].every((count) => count === 1)).toBe(true);
    } finally {
      store.close();
    }
  }, 180_000);
});
