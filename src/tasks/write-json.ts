// The one way result files are written: a temp file beside the target, flushed to disk, then
// renamed over it, so a reader (or a crash) never sees half a file. Non-ASCII is kept as-is.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';

function temporaryName(file: string): string {
  return `${file}.${process.pid}.tmp`;
}

export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/** Pretty JSON (2-space indent, trailing newline), like every reference output. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** writeFileAtomic without blocking the event loop, for files rewritten while work is running. */
export async function writeFileAtomicAsync(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/** The same without blocking the event loop, for files rewritten while work is running. */
export async function writeJsonAtomicAsync(file: string, value: unknown): Promise<void> {
  await writeFileAtomicAsync(file, `${JSON.stringify(value, null, 2)}\n`);
}
