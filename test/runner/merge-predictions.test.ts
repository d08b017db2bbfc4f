// `m3 merge --output f a b`: shard prediction files with the manifests the runner writes beside
// them; the merged manifest, and refusals naming both files.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergePredictionFiles } from '../../src/runner/merge.js';
import { taskSetHash } from '../../src/runner/prompt-hash.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-merge-predictions-'));
const record = (id: string) => ({ id, question: 'q', steps: [], num_step: 0, max_num_concurrent: 0, final_reply: `reply ${id}`, dialogue: [] });

function shardFile(name: string, shard: string, ids: string[], overrides: Record<string, unknown> = {}, withManifest = true): string {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(ids.map(record)));
  if (withManifest)
    writeFileSync(
      path.join(dir, `${name}.manifest.json`),
      JSON.stringify({
        runId: 'b.replay-gt',
        model: 'replay:gt',
        startedAt: `2026-12-02T0${shard[0]}:00:00.000Z`,
        finishedAt: `2026-12-02T0${shard[0]}:10:00.000Z`,
        configHash: 'c1',
        toolsHash: 'tools',
        tasksFileSha256: 'tasks',
        gtFileSha256: 'gt',
        shard,
        trial: 1,
        trials: 1,
        counts: { tasks: ids.length, done: ids.length },
        failures: [{ taskId: ids[0], status: 'model_failure' }],
        promptHashes: Object.fromEntries(ids.map((id) => [id, `h-${id}`])),
        switches: { M3_TASK_TIMEOUT: 1800 },
        ...overrides,
      }),
    );
  return file;
}

describe('m3 merge of prediction files with their manifests', () => {
  it('writes the merged manifest: shard null, counts added, failures joined, task-set hash over every task', () => {
    const files = [shardFile('p-2', '2/2', ['t2', 't4']), shardFile('p-1', '1/2', ['t1', 't3'])];
    const output = path.join(dir, 'merged.json');
    const result = mergePredictionFiles(files, output);
    expect(result.manifest).toBe(path.join(dir, 'merged.manifest.json'));
    const manifest = JSON.parse(readFileSync(result.manifest as string, 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      runId: 'b.replay-gt',
      shard: null,
      startedAt: '2026-12-02T01:00:00.000Z',
      finishedAt: '2026-12-02T02:10:00.000Z',
      counts: { tasks: 4, done: 4 },
      switches: { M3_TASK_TIMEOUT: 1800 },
    });
    expect((manifest.mergedShards as Array<{ shard: string }>).map((entry) => entry.shard)).toEqual(['1/2', '2/2']);
    expect(manifest.failures).toEqual([
      { taskId: 't1', status: 'model_failure' },
      { taskId: 't2', status: 'model_failure' },
    ]);
    expect(manifest.taskSetHash).toBe(taskSetHash(new Map(['t1', 't2', 't3', 't4'].map((id) => [id, `h-${id}`]))));
  });

  it('refuses shards of another run or config, the same shard twice, and a mix with and without manifests, naming both files', () => {
    const output = path.join(dir, 'refused.json');
    const one = shardFile('r-1', '1/2', ['t1']);
    const otherConfig = shardFile('r-2', '2/2', ['t2'], { configHash: 'c2' });
    expect(() => mergePredictionFiles([one, otherConfig], output)).toThrowError(
      /r-1.manifest.json and .*r-2.manifest.json are not shards of one run: config hash c1 vs c2/,
    );
    const otherRun = shardFile('r-3', '2/2', ['t2'], { runId: 'other.replay-gt' });
    expect(() => mergePredictionFiles([one, otherRun], output)).toThrowError(/not shards of one run: run id b.replay-gt vs other.replay-gt/);
    const twin = shardFile('r-4', '1/2', ['t2']);
    expect(() => mergePredictionFiles([one, twin], output)).toThrowError(/r-1.manifest.json and .*r-4.manifest.json are both shard 1\/2/);
    const bare = shardFile('r-5', '2/2', ['t2'], {}, false);
    expect(() => mergePredictionFiles([one, bare], output)).toThrowError(/r-1.json has a manifest beside it but .*r-5.json has none/);
    const overlap = shardFile('r-6', '2/2', ['t2', 't1']);
    expect(() => mergePredictionFiles([one, overlap], output)).toThrowError(/task t1 appears in both .*r-1.json and .*r-6.json/);
  });
});
