// `m3 export --reference`: one run's files in the flat layout the reference's scripts default to,
// `<to>/results/` (predictions, manifests, per-model evaluation folders, tool catalogs) and
// `<to>/results_cv/` (the CV outputs), so its Python tools run unchanged from `<to>`. A copy, never
// a merge: an existing non-empty target is refused.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors/index.js';
import { CV_FOLDER, LATEST_POINTER, runFolder } from './layout.js';
import { readLatestPointer } from './latest.js';

/** Folders of a run that are the harness's own (workspaces, logs, figures), not the reference's layout. */
const notExported = new Set([CV_FOLDER, 'workspaces', 'logs', 'save', 'placeholder-images']);

export interface ExportedRun {
  runDir: string;
  results: string;
  resultsCv: string;
  files: number;
}

/** The run folder of `runId` under `resultsDir` (`latest`: the last finished run), or a clear error. */
export function findRunFolder(resultsDir: string, runId: string): string {
  if (runId === LATEST_POINTER) {
    const latest = readLatestPointer(resultsDir);
    if (!latest) throw new ConfigError(`${path.join(resultsDir, LATEST_POINTER)}: no finished run yet`);
    return latest;
  }
  const folder = runFolder(resultsDir, runId);
  if (!existsSync(folder)) {
    const runsDir = path.dirname(folder);
    const known = existsSync(runsDir) ? readdirSync(runsDir).sort().slice(-5) : [];
    throw new ConfigError(`no run folder ${folder}${known.length > 0 ? ` (latest runs: ${known.join(', ')})` : ''}`);
  }
  return folder;
}

function isNonEmptyFolder(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).length > 0;
}

export function exportReference(runDir: string, to: string): ExportedRun {
  const results = path.join(to, 'results');
  const resultsCv = path.join(to, CV_FOLDER);
  for (const target of [results, resultsCv])
    if (isNonEmptyFolder(target)) throw new ConfigError(`${target} is not empty: export into a new --to folder (nothing is merged)`);
  let files = 0;
  for (const name of readdirSync(runDir)) {
    const source = path.join(runDir, name);
    // Model folders, and the JSON files: predictions, manifests, the batch manifest, the catalogs.
    const keep = statSync(source).isDirectory() ? !notExported.has(name) : name.endsWith('.json');
    if (!keep) continue;
    cpSync(source, path.join(results, name), { recursive: true });
    files += 1;
  }
  if (existsSync(path.join(runDir, CV_FOLDER))) {
    cpSync(path.join(runDir, CV_FOLDER), resultsCv, { recursive: true });
    files += 1;
  }
  return { runDir, results, resultsCv, files };
}
