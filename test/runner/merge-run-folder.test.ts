// `m3 merge --store T --from-store a b` files the merged run as `m3 run` files a run: its merged
// prediction files and batch manifest in `<results-dir>/runs/<run-id>/` (the results root is the
// folder of T), `latest` pointing at it, so `m3 eval batch` and `m3 summary` read it like any run;
// `--run-dir <dir>` writes the same files flat into <dir> and leaves `latest` alone. Two shard
// workers of the oracle over the real math server (a child), each with its own store, one after
// the other; the workers, the merges and the readers run in this process
// (test/support/m3-in-process.ts): the files and the stores they leave are the point, not the
// process. Shard workers as real processes side by side are test/runner/shard-merge-e2e.test.ts's.
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun, openStore } from '../../src/store/index.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-merge-run-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gtFile = path.join(dir, 'gt.json');
const configFile = path.join(dir, 'servers.json');
const add = (a: number, b: number) => ({ name: 'math/add', arguments: { firstNumber: a, secondNumber: b } });
const ids = ['p1', 'p2', 'p3', 'p4'];
const shardStore = (index: number) => path.join(dir, 'shards', String(index), 'm3bench.sqlite');

beforeAll(async () => {
  // From dist/ when it is fresh: through tsx each start transpiles every module it loads.
  writeFileSync(configFile, JSON.stringify({ servers: { math: { command: 'node', args: nodeEntryArgs('servers/math/index.ts'), env: {} } } }));
  writeFileSync(
    gtFile,
    JSON.stringify(
      ids.map((id, n) => ({
        id,
        type: 'arith',
        question: `Add ${n} and ${n + 1}.`,
        steps: [{ step: 1, calls: [add(n, n + 1)] }],
        final_reply: `${2 * n + 1}`,
      })),
    ),
  );
  // One after the other: in-process calls must not overlap (their stdout is captured per call).
  for (const index of [1, 2]) {
    const worker = await runM3InProcess(
      ['run', '--model', 'replay:gt', '--tasks', gtFile, '--gt', gtFile, '--config', configFile, '--run-id', 'm', '--shard', `${index}/2`].concat([
        '--results-dir',
        path.dirname(shardStore(index)),
      ]),
      { M3_WORKSPACE_MODE: 'isolated' },
    );
    expect(worker.code, worker.output).toBe(0);
  }
}, 300_000);

describe('m3 merge files the merged run in a run folder', { timeout: 300_000 }, () => {
  it('writes runs/<run-id>/ under the store folder, points latest at it, and the readers take it as one run', async () => {
    const results = path.join(dir, 'results');
    const merge = await runM3InProcess(['merge', '--store', path.join(results, 'm3bench.sqlite'), '--from-store', shardStore(1), shardStore(2)]);
    expect(merge.code, merge.output).toBe(0);
    const folder = path.join(results, 'runs', 'm');
    const predictions = path.join(folder, 'replay-gt_test_mcp_fuzzy.json');
    expect((JSON.parse(readFileSync(predictions, 'utf8')) as Array<{ id: string }>).map((record) => record.id).sort()).toEqual(ids);
    expect(existsSync(path.join(folder, 'm.batch.json'))).toBe(true);
    expect(merge.stdout).toContain(`${path.join(folder, 'm.batch.json')}: batch manifest`);
    // Nothing flat in the results root, and latest names the merged run.
    expect(existsSync(path.join(results, 'replay-gt_test_mcp_fuzzy.json'))).toBe(false);
    expect(lstatSync(path.join(results, 'latest')).isSymbolicLink()).toBe(true);
    expect(path.resolve(results, readlinkSync(path.join(results, 'latest')))).toBe(folder);
    const store = openStore(path.join(results, 'm3bench.sqlite'), { readonly: true });
    try {
      expect(getRun(store, 'm.replay-gt')).toMatchObject({ status: 'finished' });
    } finally {
      store.close();
    }

    const scored = await runM3InProcess(['eval', 'batch', path.join(folder, 'm.batch.json')]);
    expect(scored.code, scored.output).toBe(0);
    const summary = await runM3InProcess(['summary', '--results-dir', results, '--json']);
    expect(summary.code, summary.output).toBe(0);
    const parsed = JSON.parse(summary.stdout) as { batch: string; cells: Array<{ tasks: number; passAt1: { estimate: number } }> };
    expect(parsed.batch).toBe('m');
    expect(parsed.cells[0]).toMatchObject({ tasks: 4, passAt1: { estimate: 1 } });
  });

  it('--run-dir writes the merged files flat into that folder and leaves latest alone', async () => {
    const results = path.join(dir, 'flat-results');
    const flat = path.join(dir, 'flat');
    const merge = await runM3InProcess([
      'merge',
      '--store',
      path.join(results, 'm3bench.sqlite'),
      '--run-dir',
      flat,
      '--from-store',
      shardStore(1),
      shardStore(2),
    ]);
    expect(merge.code, merge.output).toBe(0);
    expect(existsSync(path.join(flat, 'replay-gt_test_mcp_fuzzy.json'))).toBe(true);
    expect(existsSync(path.join(flat, 'm.batch.json'))).toBe(true);
    expect(existsSync(path.join(results, 'runs'))).toBe(false);
    expect(existsSync(path.join(results, 'latest'))).toBe(false);
  });
});
