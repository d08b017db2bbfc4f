// The record-replay cache as the fallback layer uses it: entries keyed by server, tool, the
// normalised arguments and the server's tool-surface hash, in their own SQLite file (the SQL is
// in src/store/fallback-cache.ts). Real returns replace older entries; simulated ones never
// displace an entry that is already there.
import {
  cacheEntriesOfTool,
  findCacheEntry,
  openFallbackCache,
  putCacheEntry,
  type CacheEntry,
  type CacheSource,
  type PutOutcome,
  type Store,
} from '../store/index.js';
import { argumentsKey } from './argument-key.js';

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
    return new FallbackCache(openFallbackCache(file));
  }

  get file(): string {
    return this.store.file;
  }

  lookup(key: CacheKey): CacheEntry | undefined {
    return findCacheEntry(this.store, { server: key.server, tool: key.tool, argumentsKey: argumentsKey(key.arguments), toolsHash: key.toolsHash });
  }

  record(key: CacheKey, resultText: string, source: CacheSource): PutOutcome {
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
