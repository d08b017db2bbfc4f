// A run spread over workers is one run: real `m3 run --shard auto` child processes, started as a
// Kubernetes Indexed Job starts them (JOB_COMPLETION_INDEX=0..2) and as a Slurm array does
// (SLURM_ARRAY_TASK_ID=1..3), at the same time, each into its own results folder and store, over
// six tasks of the bundled local suite with the seeded noisy oracle and two trials; then `m3
// merge`. The merged store and prediction files hold every task exactly once per trial, and their
// step evaluation equals that of the same run made by one process. The workers are the point
// (the index read from the scheduler's variables, processes side by side), so they are children;
// the reference run, the merges and the refused shard run in this process
// (test/support/m3-in-process.ts): their files, stores and messages are what is checked.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/eval/embed/registry.js';
import { runStepFiles } from '../../src/eval/step/run.js';
import { loadBatchManifest } from '../../src/runner/batch-manifest.js';
import { loadBatchResults } from '../../src/stats/batch-results.js';
import { episodesForRun, getRun, listRuns, modelCallsForEpisode, openStore, toolCallsForEpisode } from '../../src/store/index.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3, type Finished } from '../support/m3-child.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-shard-e2e-'));
const configFile = path.join(dir, 'servers.json');
const tasksFile = path.join(dir, 'tasks.json');
const gtFile = path.join(dir, 'gt.json');
const model = 'replay:noisy?seed=3';
// Six tasks of the bundled suite: two per shard (a shard takes every third task in id order,
// src/runner/task-set.ts), so each worker runs more than one task and each trial spans all three
// shards; their math calls reach the one server started here, the barcode, OCR and detection
// calls get tool errors from missing servers (--allow-missing-servers), as the whole suite did.
// Which tool results come back is not what is compared (the store view holds each call's name and
// arguments, the step evaluation the predicted calls): the barcode server, whose start compiles
// its decoder (~0.9 CPU-s, eight starts here), is not started. L0015 has a step of three parallel
// math calls; it stands where L0022 (one step of three barcode scans over three images) stood,
// whose images cost each run that holds it ~1.2 CPU-s more (measured: `m3 run` of that one task,
// two trials, 2.9 against 1.6 CPU-s), and three runs hold it.
const taskIds = ['L0002', 'L0003', 'L0006', 'L0010', 'L0012', 'L0015'];
const subset = (file: string) =>
  (JSON.parse(readFileSync(path.join(repoRoot, 'json', file), 'utf8')) as Array<{ id: string }>).filter((task) => taskIds.includes(task.id));
writeFileSync(tasksFile, JSON.stringify(subset('m3_local_tasks.json')));
writeFileSync(gtFile, JSON.stringify(subset('m3_local_GT.json')));
const allTaskIds = (JSON.parse(readFileSync(gtFile, 'utf8')) as Array<{ id: string }>).map((task) => task.id).sort();

function runArgs(resultsDir: string, extra: string[]): string[] {
  return [
    'run',
    '--model',
    model,
    '--tasks',
    tasksFile,
    '--gt',
    gtFile,
    '--config',
    configFile,
    '--run-dir',
    resultsDir,
    '--trials',
    '2',
    '--allow-missing-servers',
    '--concurrency',
    '3',
    ...extra,
  ];
}

function run(resultsDir: string, extra: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return runM3(runArgs(resultsDir, extra), { M3_WORKSPACE_MODE: 'isolated', ...env });
}

function runInProcess(resultsDir: string, extra: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return runM3InProcess(runArgs(resultsDir, extra), { M3_WORKSPACE_MODE: 'isolated', ...env });
}

const workers = {
  k8s: [0, 1, 2].map((index) => ({ args: ['--shard', 'auto/3', '--run-id', 'k8s', '--resume'], env: { JOB_COMPLETION_INDEX: String(index) } })),
  slurm: [1, 2, 3].map((id) => ({
    args: ['--shard', 'auto'],
    env: { M3_RUN_ID: 'slurm', SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_COUNT: '3' },
  })),
};
type Kind = keyof typeof workers;

const shardDir = (kind: Kind, position: number) => path.join(dir, kind, `shard-${position}`);
const mergedStore = (kind: Kind) => path.join(dir, kind, 'm3bench.sqlite');
const outputs: Record<string, Finished[]> = {};
const merges: Record<string, Finished> = {};

function merge(kind: Kind): Promise<Finished> {
  // --run-dir: the merged files flat beside the merged store (the default is its runs/<run-id>/ folder: test/runner/merge-run-folder.test.ts).
  return runM3InProcess([
    'merge',
    '--store',
    mergedStore(kind),
    '--run-dir',
    path.join(dir, kind),
    '--from-store',
    ...[0, 1, 2].map((position) => path.join(shardDir(kind, position), 'm3bench.sqlite')),
  ]);
}

function trialFile(folder: string, trial: number): string {
  const name = readdirSync(folder).find((file) => file.includes(`.trial-${trial}_test_mcp_fuzzy`) && file.endsWith('fuzzy.json'));
  if (!name) throw new Error(`no trial-${trial} prediction file in ${folder}: ${readdirSync(folder).join(', ')}`);
  return path.join(folder, name);
}

/** Per task and trial, what the store recorded: the episode's status, rounds and its calls. */
function storeView(file: string, runId: string) {
  const store = openStore(file, { readonly: true });
  try {
    const run = getRun(store, runId);
    const episodes = episodesForRun(store, runId)
      .map((episode) => ({
        key: `${episode.taskId}#${episode.trial}.${episode.attempt}`,
        status: episode.status,
        rounds: episode.rounds,
        modelCalls: modelCallsForEpisode(store, episode.id).length,
        toolCalls: toolCallsForEpisode(store, episode.id).map((call) => `${call.canonicalName} ${JSON.stringify(call.arguments)}`),
      }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    return { run, episodes, runs: listRuns(store).length };
  } finally {
    store.close();
  }
}

async function stepAggregate(predFile: string, outputDir: string) {
  const result = await runStepFiles({
    gtFile,
    predFile,
    outputDir,
    embedder: createEmbedder(),
    mode: 'default',
    thresholds: { tauStrong: 0.8, tauWeak: 0.6 },
  });
  // The evaluation names the manifest and cache it read: the folders differ, the numbers must not.
  const text = JSON.stringify({ aggregate: result.evaluation.aggregate, perId: result.evaluation.perId })
    .replaceAll(path.dirname(predFile), '<run folder>')
    .replaceAll(outputDir, '<output folder>');
  return JSON.parse(text) as { aggregate: unknown; perId: unknown[] };
}

beforeAll(async () => {
  // One light server, started from dist/ when it is fresh (mcp_servers.json starts it through
  // tsx, which transpiles every module on each start); the tasks that need others run
  // anyway and get tool errors (--allow-missing-servers).
  const server = (entry: string) => ({ command: 'node', args: nodeEntryArgs(entry), env: {} });
  writeFileSync(configFile, JSON.stringify({ servers: { math: server('servers/math/index.ts') } }));
  outputs.single = [await runInProcess(path.join(dir, 'single'), ['--run-id', 'whole'], {})];
  expect(outputs.single[0]?.code, outputs.single[0]?.output).toBe(0);
  for (const kind of Object.keys(workers) as Kind[]) {
    // The workers of an array run at the same time, as a scheduler starts them.
    outputs[kind] = await Promise.all(workers[kind].map((worker, position) => run(shardDir(kind, position), worker.args, worker.env)));
    merges[kind] = await merge(kind);
  }
}, 1_200_000);

describe.each(Object.keys(workers) as Kind[])('three %s workers merged by m3 merge', { timeout: 300_000 }, (kind) => {
  const runId = `${kind}.replay-noisy-seed-3`;

  it('each worker ran its shard and said where the index came from', () => {
    const runs = outputs[kind] ?? [];
    for (const [position, outcome] of runs.entries()) {
      expect(outcome.code, outcome.output).toBe(0);
      const source = kind === 'k8s' ? `JOB_COMPLETION_INDEX=${position} (Kubernetes Indexed Job` : `SLURM_ARRAY_TASK_ID=${position + 1} (Slurm job array`;
      expect(outcome.stderr).toContain(`shard ${position + 1}/3 (from ${source}`);
      // More than one task per shard, in both trials.
      const shard = storeView(path.join(shardDir(kind, position), 'm3bench.sqlite'), runId);
      expect(shard.episodes.filter((episode) => episode.key.endsWith('.1'))).toHaveLength(2 * 2);
    }
    expect(merges[kind]?.code, merges[kind]?.output).toBe(0);
  });

  it('the merged store holds one finished run with every task exactly once per trial, as the single process recorded it', () => {
    const single = storeView(path.join(dir, 'single', 'm3bench.sqlite'), 'whole.replay-noisy-seed-3');
    const merged = storeView(mergedStore(kind), runId);
    expect(merged.runs).toBe(1);
    expect(merged.run?.status).toBe('finished');
    // Every task once per trial (first attempts; a requeued attempt would add a row, as in the single run).
    const firstAttempts = merged.episodes.filter((episode) => episode.key.endsWith('.1')).map((episode) => episode.key);
    expect(firstAttempts).toEqual(allTaskIds.flatMap((id) => [`${id}#1.1`, `${id}#2.1`]));
    expect(merged.episodes).toEqual(single.episodes);
    const manifest = merged.run?.manifest as Record<string, unknown>;
    const singleManifest = single.run?.manifest as Record<string, unknown>;
    expect(manifest.shard).toBeNull();
    expect(manifest.taskSetHash).toBe(singleManifest.taskSetHash);
    expect(manifest.counts).toEqual(singleManifest.counts);
  });

  it('the merged prediction files hold every task once and score as the single-process run does', async () => {
    for (const trial of [1, 2]) {
      const mergedFile = trialFile(path.join(dir, kind), trial);
      const ids = (JSON.parse(readFileSync(mergedFile, 'utf8')) as Array<{ id: string }>).map((record) => record.id);
      expect(ids).toEqual(allTaskIds);
      const mergedManifest = JSON.parse(readFileSync(mergedFile.replace(/\.json$/, '.manifest.json'), 'utf8')) as Record<string, unknown>;
      const singleFile = trialFile(path.join(dir, 'single'), trial);
      const singleManifest = JSON.parse(readFileSync(singleFile.replace(/\.json$/, '.manifest.json'), 'utf8')) as Record<string, unknown>;
      expect(mergedManifest.taskSetHash).toBe(singleManifest.taskSetHash);
      expect(mergedManifest.trial).toBe(trial);
      const merged = await stepAggregate(mergedFile, path.join(dir, kind, `replay-noisy-seed-3.trial-${trial}`));
      const single = await stepAggregate(singleFile, path.join(dir, 'single', `replay-noisy-seed-3.trial-${trial}`));
      expect(merged).toEqual(single);
      expect(merged.perId).toHaveLength(allTaskIds.length);
    }
  });

  it('writes one batch manifest naming the merged files, which the batch reader scores as the single run', () => {
    const file = path.join(dir, kind, `${kind}.batch.json`);
    expect(merges[kind]?.stdout).toContain(`${file}: batch manifest`);
    const batch = loadBatchManifest(file);
    expect(batch.cells.map((cell) => cell.runId)).toEqual([runId]);
    expect(batch.cells[0]?.trials.map((trial) => [trial.label, trial.predictions])).toEqual([
      ['replay-noisy-seed-3.trial-1', 'replay-noisy-seed-3.trial-1_test_mcp_fuzzy.json'],
      ['replay-noisy-seed-3.trial-2', 'replay-noisy-seed-3.trial-2_test_mcp_fuzzy.json'],
    ]);
    expect(batch.store).toBe('m3bench.sqlite');
    // Scored (by the test above) into each trial's folder: the batch reader sees what it sees for the single run.
    const [cell] = loadBatchResults(file).cells;
    const [singleCell] = loadBatchResults(path.join(dir, 'single', 'whole.batch.json')).cells;
    expect(cell?.unevaluated).toEqual([]);
    expect(cell?.tasks.size).toBe(allTaskIds.length);
    expect(cell?.taskSetHash).toBe(singleCell?.taskSetHash);
    expect(cell?.tasks).toEqual(singleCell?.tasks);
  });

  it('a second merge changes nothing', async () => {
    const before = storeView(mergedStore(kind), runId);
    const again = await merge(kind);
    expect(again.code, again.output).toBe(0);
    expect(again.stderr).toContain(`episodes: 0 row(s) copied, ${2 * allTaskIds.length} already there`);
    expect(storeView(mergedStore(kind), runId)).toEqual(before);
  });
});

describe('m3 merge refusals', { timeout: 300_000 }, () => {
  it('refuses shards of two different runs, naming both stores, and writes nothing', async () => {
    const target = path.join(dir, 'mixed.sqlite');
    const first = path.join(shardDir('k8s', 0), 'm3bench.sqlite');
    const second = path.join(shardDir('slurm', 1), 'm3bench.sqlite');
    const third = path.join(shardDir('k8s', 2), 'm3bench.sqlite');
    const outcome = await runM3InProcess(['merge', '--store', target, '--from-store', first, second, third]);
    expect(outcome.code, outcome.output).toBe(2);
    expect(outcome.stderr).toContain(`run k8s.replay-noisy-seed-3 lacks shard(s) 2/3 (found 1/3 in ${first} (run k8s.replay-noisy-seed-3), 3/3 in ${third}`);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a shard of the same run id made with another configuration, naming both stores', async () => {
    const odd = path.join(dir, 'k8s-odd');
    const worker = await runInProcess(odd, ['--shard', 'auto/3', '--run-id', 'k8s', '--max-step', '3'], { JOB_COMPLETION_INDEX: '1' });
    expect(worker.code, worker.output).toBe(0);
    const first = path.join(shardDir('k8s', 0), 'm3bench.sqlite');
    const oddStore = path.join(odd, 'm3bench.sqlite');
    const outcome = await runM3InProcess([
      'merge',
      '--store',
      path.join(dir, 'odd.sqlite'),
      '--from-store',
      first,
      oddStore,
      path.join(shardDir('k8s', 2), 'm3bench.sqlite'),
    ]);
    expect(outcome.code, outcome.output).toBe(2);
    expect(outcome.stderr).toContain(
      `${first} (run k8s.replay-noisy-seed-3) and ${oddStore} (run k8s.replay-noisy-seed-3) are not shards of one run: config hash`,
    );
  });
});
