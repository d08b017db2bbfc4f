// `<results-dir>/latest`: a symlink to the folder of the last finished run, so the reference's
// tools and our evaluate_*.sh can be pointed at `results/latest` without knowing the run id. It
// is replaced atomically (a new link renamed over the old one); nothing else is ever merged there.
import { existsSync, lstatSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { LATEST_POINTER } from './layout.js';

function latestPointerFile(resultsDir: string): string {
  return path.join(path.resolve(resultsDir), LATEST_POINTER);
}

/** Points `<results-dir>/latest` at `runDir` (relative when the run lives under the results folder). */
export function writeLatestPointer(resultsDir: string, runDir: string): void {
  const pointer = latestPointerFile(resultsDir);
  const relative = path.relative(path.dirname(pointer), runDir);
  const target = relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(runDir) : relative;
  const temporary = `${pointer}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  symlinkSync(target, temporary, 'dir');
  renameSync(temporary, pointer);
}

/** The run folder `latest` names, or undefined when there is none yet. */
export function readLatestPointer(resultsDir: string): string | undefined {
  const pointer = latestPointerFile(resultsDir);
  try {
    if (!lstatSync(pointer).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  const target = path.resolve(path.dirname(pointer), readlinkSync(pointer));
  return existsSync(target) ? target : undefined;
}
