// Merging shard stores, row level: real SQLite files written through the store API, merged into
// a target; refusals name both inputs; a re-run changes nothing; a column or child table a later
// migration adds is merged without a change to the merge code.
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeShardStores } from '../../src/runner/merge-stores.js';
import {
  createRun,
  defaultMigrationsDir,
  episodesForRun,
  finishEpisode,
  finishRun,
  getRun,
  mergeRunShards,
  modelCallsForEpisode,
  openStore,
  recordModelCall,
  recordToolCalls,
  startEpisode,
  toolCallsForEpisode,
  updateRunManifest,
  type Store,
} from '../../src/store/index.js';
import { selectAll, statement } from '../../src/store/connection.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-merge-stores-'));
let counter = 0;
const fresh = (name: string) => path.join(dir, `${name}-${(counter += 1)}.sqlite`);

interface ShardSpec {
  shard: string;
  tasks: string[];
  runId?: string;
  configHash?: string;
  status?: 'finished' | 'running';
}

function manifestOf(spec: ShardSpec, runId: string) {
  return {
    runId,
    model: 'replay:gt',
    modelLabel: 'replay-gt',
    startedAt: `2026-12-02T0${spec.shard[0]}:00:00.000Z`,
    finishedAt: `2026-12-02T0${spec.shard[0]}:30:00.000Z`,
    configHash: spec.configHash ?? 'config-a',
    toolsHash: 'tools-a',
    tasksFile: '/data/tasks.json',
    tasksFileSha256: 'tasks-sha',
    gtFile: '/data/gt.json',
    gtFileSha256: 'gt-sha',
    shard: spec.shard,
    trials: 1,
    counts: { tasks: spec.tasks.length, done: spec.tasks.length, modelFailures: 0, infraFailures: 0 },
    failures: [],
    promptHashes: Object.fromEntries(spec.tasks.map((task) => [task, `hash-${task}`])),
  };
}

function writeEpisode(store: Store, runId: string, taskId: string): void {
  const episodeId = startEpisode(store, { runId, taskId, model: 'replay:gt' });
  recordModelCall(store, {
    episodeId,
    round: 1,
    purpose: 'work',
    request: { task: taskId },
    response: { text: `answer ${taskId}` },
    usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 },
    latencyMs: 3,
    attempts: [{ attempt: 1, startedAt: Date.now(), latencyMs: 3, ok: true }],
  });
  recordToolCalls(
    store,
    [0, 1].map((callIndex) => ({ episodeId, round: 1, callIndex, canonicalName: 'math/add', arguments: { taskId, callIndex }, resultText: `${callIndex}` })),
  );
  finishEpisode(store, episodeId, { status: 'ok', rounds: 1, toolCallCount: 2, usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 } });
}

function writeShard(spec: ShardSpec, options: { migrationsDir?: string; file?: string } = {}): string {
  const file = options.file ?? fresh(`shard-${spec.shard.replace('/', '-of-')}`);
  const store = openStore(file, options.migrationsDir ? { migrationsDir: options.migrationsDir } : {});
  const runId = spec.runId ?? 'batch.replay-gt';
  createRun(store, { runId, modelSpec: 'replay:gt', modelLabel: 'replay-gt', configHash: spec.configHash ?? 'config-a', manifest: manifestOf(spec, runId) });
  for (const task of spec.tasks) writeEpisode(store, runId, task);
  updateRunManifest(store, runId, manifestOf(spec, runId));
  if (spec.status !== 'running') finishRun(store, runId, 'finished');
  store.close();
  return file;
}

function snapshot(file: string, runId = 'batch.replay-gt') {
  const store = openStore(file, { readonly: true });
  try {
    return episodesForRun(store, runId)
      .map((episode) => ({
        task: episode.taskId,
        status: episode.status,
        modelCalls: modelCallsForEpisode(store, episode.id).map((call) => call.response),
        toolCalls: toolCallsForEpisode(store, episode.id).map((call) => [call.canonicalName, call.arguments]),
      }))
      .sort((a, b) => (a.task < b.task ? -1 : 1));
  } finally {
    store.close();
  }
}

describe('m3 merge of shard stores', () => {
  it('joins three shards into one finished run, every row once, and a re-run changes nothing', () => {
    const sources = [
      writeShard({ shard: '1/3', tasks: ['t1', 't4'] }),
      writeShard({ shard: '2/3', tasks: ['t2', 't5'] }),
      writeShard({ shard: '3/3', tasks: ['t3'] }),
    ];
    const target = fresh('merged');
    const [report] = mergeShardStores({ target, sources, resultsDir: dir }).runs;
    expect(report?.tasks).toBe(5);
    expect(report?.tables.find((table) => table.table === 'episodes')).toMatchObject({ copied: 5, alreadyThere: 0 });
    expect(report?.tables.find((table) => table.table === 'tool_calls')).toMatchObject({ copied: 10 });
    const merged = snapshot(target);
    expect(merged.map((entry) => entry.task)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(merged.every((entry) => entry.modelCalls.length === 1 && entry.toolCalls.length === 2)).toBe(true);
    expect(merged.find((entry) => entry.task === 't5')?.toolCalls[1]).toEqual(['math/add', { taskId: 't5', callIndex: 1 }]);
    const store = openStore(target, { readonly: true });
    const run = getRun(store, 'batch.replay-gt');
    store.close();
    expect(run?.status).toBe('finished');
    const manifest = run?.manifest as Record<string, unknown>;
    expect(manifest.shard).toBeNull();
    expect(manifest.counts).toEqual({ tasks: 5, done: 5, modelFailures: 0, infraFailures: 0 });
    expect((manifest.mergedShards as Array<{ shard: string }>).map((entry) => entry.shard)).toEqual(['1/3', '2/3', '3/3']);
    expect(Object.keys(manifest.promptHashes as object)).toEqual(['t1', 't2', 't3', 't4', 't5']);

    const [again] = mergeShardStores({ target, sources, resultsDir: dir }).runs;
    expect(again?.tables.find((table) => table.table === 'episodes')).toMatchObject({ copied: 0, alreadyThere: 5 });
    expect(snapshot(target)).toEqual(merged);
  });

  it('refuses shards of different configs, overlapping shards, a missing shard and a running shard, naming the inputs', () => {
    const a = writeShard({ shard: '1/2', tasks: ['t1'] });
    const other = writeShard({ shard: '2/2', tasks: ['t2'], configHash: 'config-b' });
    expect(() => mergeShardStores({ target: fresh('t'), sources: [a, other], resultsDir: dir })).toThrowError(
      new RegExp(`${a}.* and ${other}.* are not shards of one run: config hash config-a vs config-b`),
    );
    const overlapping = writeShard({ shard: '2/2', tasks: ['t2', 't1'] });
    const target = fresh('t');
    expect(() => mergeShardStores({ target, sources: [a, overlapping], resultsDir: dir })).toThrowError(
      new RegExp(`task t1 of run batch.replay-gt is in both ${a} and ${overlapping}`),
    );
    expect(existsSync(target)).toBe(false);
    expect(() => mergeShardStores({ target: fresh('t'), sources: [a], resultsDir: dir })).toThrowError(
      new RegExp(`lacks shard\\(s\\) 2/2 \\(found 1/2 in ${a} \\(run batch.replay-gt\\)\\)`),
    );
    const twin = writeShard({ shard: '1/2', tasks: ['t2'] });
    expect(() => mergeShardStores({ target: fresh('t'), sources: [a, twin], resultsDir: dir })).toThrowError(/are both shard 1\/2/);
    const running = writeShard({ shard: '2/2', tasks: ['t2'], status: 'running' });
    expect(() => mergeShardStores({ target: fresh('t'), sources: [a, running], resultsDir: dir })).toThrowError(/is still running/);
  });

  it('refuses a target that holds another record of a task, and leaves the target as it was', () => {
    const sources = [writeShard({ shard: '1/2', tasks: ['t1'] }), writeShard({ shard: '2/2', tasks: ['t2'] })];
    const target = fresh('taken');
    // The target already has this run id from elsewhere, with its own t2.
    writeShard({ shard: '2/2', tasks: ['t2'] }, { file: target });
    const before = snapshot(target);
    const store = openStore(target);
    statement(store, 'UPDATE model_calls SET response = \'{"text":"another answer"}\'').run();
    statement(store, "UPDATE episodes SET rounds = 7 WHERE task_id = 't2'").run();
    store.close();
    expect(before).toHaveLength(1);
    expect(() => mergeShardStores({ target, sources, resultsDir: dir })).toThrowError(
      new RegExp(`task t2 of run batch.replay-gt is in both ${target} and ${sources[1]} \\(episodes\\) with different content`),
    );
    expect(snapshot(target).map((entry) => entry.task)).toEqual(['t2']);
  });

  it('copies a column and a child table that a later migration adds, without a change to the merge', () => {
    const migrations = path.join(dir, 'migrations-plus');
    cpSync(defaultMigrationsDir(), migrations, { recursive: true });
    writeFileSync(
      path.join(migrations, '900-later.sql'),
      `ALTER TABLE model_calls ADD COLUMN request_sha TEXT;
       CREATE TABLE tool_call_notes (id INTEGER PRIMARY KEY, tool_call_id INTEGER NOT NULL REFERENCES tool_calls (id) ON DELETE CASCADE, note TEXT NOT NULL);`,
    );
    const files = [
      writeShard({ shard: '1/2', tasks: ['t1'] }, { migrationsDir: migrations }),
      writeShard({ shard: '2/2', tasks: ['t2'] }, { migrationsDir: migrations }),
    ];
    for (const file of files) {
      const store = openStore(file, { migrationsDir: migrations });
      statement(store, "UPDATE model_calls SET request_sha = 'sha-' || id").run();
      statement(store, "INSERT INTO tool_call_notes (tool_call_id, note) SELECT id, 'note of ' || canonical_name || ' ' || call_index FROM tool_calls").run();
      store.close();
    }
    const sources = files.map((file) => openStore(file, { migrationsDir: migrations, readonly: true }));
    const target = openStore(fresh('plus'), { migrationsDir: migrations });
    try {
      const counts = mergeRunShards(target, sources, {
        runId: 'batch.replay-gt',
        manifest: { merged: true },
        status: 'finished',
        startedAt: '2026-12-02T01:00:00.000Z',
        finishedAt: null,
      });
      expect(counts.find((entry) => entry.table === 'tool_call_notes')).toMatchObject({ copied: 4 });
      const notes = selectAll(
        target,
        `SELECT e.task_id, n.note, m.request_sha IS NOT NULL AS has_sha FROM tool_call_notes n
           JOIN tool_calls t ON t.id = n.tool_call_id JOIN episodes e ON e.id = t.episode_id
           JOIN model_calls m ON m.episode_id = e.id ORDER BY e.task_id, n.note`,
      );
      expect(notes).toEqual([
        { task_id: 't1', note: 'note of math/add 0', has_sha: 1 },
        { task_id: 't1', note: 'note of math/add 1', has_sha: 1 },
        { task_id: 't2', note: 'note of math/add 0', has_sha: 1 },
        { task_id: 't2', note: 'note of math/add 1', has_sha: 1 },
      ]);
    } finally {
      target.close();
      for (const source of sources) source.close();
    }
  });
});
