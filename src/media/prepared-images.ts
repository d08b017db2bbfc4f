// Prepared images by content. prepareImage is a function of the bytes and the policy (the source
// only names the image in its facts and its errors), and a run meets the same bytes many times:
// tasks that share an image, every model of a run, trials, resumes, a tool that returns the
// same picture again. Preparing costs a full decode and one or more encodes (~100 ms of CPU per
// image, most of it in libvips threads); the bundled suite's `npm run bench` prepared 242 images
// of which 39 were distinct. The cache holds the payloads (bounded by their total size, least
// recently used first out) and hands every caller its own part object: parts are keys of
// WeakMaps (the delivery audit, conversions), so one object must never serve two requests.
import { createHash } from 'node:crypto';
import type { ImagePart } from '../core/content.js';

/** Total base64 characters kept (one byte each): a run's working set of images, not its history. */
const maxCachedChars = 32 * 1024 * 1024;
/** A payload above this is prepared every time rather than push many smaller ones out. */
const maxEntryChars = 8 * 1024 * 1024;

interface Entry {
  part: Promise<ImagePart>;
  /** Known once the part is ready; 0 while pending. */
  chars: number;
}

/** A cache of prepared payloads, keyed by the sha256 of the bytes and the policy. */
export function createPreparedImages(limits = { maxCachedChars, maxEntryChars }) {
  const entries = new Map<string, Entry>();
  let total = 0;

  const forget = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    total -= entry.chars;
  };

  const settle = (key: string, entry: Entry, part: ImagePart) => {
    if (entries.get(key) !== entry) return;
    if (part.data.length > limits.maxEntryChars) return forget(key, entry);
    entry.chars = part.data.length;
    total += entry.chars;
    for (const [oldest, old] of entries) {
      if (total <= limits.maxCachedChars || oldest === key) break;
      forget(oldest, old);
    }
  };

  /** The part for `bytes` under `policyKey`, prepared by `prepare` only when not cached; `source` goes into its facts. */
  return async function prepared(bytes: Uint8Array, policyKey: string, source: string, prepare: () => Promise<ImagePart>): Promise<ImagePart> {
    const key = `${createHash('sha256').update(bytes).digest('hex')} ${policyKey}`;
    const hit = entries.get(key);
    if (hit) {
      // Most recently used last: Map order is the eviction order.
      entries.delete(key);
      entries.set(key, hit);
      const part = await hit.part.catch(() => undefined);
      // A failed preparation is not kept: this caller prepares again, for an error naming its own source.
      if (part) return withSource(part, source);
    }
    const entry: Entry = { part: prepare(), chars: 0 };
    entries.set(key, entry);
    try {
      const part = await entry.part;
      settle(key, entry, part);
      return withSource(part, source);
    } catch (error) {
      forget(key, entry);
      throw error;
    }
  };
}

function withSource(part: ImagePart, source: string): ImagePart {
  return part.facts ? { ...part, facts: { ...part.facts, source } } : { ...part };
}
