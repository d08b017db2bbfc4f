// The one way result files are written: a temp file beside the target (`<file>.<pid>.tmp`),
// flushed to disk, then renamed over it, so a reader (or a crash) never sees half a file.
// Non-ASCII is kept as-is. A failed write removes its temp file; one left by a killed process
// is removed by removeStaleTemporaries() when the next run starts.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../config/process-alive.js';

function temporaryName(file: string): string {
  return `${file}.${process.pid}.tmp`;
}

const temporaryPattern = /^.+\.(\d+)\.tmp$/;

/**
 * Deletes `*.<pid>.tmp` files in `dir` whose writer no longer runs (a run killed mid-write).
 * Files of live processes are left alone: they may be writing right now. Returns the names removed.
 */
export function removeStaleTemporaries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const pid = Number(temporaryPattern.exec(name)?.[1]);
    if (!pid || isProcessAlive(pid)) continue;
    rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Pretty JSON (2-space indent, trailing newline), like every reference output. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** writeFileAtomic without blocking the event loop, for files rewritten while work is running. */
export async function writeFileAtomicAsync(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
