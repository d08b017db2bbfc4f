// The record-replay cache as the fallback layer uses it: entries keyed by server, tool, the
// normalised arguments and the server's tool-surface hash, in their own SQLite file (the SQL is
// in src/store/fallback-cache.ts). Real returns replace older entries; simulated ones never
// displace an entry that is already there.
import {
  cacheEntriesOfTool,
  findCacheEntry,
  openFallbackCache,
  putCacheEntry,
  scrubCacheEntries,
  type CacheEntry,
  type CacheSource,
  type PutOutcome,
  type Store,
} from '../store/index.js';
import { argumentsKey } from './argument-key.js';

/** The largest result the cache holds (UTF-8 bytes): recorded, simulated or imported. */
const maxCachedResultBytes = 1024 * 1024;

/** Why a result is too large for the cache, or undefined when it fits. */
export function oversizedResult(text: string): string | undefined {
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > maxCachedResultBytes ? `the result is ${bytes} bytes, over the cache's cap of ${maxCachedResultBytes} bytes (1 MiB)` : undefined;
}

/**
 * Opens a cache file for the layer or a transfer, first bringing every entry in line with the
 * secrets registered now: keys of redacted arguments, no secret in any column (see
 * src/fallback/argument-key.ts), whatever wrote the file before.
 */
export function openScrubbedCache(file: string): Store {
  const store = openFallbackCache(file);
  try {
    scrubCacheEntries(store, argumentsKey);
    return store;
  } catch (error) {
    store.close();
    throw error;
  }
}

export interface CacheKey {
  server: string;
  tool: string;
  arguments: unknown;
  /** The server's tool-surface hash ('' when the host does not know it). */
  toolsHash: string;
}

export class FallbackCache {
  private constructor(private readonly store: Store) {}

  static open(file: string): FallbackCache {
    return new FallbackCache(openScrubbedCache(file));
  }

  get file(): string {
    return this.store.file;
  }

  lookup(key: CacheKey): CacheEntry | undefined {
    return findCacheEntry(this.store, { server: key.server, tool: key.tool, argumentsKey: argumentsKey(key.arguments), toolsHash: key.toolsHash });
  }

  record(key: CacheKey, resultText: string, source: CacheSource): PutOutcome {
    const oversize = oversizedResult(resultText);
    if (oversize) throw new Error(`${key.server}/${key.tool}: not cached: ${oversize}`);
    return putCacheEntry(
      this.store,
      { server: key.server, tool: key.tool, argumentsKey: argumentsKey(key.arguments), toolsHash: key.toolsHash, arguments: key.arguments, resultText, source },
      { replace: source === 'real' },
    );
  }

  /** Up to `limit` recorded real returns of a tool, newest first (the simulator's examples). */
  realExamples(server: string, tool: string, limit: number): CacheEntry[] {
    return cacheEntriesOfTool(this.store, server, tool, 'real', limit);
  }

  close(): void {
    this.store.close();
  }
}
