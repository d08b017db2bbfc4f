// One `m3 dataset pull` per destination at a time. Two pulls into one folder would write the
// same temp files and race on the lock file; the second is refused, naming the first's process.
// The lock is a file created exclusively (`wx`) in each destination's partial folder and holding
// the owner's pid; a lock whose process is gone (a killed pull) is taken over.
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatasetError } from './dataset-error.js';
import { partialFolder } from './layout.js';

const lockName = 'pull.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function takeOne(folder: string): string {
  const dir = path.join(path.resolve(folder), partialFolder);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, lockName);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = ownerOf(file);
      if (owner !== undefined && isAlive(owner)) {
        throw new DatasetError(
          'lock',
          `another m3 dataset pull (pid ${owner}) is writing into ${path.resolve(folder)}; wait for it to end (if no such pull runs, delete ${file})`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DatasetError('lock', `cannot take the pull lock ${file}; delete it if no pull is running`);
}

/** The partial folder goes when nothing is left in it (no interrupted download to resume). */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (a .part kept for the next run) or already gone.
  }
}

/** Locks every destination folder (each once); returns the release function. */
export function acquirePullLock(folders: readonly string[]): () => void {
  const taken: string[] = [];
  const release = () => {
    for (const file of taken.splice(0)) {
      if (ownerOf(file) === process.pid) rmSync(file, { force: true });
      removeIfEmpty(path.dirname(file));
    }
  };
  try {
    for (const folder of new Set(folders.map((entry) => path.resolve(entry)))) taken.push(takeOne(folder));
  } catch (error) {
    release();
    throw error;
  }
  return release;
}
