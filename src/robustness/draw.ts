// Seeded draws keyed by what they decide (seed, task, tool, arguments, occurrence), so the same
// seed plants the same distractors, faults and injections on every machine and in any call order.
import { createRandom } from '../core/seeded-random.js';

/** FNV-1a over the parts, joined with a separator that cannot occur in them by accident. */
function hashParts(parts: ReadonlyArray<string | number>): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0001')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A number in [0, 1) that depends only on the parts. */
export function drawFor(...parts: Array<string | number>): number {
  return createRandom(hashParts(parts))();
}

/** A generator seeded by the parts, for decisions that need several numbers. */
export function randomFor(...parts: Array<string | number>): () => number {
  return createRandom(hashParts(parts));
}

/** Counts how often each key was seen: the n-th identical call gets its own draw. */
export class Occurrences {
  private readonly seen = new Map<string, number>();
  next(key: string): number {
    const count = this.seen.get(key) ?? 0;
    this.seen.set(key, count + 1);
    return count;
  }
}
