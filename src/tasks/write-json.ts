// The one way result files are written: a temp file beside the target (`<file>.<pid>.tmp`),
// flushed to disk, then renamed over it, so a reader (or a crash) never sees half a file.
// Non-ASCII is kept as-is. A failed write removes its temp file; one left by a killed process
// is removed by removeStaleTemporaries() when the next run starts.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
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
  writeFileAtomicWith(file, (fd) => {
    writeSync(fd, text);
  });
}

/** writeFileAtomic for content written piece by piece: `write` gets the temp file's descriptor. */
export function writeFileAtomicWith(file: string, write: (fd: number) => void): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  try {
    const fd = openSync(temporary, 'w');
    try {
      write(fd);
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

/** writeFileAtomicWith without blocking the event loop, for files rewritten while work is running. */
export async function writeFileAtomicAsyncWith(file: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  try {
    const handle = await open(temporary, 'w');
    try {
      await write(handle);
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
