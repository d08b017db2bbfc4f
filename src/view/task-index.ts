// The run page's task rows with the text they are searched by (task id, question, final answer,
// tool names and arguments, from the episode's prediction), built once per run and kept while
// nothing it was read from changed: a finished run's rows are reused until its evaluation files
// change, so a filter, sort or page of a 10,000-episode run costs one pass over cached rows. A run
// in flight is rebuilt on every request (its rows change with each episode).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { resultFiles } from '../report/load-results.js';
import { runFolderOfStoredRun } from '../results/run-folder-of.js';
import type { EpisodeRow, RunRow } from '../store/index.js';
import { evalLabel, taskRowsOf, type TaskRow, type ViewSources } from './pages.js';

export interface IndexedRow {
  row: TaskRow;
  /** Lower-cased text a search matches against. */
  text: string;
}

function searchText(row: TaskRow, episode: EpisodeRow): string {
  const prediction = episode.prediction;
  const calls = (prediction?.steps ?? []).flatMap((step) => step.calls.map((call) => `${call.name} ${JSON.stringify(call.arguments ?? null)}`));
  return [row.taskId, prediction?.question ?? '', prediction?.final_reply ?? '', ...row.tools, ...calls, episode.errorMessage ?? ''].join('\n').toLowerCase();
}

function stamp(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return '-';
  }
}

/** What the rows were read from besides the store: the run folder's batch manifests and each trial's evaluation files. */
function inputsKey(sources: ViewSources, run: RunRow): string {
  const runDir = runFolderOfStoredRun(sources.resultsDir, run);
  let manifests: string[] = [];
  try {
    manifests = readdirSync(runDir).filter((name) => name.endsWith('.batch.json'));
  } catch {
    manifests = [];
  }
  const trials = Array.from({ length: run.trials }, (_, index) => evalLabel(run, index + 1));
  const files = [
    ...manifests.map((name) => path.join(runDir, name)),
    ...trials.flatMap((label) => [resultFiles.step, resultFiles.taskCompletion, resultFiles.proxy].map((name) => path.join(runDir, label, name))),
  ];
  return [run.status, run.finishedAt ?? '', ...files.map((file) => `${file}=${stamp(file)}`)].join('|');
}

const cache = new Map<string, { key: string; rows: IndexedRow[] }>();

export function indexedRows(sources: ViewSources, run: RunRow): IndexedRow[] {
  const key = run.status === 'running' ? null : `${sources.store.file}#${inputsKey(sources, run)}`;
  const hit = cache.get(run.runId);
  if (key !== null && hit?.key === key) return hit.rows;
  const rows = taskRowsOf(sources, run).map(({ row, episode }) => ({ row, text: searchText(row, episode) }));
  if (key !== null) cache.set(run.runId, { key, rows });
  return rows;
}
