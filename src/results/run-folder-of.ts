// Which folder holds a stored run's files, so every reader (the viewer, the report's links)
// reads that run's own evaluation outputs and never another run's of the same model label.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isBatchManifestName, runFolder } from './layout.js';
import { readLatestPointer } from './latest.js';
import { runManifestSchema } from './run-manifest.js';

const trialFilesPart = runManifestSchema.pick({ trialFiles: true }).partial().loose();

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The run's folder: where its first trial's prediction file was written (the store's manifest),
 * else `<results-dir>/runs/<batch id>/` when it exists, else the results folder itself (a run
 * written before runs had folders, in the flat layout).
 */
export function runFolderOfStoredRun(resultsDir: string, run: { batchId?: string | null; manifest?: unknown }): string {
  const parsed = trialFilesPart.safeParse(run.manifest ?? {});
  const predictions = parsed.success ? parsed.data.trialFiles?.[0]?.predictions : undefined;
  if (predictions && existsSync(path.dirname(predictions))) return path.dirname(predictions);
  if (run.batchId) {
    const folder = runFolder(resultsDir, run.batchId);
    if (isFolder(folder)) return folder;
  }
  return path.resolve(resultsDir);
}

/**
 * The folder a reader (`m3 summary`, `m3 report`) reads: a results root with a `latest` pointer
 * reads the run it points at; any other folder (a run folder, the flat layout of older runs and
 * of `m3 export --reference`) is read as it is.
 */
export function resolveReadFolder(dir: string): { dir: string; viaLatest: boolean } {
  const latest = readLatestPointer(dir);
  return latest ? { dir: latest, viaLatest: true } : { dir: path.resolve(dir), viaLatest: false };
}

/** True for a folder `m3 run` wrote (it holds a batch manifest). */
export function isRunFolder(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => isBatchManifestName(name));
  } catch {
    return false;
  }
}

/** Figures and reports of a run go into its own `save/`; of a flat results folder, into `save/`. */
export function defaultSaveFolder(readDir: string): string {
  return isRunFolder(readDir) ? path.join(readDir, 'save') : path.resolve('save');
}
