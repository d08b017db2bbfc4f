// Several real processes writing one store file, and a writer killed with SIGKILL mid-loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { checkIntegrity, createRun, episodesForRun, modelCallsForEpisode, openStore, toolCallsForEpisode, type Store } from '../../src/store/index.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { repoRoot } from '../support/shared-assets.js';
import { tempStoreFile } from './temp-store.js';

interface Writer {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  waitForLine: (match: (line: string) => boolean) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startWriter(file: string, name: string, count: number, flags: string[] = []): Writer {
  const args = [...nodeEntryArgs('test/support/fixture-servers/store-writer.ts'), file, 'run', name, String(count), ...flags];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<{ match: (line: string) => boolean; resolve: () => void }> = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.match(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const waitForLine = (match: (line: string) => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (lines.some(match)) return resolve();
      waiters.push({ match, resolve });
      void exited.then(({ code }) => reject(new Error(`writer ${name} exited (${code}) before the expected line; stderr:\n${stderr}`)));
    });
  return { child, lines, stderr: () => stderr, waitForLine, exited };
}

function createStoreWithRun(): string {
  const file = tempStoreFile();
  const store = openStore(file);
  createRun(store, { runId: 'run', modelSpec: 'replay:writers', modelLabel: 'writers' });
  store.close();
  return file;
}

function committedIndexes(writer: Writer): number[] {
  return writer.lines.filter((line) => line.startsWith('committed ')).map((line) => Number(line.slice('committed '.length)));
}

/** Every stored episode is whole: finished, with its model call and both tool calls. */
function expectWholeEpisodes(store: Store, writerName: string): string[] {
  const episodes = episodesForRun(store, 'run', { model: `model-${writerName}` });
  for (const episode of episodes) {
    expect(episode.status).toBe('ok');
    expect(modelCallsForEpisode(store, episode.id)).toHaveLength(1);
    expect(toolCallsForEpisode(store, episode.id).map((call) => call.callIndex)).toEqual([0, 1]);
  }
  return episodes.map((episode) => episode.taskId);
}

describe('run store across processes', () => {
  it('keeps every row when four processes write the same file at once (600 rows each)', async () => {
    const file = createStoreWithRun();
    const perWriter = 150;
    const names = ['w1', 'w2', 'w3', 'w4'];
    const writers = names.map((name) => startWriter(file, name, perWriter, ['--wait-go', '--pause-ms=1']));
    await Promise.all(writers.map((writer) => writer.waitForLine((line) => line === 'ready')));
    // Release all writers at once so their transactions contend for the write lock.
    for (const writer of writers) writer.child.stdin?.end('go\n');
    const exits = await Promise.all(writers.map((writer) => writer.exited));
    exits.forEach((exit, index) => expect(exit, writers[index]?.stderr()).toEqual({ code: 0, signal: null }));
    for (const writer of writers) expect(writer.lines.at(-1)).toBe('done');

    const store = openStore(file);
    expect(checkIntegrity(store)).toEqual(['ok']);
    for (const name of names) {
      const taskIds = expectWholeEpisodes(store, name);
      expect(new Set(taskIds)).toEqual(new Set(Array.from({ length: perWriter }, (_, index) => `${name}-${index}`)));
    }
    store.close();
    const db = new Database(file, { readonly: true });
    const order = db.prepare('SELECT model FROM episodes ORDER BY id').pluck().all() as string[];
    const counts = db
      .prepare('SELECT (SELECT COUNT(*) FROM episodes) AS e, (SELECT COUNT(*) FROM model_calls) AS m, (SELECT COUNT(*) FROM tool_calls) AS t')
      .get();
    db.close();
    expect(counts).toEqual({ e: 4 * perWriter, m: 4 * perWriter, t: 8 * perWriter });
    // The writers really overlapped: the id order switches between writers many times.
    const switches = order.filter((model, index) => index > 0 && model !== order[index - 1]).length;
    expect(switches).toBeGreaterThan(names.length);
  }, 180_000);

  it('survives SIGKILL mid-write: the file opens, passes integrity_check and holds every committed episode', async () => {
    const file = createStoreWithRun();
    for (const [name, killAfter] of [
      ['k1', 120],
      ['k2', 60],
    ] as const) {
      const writer = startWriter(file, name, 0);
      await writer.waitForLine((line) => line === `committed ${killAfter}`);
      writer.child.kill('SIGKILL');
      expect(await writer.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // The killed connection never checkpointed: its commits live in the WAL until recovery.
      expect(existsSync(`${file}-wal`)).toBe(true);

      const committed = committedIndexes(writer);
      expect(committed.length).toBeGreaterThan(killAfter);
      const store = openStore(file);
      expect(checkIntegrity(store)).toEqual(['ok']);
      const stored = new Set(expectWholeEpisodes(store, name));
      for (const index of committed) expect(stored.has(`${name}-${index}`)).toBe(true);
      // At most the one transaction that committed after its line could be written is extra.
      expect(stored.size - committed.length).toBeGreaterThanOrEqual(0);
      expect(stored.size - committed.length).toBeLessThanOrEqual(1);
      store.close();
    }
  }, 180_000);
});
