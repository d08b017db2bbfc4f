// The transport policy's encodes (and the decodes that depend on the bytes alone: the full
// decode check, the colour statistics), kept for the images a process sends again. Lossless WebP
// and the palette PNG cost most of an image's preparation (a few hundred ms of CPU for a
// screenshot), and a run prepares the same task image once per episode: every trial, condition and
// model of a task again, for destinations that often share the target size and so the encoding.
// Each is a pure function of the input bytes and its key (size, alpha, encoder and options), so a
// kept result is what a new run would give; callers only read it. Bounded by entries and bytes
// (buffers count their length), oldest out first; a failure is not kept.
import { createHash } from 'node:crypto';

const maxEntries = 64;
const maxBytes = 64 * 1024 * 1024;

interface Entry {
  value: Promise<unknown>;
  bytes: number;
}

const kept = new Map<string, Entry>();
let keptBytes = 0;

/** The key part that names the input: its sha256 (the bytes, not the file name). */
export function inputDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function evict(): void {
  for (const [key, entry] of kept) {
    if (kept.size <= maxEntries && keptBytes <= maxBytes) return;
    kept.delete(key);
    keptBytes -= entry.bytes;
  }
}

/** The result kept under `key`, or `make()`'s (kept once it succeeds); concurrent callers share one run. */
export function memoised<T>(key: string, make: () => Promise<T>): Promise<T> {
  const found = kept.get(key);
  if (found) {
    kept.delete(key); // most recently used last
    kept.set(key, found);
    return found.value as Promise<T>;
  }
  const entry: Entry = { value: make(), bytes: 0 };
  kept.set(key, entry);
  entry.value.then(
    (value) => {
      if (kept.get(key) !== entry) return;
      entry.bytes = Buffer.isBuffer(value) ? value.length : 0;
      keptBytes += entry.bytes;
      evict();
    },
    () => {
      if (kept.get(key) === entry) kept.delete(key);
    },
  );
  evict();
  return entry.value as Promise<T>;
}
