// `m3 merge --store T --from-store a b c`: the shards of a run, each run in its own store (a
// worker of a Kubernetes Indexed Job or a Slurm array), become one run in T. Every run found in
// the shard stores is merged: its shards are checked to be distinct slices of one run
// (merge-manifest.ts) that do not overlap on a task and are all present; its rows are copied
// (src/store/merge-shards.ts); and each trial's shard prediction files, which the shard
// manifests name, are merged under the name without the shard suffix into the run's folder,
// `<results-dir>/runs/<batch id>/` as `m3 run` lays a run out (`<results-dir>/latest` then names
// the last merged finished run), or into `runDir` when the caller names one (flat, as `m3 run
// --run-dir`), with a batch manifest per batch id naming the merged files (merge-batch.ts).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors/index.js';
import { getRun, listRuns, mergeRunShards, openStore, runTaskIds, type RunRow, type Store, type TableMergeCount } from '../store/index.js';
import { checkSameRun, checkShards, mergeShardManifests, parseShardManifest, type ShardInput } from './merge-manifest.js';
import { writeMergedBatchManifests } from './merge-batch.js';
import { runFolder } from '../results/layout.js';
import { writeLatestPointer } from '../results/latest.js';
import { manifestFileOf, mergePredictionFiles, type MergeResult } from './merge.js';

export interface MergeStoresRequest {
  /** The store the merged runs go into (created when absent). */
  target: string;
  /** One store per shard. */
  sources: readonly string[];
  /** Results root: each merged run goes into its run folder `<resultsDir>/runs/<batch id>/`. */
  resultsDir: string;
  /** Write every merged run flat into this folder instead (no run folder, `latest` untouched). */
  runDir?: string;
}

export interface MergedRunReport {
  runId: string;
  /** The merged run's status: finished only when every shard finished. */
  status: 'finished' | 'failed' | 'interrupted';
  batchId: string | null;
  /** The merged run's manifest, as written to the target store. */
  manifest: Record<string, unknown>;
  shards: string[];
  tasks: number;
  tables: TableMergeCount[];
  predictions: MergeResult[];
}

interface ShardRun {
  store: Store;
  row: RunRow;
  input: ShardInput;
}

const shardSuffix = /\.shard-\d+-of-\d+(?=\.json$)/i;

interface TrialEntry {
  trial: number;
  seed?: number | null;
  predictions: string;
  counts?: Record<string, number>;
}

/** The trials' files a shard's stored manifest names (written by the runner when the run ended). */
function trialFilesOf(run: ShardRun): TrialEntry[] {
  const files = (run.input.manifest as { trialFiles?: unknown }).trialFiles;
  if (!Array.isArray(files)) return [];
  return files.filter((entry): entry is TrialEntry => typeof entry?.trial === 'number' && typeof entry?.predictions === 'string');
}

/** Refuses a task in two shards, naming both stores. */
function checkOverlap(runId: string, runs: readonly ShardRun[]): number {
  const owner = new Map<string, string>();
  for (const run of runs) {
    for (const taskId of runTaskIds(run.store, runId)) {
      const earlier = owner.get(taskId);
      if (earlier) throw new ConfigError(`m3 merge: task ${taskId} of run ${runId} is in both ${earlier} and ${run.store.file}; shards must not overlap`);
      owner.set(taskId, run.store.file);
    }
  }
  return owner.size;
}

function checkComplete(runId: string, ordered: readonly ShardInput[], runs: readonly ShardRun[]): void {
  const count = Number(/\/(\d+)$/.exec(ordered[0]?.manifest.shard ?? '')?.[1]);
  const have = new Set(ordered.map((input) => input.manifest.shard));
  const found = ordered.map((input) => `${input.manifest.shard} in ${input.origin}`).join(', ');
  const missing = Array.from({ length: count }, (_, position) => `${position + 1}/${count}`).filter((shard) => !have.has(shard));
  if (missing.length > 0)
    throw new ConfigError(`m3 merge: run ${runId} lacks shard(s) ${missing.join(', ')} (found ${found}); name every shard's store, all of one run`);
  const running = runs.find((run) => run.row.status === 'running');
  if (running) throw new ConfigError(`m3 merge: ${running.input.origin} is still running; wait for it, or resume it (m3 run --resume) before merging`);
}

interface MergedTrial {
  trial: number;
  seed: number | null;
  result: MergeResult;
  counts: Record<string, number>;
}

/** Each trial's shard prediction files merged into `folder`; refuses a file a shard manifest names that is not there. */
function mergeTrialPredictions(runs: readonly ShardRun[], folder: string): MergedTrial[] {
  const byTrial = new Map<number, TrialEntry[]>();
  for (const run of runs) for (const entry of trialFilesOf(run)) byTrial.set(entry.trial, [...(byTrial.get(entry.trial) ?? []), entry]);
  return [...byTrial.entries()]
    .sort(([a], [b]) => a - b)
    .map(([trial, entries]) => {
      const files = entries.map((entry) => entry.predictions);
      const absent = files.find((file) => !existsSync(file));
      if (absent)
        throw new ConfigError(
          `m3 merge: shard prediction file ${absent} (named in its store's manifest) is not there; is the shared volume mounted at the same path?`,
        );
      const counts: Record<string, number> = {};
      for (const entry of entries) for (const [key, value] of Object.entries(entry.counts ?? {})) counts[key] = (counts[key] ?? 0) + value;
      const name = path.basename(files[0] as string).replace(shardSuffix, '');
      return { trial, seed: entries[0]?.seed ?? null, result: mergePredictionFiles(files, path.join(folder, name)), counts };
    });
}

function runStatus(rows: readonly RunRow[]): 'finished' | 'failed' | 'interrupted' {
  if (rows.every((row) => row.status === 'finished')) return 'finished';
  return rows.some((row) => row.status === 'failed') ? 'failed' : 'interrupted';
}

/** Everything that needs only the shard stores: distinct, complete, non-overlapping shards of one run. */
function checkRun(runId: string, runs: readonly ShardRun[]): { ordered: ShardInput[]; tasks: number } {
  const ordered = checkShards(runs.map((run) => run.input));
  checkComplete(runId, ordered, runs);
  return { ordered, tasks: checkOverlap(runId, runs) };
}

function mergeOneRun(target: Store, runId: string, runs: readonly ShardRun[], folder: string): MergedRunReport {
  const { ordered, tasks } = checkRun(runId, runs);
  // A target that already holds this run (an earlier merge) must hold the same run.
  const existing = getRun(target, runId);
  if (existing?.manifest) checkSameRun(parseShardManifest(existing.manifest, `${target.file} (run ${runId})`), ordered[0] as ShardInput);
  const manifest = mergeShardManifests(ordered);
  mkdirSync(folder, { recursive: true });
  const trials = mergeTrialPredictions(runs, folder);
  if (trials.length > 0)
    manifest.trialFiles = trials.map(({ trial, seed, result, counts }) => ({
      trial,
      seed,
      predictions: result.output,
      manifest: manifestFileOf(result.output),
      counts,
    }));
  const rows = runs.map((run) => run.row);
  const finished = rows.map((row) => row.finishedAt).filter((value) => value !== null);
  const tables = mergeRunShards(
    target,
    runs.map((run) => run.store),
    {
      runId,
      manifest,
      status: runStatus(rows),
      startedAt: rows.map((row) => row.startedAt).sort()[0] as string,
      finishedAt: finished.length === rows.length ? (finished.sort().at(-1) ?? null) : null,
    },
  );
  return {
    runId,
    status: runStatus(rows),
    batchId: rows[0]?.batchId ?? null,
    manifest,
    shards: ordered.map((input) => input.origin),
    tasks,
    tables,
    predictions: trials.map((entry) => entry.result),
  };
}

function shardRuns(sources: readonly Store[]): Map<string, ShardRun[]> {
  const byRun = new Map<string, ShardRun[]>();
  for (const store of sources) {
    for (const row of listRuns(store)) {
      const input = parseShardManifest(row.manifest, `${store.file} (run ${row.runId})`);
      byRun.set(row.runId, [...(byRun.get(row.runId) ?? []), { store, row, input }]);
    }
  }
  return new Map([...byRun.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Merges every run of the shard stores into the target store; one transaction per run, after every run is checked. */
export function mergeShardStores(request: MergeStoresRequest): { runs: MergedRunReport[]; batchManifests: string[] } {
  if (request.sources.length === 0) throw new ConfigError('m3 merge: name the shard stores to merge (--from-store a.sqlite b.sqlite ...)');
  const targetFile = path.resolve(request.target);
  const sourceFiles = request.sources.map((file) => path.resolve(file));
  if (sourceFiles.includes(targetFile)) throw new ConfigError(`m3 merge: ${targetFile} is both a shard and the target; merge into another store`);
  for (const file of sourceFiles) if (!existsSync(file)) throw new ConfigError(`m3 merge: shard store ${file} does not exist`);
  const sources = sourceFiles.map((file) => openStore(file, { readonly: true }));
  try {
    const byRun = shardRuns(sources);
    if (byRun.size === 0) throw new ConfigError(`m3 merge: the shard stores hold no run (${sourceFiles.join(', ')})`);
    // Refusals that need only the shards come before the target is created or touched.
    for (const [runId, runs] of byRun) checkRun(runId, runs);
    const resultsDir = path.resolve(request.resultsDir);
    const folderOf = (batchId: string | null, runId: string) => (request.runDir ? path.resolve(request.runDir) : runFolder(resultsDir, batchId ?? runId));
    const target = openStore(targetFile);
    try {
      const reports = [...byRun.entries()].map(([runId, runs]) => mergeOneRun(target, runId, runs, folderOf(runs[0]?.row.batchId ?? null, runId)));
      const batchManifests = writeMergedBatchManifests(reports, (batchId) => folderOf(batchId, batchId), targetFile);
      const finished = reports.filter((report) => report.status === 'finished').at(-1);
      if (!request.runDir && finished) writeLatestPointer(resultsDir, folderOf(finished.batchId, finished.runId));
      return { runs: reports, batchManifests };
    } finally {
      target.close();
    }
  } finally {
    for (const store of sources) store.close();
  }
}
